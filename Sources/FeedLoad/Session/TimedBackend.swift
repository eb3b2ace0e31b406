import FeedEngine
import FeedModel
import FeedReplay
import FeedStore

/// The ``ReplayBackend`` of a load session: the controller's page queries and the virtualizer's
/// row fetches run for real on the session's own SQLite connection, each timed with a monotonic
/// clock, through a ``TimedFeedSource`` (keyset, or OFFSET pages for More in
/// ``PaginationMode/offset``), which also records the walks the store returned for the
/// ``ConsistencyChecker``.
///
/// Upstream `insert` events of a trace write real rows at the feed's head through a
/// ``StoreBackend`` on the same connection (timed as ``QueryKind/insert``); the replay's own gap
/// check reads its ground truth through the same ``StoreBackend``, untimed.
public final class TimedBackend: ReplayBackend {
    public let source: TimedFeedSource
    private let store: StoreBackend
    private let clock = ContinuousClock()
    private var insertSamples: [UInt64] = []
    private var inserted = 0

    /// - Parameters:
    ///   - store: the session's connection (one thread at a time).
    ///   - insertPreset: the preset a trace's `insert` events generate rows from; `seed` seeds it.
    /// - Throws: ``SQLiteError`` when the feed's newest item cannot be read.
    public init(store: ItemStore, feed: FeedID, mode: PaginationMode, insertPreset: Preset, seed: UInt64) throws {
        source = TimedFeedSource(store: store, feed: feed, mode: mode)
        self.store = try StoreBackend(store: store, feed: feed, insertPreset: insertPreset, seed: seed)
    }

    public func page(_ request: FeedController.FetchRequest) throws -> Page {
        try request.run(on: source)
    }

    public func rows(ids: [Int64]) throws -> RowBatch {
        try source.rows(ids: ids)
    }

    public func insertAtHead(count: Int, at t: Double) throws {
        let start = clock.now
        try store.insertAtHead(count: count, at: t)
        insertSamples.append(start.duration(to: clock.now).nanoseconds)
        inserted += count
    }

    public func groundTruth(after cursor: Cursor, limit: Int) throws -> [Item] {
        try store.groundTruth(after: cursor, limit: limit)
    }

    /// Moves the samples and counts gathered since the last call into `metrics`.
    public func flush(into metrics: inout LoadMetrics) {
        source.flush(into: &metrics)
        for nanoseconds in insertSamples { metrics.record(.insert, nanoseconds: nanoseconds) }
        metrics.inserted += inserted
        metrics.insertTransactions += insertSamples.count
        insertSamples.removeAll(keepingCapacity: true)
        inserted = 0
    }
}
