import FeedEngine
import FeedModel
import FeedReplay
import FeedResources

/// One load session that pages down the feed as fast as the store answers: a real
/// ``FeedEngine/FeedController`` over the session's ``TimedBackend`` (keyset or OFFSET pages), with
/// no frames, no layout, no scroll model and no think time. It measures the load tester's
/// pagination path on its own — what `feedsim bench load` sets beside a bare SQLite loop.
///
/// The loop, one page per ``step(_:)``:
/// 1. Init (``FeedController/start(now:)``), or the More the last viewport report fired;
/// 2. the page query runs on the session's connection (timed), and the answer goes back through
///    ``FeedController/pageArrived(_:page:now:)``;
/// 3. for each ``FeedAction/apply(_:)`` that brings items, their rows are fetched in batches of
///    ``rowBatchLimit`` ids, as the replay's virtualizer would ask for them (it sends the items
///    entering its preload range in batches of at most ``Virtualizer/defaultRowBatchLimit``);
///    steps 2 and 3 run in one read transaction (``FeedModel/FeedBackend/read(_:)``), as a server
///    answering the page request with its items would: one snapshot, so no row of the page can
///    be missing;
/// 4. the viewport is reported at the end of the loaded content — the items stacked by their
///    intrinsic heights, a one-column list — so the distance to the end is 0, within any prefetch
///    distance, and the controller fires the next More at once.
///
/// The session ends when the controller has nothing more to load (end of the feed, or a direction
/// that gave up after its retries), or after ``pageBudget`` pages. A failed page query is retried
/// as the controller schedules it, without waiting (the retry's virtual time is taken at once);
/// a failed row fetch ends the session with its error, as in a replay session.
///
/// At the end each walk the store returned is checked for duplicates and skips against the ground
/// truth (``ConsistencyChecker``), exactly as ``ReplayLoadSession`` does.
public final class PaginationLoadSession: LoadSession {
    /// Viewport length reported to the controller, points (an iPhone 14's 844-point screen).
    public static let viewportLength = 844.0

    public let index: Int
    /// Most page requests this session runs (Init and retries included) before it ends.
    public let pageBudget: Int
    /// Most ids per row statement.
    public let rowBatchLimit: Int
    private var controller: FeedController
    private let backend: TimedBackend
    private let pool: ConnectionPool
    private let connections: SessionConnections
    private let maxIDAtStart: Int64
    /// Requests the controller asked for and that have not run yet (at most one per direction).
    private var requests: [FeedController.FetchRequest] = []
    /// Virtual times (ms) of the retries the controller scheduled, earliest first.
    private var retries: [Double] = []
    /// Virtual time, milliseconds: moves only to a scheduled retry's time.
    private var now = 0.0
    /// Length of the loaded content, points: the loaded items' heights summed.
    private var contentLength = 0.0
    private var pagesLoaded = 0
    private var started = false
    /// The ids of one row statement, refilled for each (one buffer for the session's life).
    private var rowIDs: [Int64] = []
    /// On a backend that answers later (an HTTP feed API): requests go onto the worker's I/O and
    /// the session waits aside (``awaitsIO``) instead of holding its worker.
    private let deferredMode: Bool
    /// The page request on the wire, in ``deferredMode``.
    private var pendingPage: (request: FeedController.FetchRequest, answer: DeferredAnswer<Page>)?
    /// The row requests of the last page's items on the wire, in ``deferredMode``.
    private var pendingRows: [DeferredAnswer<RowBatch>] = []

    /// The walks down the feed the store returned so far, in load order (see ``TimedFeedSource``).
    public var walks: [Walk] { backend.source.walks }

