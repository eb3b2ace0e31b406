import FeedEngine
import FeedModel
import FeedReplay
import FeedResources

/// The ``ReplayBackend`` of a load session: the controller's page queries and the virtualizer's
/// row fetches run for real on the session's own backend connection, each timed with a monotonic
/// clock, through a ``TimedFeedSource`` (keyset, or OFFSET pages for More in
/// ``PaginationMode/offset``), which also records the walks the store returned for the
/// ``ConsistencyChecker``.
///
/// Upstream `insert` events of a trace write real rows at the feed's head as the load's writers do
/// (a ``HeadWriter``: the backend's ``FeedModel/FeedBackend/insertAtHead(_:)``, items published
/// after the newest one, so they land at the head even while writers insert; timed as
/// ``QueryKind/insert``, on a writer connection opened at the first insert). The replay's own gap
/// check reads its ground truth with the backend's own ground-truth query, untimed.
public final class TimedBackend: DeferredReplayBackend {
    public let source: TimedFeedSource
    private let connector: any FeedBackendConnector
    private let insertPreset: Preset
    private let seed: UInt64
    private var headWriter: HeadWriter?
    /// Insert latencies, counts and errors since the last flush.
    private var insertMetrics = LoadMetrics()
    /// Whether ``lastCallMilliseconds`` is the measured query time (a wall-clock load) or 0 (a
    /// load on a virtual ``LoadClock``, where work takes no time).
    public let chargesQueryTime: Bool

    /// - Parameters:
    ///   - backend: the session's connection (one thread at a time).
    ///   - connector: opens the insert connection.
    ///   - insertPreset: the preset a trace's `insert` events generate rows from; `seed` seeds it.
    ///   - chargesQueryTime: `true` to deliver each answer after its query's measured time (the
    ///     wall clock's loads); `false` for answers at once, so a run on a virtual clock gives the
    ///     same figures however loaded the machine is. The queries are timed either way.
    public convenience init(
        backend: any FeedBackend, connector: any FeedBackendConnector, mode: PaginationMode, insertPreset: Preset,
        seed: UInt64, chargesQueryTime: Bool = true
    ) {
        self.init(
            backend: backend, faces: BackendFaces(backend), connector: connector, mode: mode,
            insertPreset: insertPreset, seed: seed, chargesQueryTime: chargesQueryTime)
    }

    /// The same, with `backend`'s optional protocols already cast (a pooled connection's ``BackendFaces``).
    init(
        backend: any FeedBackend, faces: BackendFaces, connector: any FeedBackendConnector, mode: PaginationMode,
        insertPreset: Preset, seed: UInt64, chargesQueryTime: Bool = true
    ) {
        source = TimedFeedSource(backend: backend, faces: faces, mode: mode)
        self.chargesQueryTime = chargesQueryTime
        self.connector = connector
        self.insertPreset = insertPreset
        self.seed = seed
    }

    public func page(_ request: FeedController.FetchRequest) throws -> Page {
        try request.run(on: source)
    }

    public func rows(ids: [Int64]) throws -> RowBatch {
        try source.rows(ids: ids)
    }

    /// On a backend that answers later (an HTTP feed API), the page request starts on the
    /// worker's I/O and the replay goes on meanwhile; `nil` (run at once) otherwise.
    public func startPage(_ request: FeedController.FetchRequest) -> DeferredAnswer<Page>? {
        guard source.deferred != nil, source.mode == .keyset else { return nil }
        return source.startPage(request)
    }

    public func startRows(ids: [Int64]) -> DeferredAnswer<RowBatch>? {
        guard source.deferred != nil else { return nil }
        return source.startRows(ids: ids)
    }

    /// Inserts `count` items at the head now (`t` is not used: the head moves with the writers).
    /// A failed transaction is rolled back and counted by result code, as a writer's.
    /// - Throws: the backend's error when the insert connection cannot be opened.
    public func insertAtHead(count: Int, at t: Double) throws {
        if headWriter == nil {
            headWriter = HeadWriter(backend: try connector.connectWriter(), preset: insertPreset, seed: seed)
        }
        headWriter?.insertBatch(count, into: &insertMetrics)
    }

    /// The ids of the items this session's trace inserted (its `insert` events), oldest first.
    var insertedIDs: [Int64] { headWriter?.own.map(\.id) ?? [] }

    /// The measured wall time of the last page or row query, ms: the replay delivers its answer
    /// this much later on its virtual clock (before the latency model's draw); 0 unless
    /// ``chargesQueryTime``.
    public var lastCallMilliseconds: Double {
        chargesQueryTime ? Double(source.lastCallNanoseconds) / 1e6 : 0
    }

    /// The replay's gap check. On a backend that answers later (an HTTP feed API) the backend's
    /// own ground truth (the database behind the API with `--truth-db`, else the API's pages), and
    /// nothing when that fails: the API's failure is counted where its requests are (its audit),
    /// not as a gap or a violation of the replay.
    public func groundTruth(after cursor: Cursor, limit: Int) throws -> [Item] {
        guard limit > 0 else { return [] }
        if source.deferred != nil { return (try? source.backend.groundTruth(after: cursor, limit: limit)) ?? [] }
        return try source.backend.groundTruth(after: cursor, limit: limit)
    }

    /// ``groundTruth(after:limit:)``'s cursors, which a database reads from its feed-order index
    /// alone (``FeedModel/FeedBackend/groundTruthCursors(after:limit:)``): the check runs once per page.
    public func groundTruthCursors(after cursor: Cursor, limit: Int) throws -> [Cursor] {
        guard limit > 0 else { return [] }
        if source.deferred != nil { return (try? source.backend.groundTruthCursors(after: cursor, limit: limit)) ?? [] }
        return try source.backend.groundTruthCursors(after: cursor, limit: limit)
    }

    /// Moves the samples and counts gathered since the last call into `metrics`.
    public func flush(into metrics: inout LoadMetrics) {
        source.flush(into: &metrics)
        if insertMetrics.insertTransactions > 0 || !insertMetrics.errors.isEmpty {
            metrics.merge(insertMetrics)
            insertMetrics = LoadMetrics()
        }
    }
}
