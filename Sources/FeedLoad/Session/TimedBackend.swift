import FeedEngine
import FeedModel
import FeedReplay
import FeedStore
import FeedResources

/// The ``ReplayBackend`` of a load session: the controller's page queries and the virtualizer's
/// row fetches run for real on the session's own SQLite connection, each timed with a monotonic
/// clock, through a ``TimedFeedSource`` (keyset, or OFFSET pages for More in
/// ``PaginationMode/offset``), which also records the walks the store returned for the
/// ``ConsistencyChecker``.
///
/// Upstream `insert` events of a trace write real rows at the feed's head as the load's writers do
/// (a ``HeadWriter``: `BEGIN IMMEDIATE`, then items published after the newest one, so they land
/// at the head even while writers insert; timed as ``QueryKind/insert``, on a connection opened at
/// the first insert). The replay's own gap check reads its ground truth with the store's keyset
/// query, untimed.
public final class TimedBackend: ReplayBackend {
    public let source: TimedFeedSource
    private let pages: FeedPageSource
    private let path: String
    private let feed: FeedID
    private let insertPreset: Preset
    private let seed: UInt64
    private var headWriter: HeadWriter?
    /// Insert latencies, counts and errors since the last flush.
    private var insertMetrics = LoadMetrics()

    /// - Parameters:
    ///   - store: the session's connection (one thread at a time).
    ///   - path: the database file, for the insert connection.
    ///   - insertPreset: the preset a trace's `insert` events generate rows from; `seed` seeds it.
    public init(store: ItemStore, path: String, feed: FeedID, mode: PaginationMode, insertPreset: Preset, seed: UInt64) {
        source = TimedFeedSource(store: store, feed: feed, mode: mode)
        pages = store.pages(feed: feed)
        self.path = path
        self.feed = feed
        self.insertPreset = insertPreset
        self.seed = seed
    }

    public func page(_ request: FeedController.FetchRequest) throws -> Page {
        try request.run(on: source)
    }

    public func rows(ids: [Int64]) throws -> RowBatch {
        try source.rows(ids: ids)
    }

    /// Inserts `count` items at the head now (`t` is not used: the head moves with the writers).
    /// A failed transaction is rolled back and counted by result code, as a writer's.
    /// - Throws: ``RawSQLiteError`` when the insert connection cannot be opened.
    public func insertAtHead(count: Int, at t: Double) throws {
        if headWriter == nil {
            headWriter = try HeadWriter(path: path, feed: feed, preset: insertPreset, seed: seed)
        }
        headWriter?.insertBatch(count, into: &insertMetrics)
    }

    public func groundTruth(after cursor: Cursor, limit: Int) throws -> [Item] {
        guard limit > 0 else { return [] }
        return try pages.after(cursor, limit: limit).items
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