    /// Takes connections from `pool` (opening them on the calling thread when none is idle) and
    /// reads the largest id. The connections go back in ``finish(interrupted:_:)`` (or at once when
    /// this throws).
    /// - Parameters:
    ///   - controller: page size, Init pages, prefetch distance, retries, page dropping.
    ///   - pageBudget: most page requests (≥ 1).
    ///   - rowBatchLimit: most ids per row statement (≥ 1).
    ///   - insertPreset: unused by the session itself (it writes nothing); the backend needs one.
    /// - Throws: ``FeedController/ConfigurationError`` for an invalid controller configuration,
    ///   the backend's errors opening the session's or the ground truth's connection.
    public init(
        index: Int, pool: ConnectionPool, mode: PaginationMode,
        controller configuration: FeedController.Configuration, pageBudget: Int,
        rowBatchLimit: Int = Virtualizer.defaultRowBatchLimit, insertPreset: Preset, seed: UInt64
    ) throws {
        precondition(pageBudget >= 1 && rowBatchLimit >= 1, "a page budget and a row batch limit of at least 1")
        self.index = index
        self.pageBudget = pageBudget
        self.rowBatchLimit = rowBatchLimit
        self.pool = pool
        // Retry jitter from the session's seed (as a replay session derives it), not the policy's own.
        var derived = configuration
        var root = SplitMix64(seed: seed)
        derived.retry.seed = root.next()
        controller = try FeedController(configuration: derived)
        let connections = try pool.take()
        do {
            // Read only where the end-of-session check compares spans (``FeedModel/GroundTruthReader/listsSpans``).
            maxIDAtStart = connections.truth.listsSpans ? try connections.truth.maxID() : 0
        } catch {
            pool.give(connections)
            throw error
        }
        backend = TimedBackend(
            backend: connections.backend, faces: connections.faces, connector: pool.connector, mode: mode,
            insertPreset: insertPreset, seed: seed)
        self.connections = connections
        deferredMode = backend.source.deferred != nil && mode == .keyset
    }

    /// Whether a page or row request of this session is still on the wire (polling reads answers
    /// that arrived, on the calling thread: the session's owner's).
    public var awaitsIO: Bool {
        if let pendingPage, pendingPage.answer.poll() == nil { return true }
        return pendingRows.contains { $0.poll() == nil }
    }

    /// Runs one page request (and the rows of what it brought), or a due retry.
    /// - Returns: `.zero` while there is more to load, `nil` at the end.
    /// - Throws: a row fetch's error (the scheduler ends the session and reports it).
    public func step(_ metrics: inout LoadMetrics) throws -> Duration? {
        let stepStart = MonotonicClock.now()
        defer {
            metrics.replayNanoseconds += MonotonicClock.since(stepStart)
            backend.flush(into: &metrics)
        }
        if deferredMode { return try stepDeferred() }
        if !started {
            started = true
            try perform(controller.start(now: now))
        }
        if requests.isEmpty, !retries.isEmpty {
            now = max(now, retries.removeFirst())
            try perform(controller.tick(now: now))
        }
        guard pagesLoaded < pageBudget, !requests.isEmpty else { return nil }
        let request = requests.removeFirst()
        pagesLoaded += 1
        // One page request is one unit of work on the store, as a server answering it would run
        // it: the page, its probe and the rows it brings read one snapshot.
        try backend.source.backend.read {
            let actions: [FeedAction]
            do {
                let page = try backend.page(request)
                actions = controller.pageArrived(request, page: page, now: now)
            } catch {
                actions = controller.pageFailed(request, error: "\(error)", now: now)
            }
            try perform(actions)
        }
        return pagesLoaded < pageBudget && !(requests.isEmpty && retries.isEmpty) ? .zero : nil
    }

    /// ``step(_:)`` in ``deferredMode``: reads what arrived, then starts the next request and
    /// returns at once; the scheduler keeps the session aside until the answer is there.
    private func stepDeferred() throws -> Duration? {
        if !started {
            started = true
            try perform(controller.start(now: now))
        }
        if !pendingRows.isEmpty {
            guard !pendingRows.contains(where: { $0.poll() == nil }) else { return .zero }
            let answers = pendingRows
            pendingRows = []
            for answer in answers { _ = try answer.poll()?.get() }  // a failed row fetch ends the session
        }
        if let pending = pendingPage {
            guard let result = pending.answer.poll() else { return .zero }
            pendingPage = nil
            switch result {
            case .success(let page): try perform(controller.pageArrived(pending.request, page: page, now: now))
            case .failure(let error): try perform(controller.pageFailed(pending.request, error: "\(error)", now: now))
            }
            if !pendingRows.isEmpty { return .zero }
        }
        if requests.isEmpty, !retries.isEmpty {
            now = max(now, retries.removeFirst())
            try perform(controller.tick(now: now))
        }
        guard pagesLoaded < pageBudget, !requests.isEmpty else { return nil }
        let request = requests.removeFirst()
        pagesLoaded += 1
        pendingPage = (request, backend.source.startPage(request))
        return .zero
    }

    /// Whether `error` is the failed query the session's backend counted last.
    public func hasCounted(_ error: any Error) -> Bool { backend.source.counted(error) }

    /// Checks every walk against the store now.
    public func finish(interrupted: Bool, _ metrics: inout LoadMetrics) throws {
        defer { pool.give(connections) }
        let walks = backend.source.walks
        let count = try ConsistencyChecker.check(
            walks: walks, truth: connections.truth, maxIDAtStart: maxIDAtStart, metrics: &metrics)
        metrics.recordSession(
            SessionOutcome(
                session: index, consistency: count, itemsLoaded: walks.reduce(0) { $0 + $1.count }, error: nil))
    }

    /// Carries out the controller's actions: queues fetches and retries, fetches the rows of applied
    /// items, and reports the viewport at the end of the content after the last change.
    private func perform(_ actions: [FeedAction]) throws {
        var applied = false
        for action in actions {
            switch action {
            case .fetch(let request):
                requests.append(request)
            case .scheduleRetry(let at, _):
                retries.append(at)
                retries.sort()
            case .apply(let change):
                applied = true
                try apply(change)
            case .dropStale, .phaseChanged:
                break
            }
        }
        if applied { try perform(controller.viewportChanged(viewportAtEnd(), now: now)) }
    }

    private func apply(_ change: FeedChange) throws {
        switch change {
        case .append(let items), .prepend(let items):
            contentLength += items.reduce(0) { $0 + $1.height }
            try fetchRows(of: items)
        case .replace(let items):
            contentLength = items.reduce(0) { $0 + $1.height }
            try fetchRows(of: items)
        case .dropFirst, .dropLast:
            contentLength = controller.items.reduce(0) { $0 + $1.height }
        }
    }

    /// Rows of `items`, in batches of at most ``rowBatchLimit`` ids.
    private func fetchRows(of items: [Item]) throws {
        // The buffer is moved out while it is filled: appends to a local array, not to a stored
        // property (each of which Swift would check for exclusive access).
        var ids = rowIDs
        rowIDs = []
        defer { rowIDs = ids }
        var start = items.startIndex
        while start < items.endIndex {
            let end = min(start + rowBatchLimit, items.endIndex)
            ids.removeAll(keepingCapacity: true)
            for item in items[start..<end] { ids.append(item.id) }
            if deferredMode {
                pendingRows.append(backend.source.startRows(ids: ids))
            } else {
                _ = try backend.rows(ids: ids)
            }
            start = end
        }
    }

    /// The viewport scrolled to the end of the content (or at the top when the content is shorter
    /// than the viewport): the distance to the end is at most 0.
    /// - Complexity: O(visible items): walks back from the last item.
    private func viewportAtEnd() -> FeedController.Viewport {
        let items = controller.items
        let offset = max(0, contentLength - Self.viewportLength)
        var first: Int? = items.isEmpty ? nil : items.count - 1
        var top = contentLength
        while let index = first, index > 0, top - items[index].height > offset {
            top -= items[index].height
            first = index - 1
        }
        return FeedController.Viewport(
            contentOffset: offset, viewportLength: Self.viewportLength, contentLength: contentLength,
            firstVisibleIndex: first, lastVisibleIndex: items.isEmpty ? nil : items.count - 1)
    }
}
