import FeedEngine
import FeedModel
import FeedStore

/// The real ``ReplayBackend``: one feed of a SQLite ``ItemStore``, on this session's connection.
///
/// Upstream inserts make rows at the feed's head, generated from a preset, so a later Refresh
/// finds them. They are kept in memory (``PendingInserts``) and merged into what the replay
/// reads, so the store is not written while the replay runs (it may be opened read-only);
/// ``commitInserts(shouldStop:)`` writes them all in one transaction at the end when they are kept.
/// Virtual time 0 is mapped to just after the newest item at the start, so an insert at `t` ms is
/// published at `newest + 1 + t` ms or later (saturating at `Int64.max`).
public final class StoreBackend: ReplayBackend {
    public let store: ItemStore
    public let feed: FeedID
    private let source: FeedPageSource
    private var generator: ItemGenerator
    private let epoch: Int64
    private var pending: PendingInserts

    /// - Parameters:
    ///   - store: an open store; the backend uses its connection (one per thread).
    ///   - feed: the feed replayed.
    ///   - insertPreset: the preset new items are generated from; `seed` seeds that generator.
    /// - Throws: ``SQLiteError`` when the newest item cannot be read.
    public init(store: ItemStore, feed: FeedID, insertPreset: Preset, seed: UInt64) throws {
        self.store = store
        self.feed = feed
        self.source = store.pages(feed: feed)
        let newest = try source.newest(limit: 1).items.first?.publishedAt ?? ItemGenerator.defaultStart
        let (next, overflow) = newest.addingReportingOverflow(1)
        self.epoch = overflow ? Int64.max : next
        self.generator = ItemGenerator(preset: insertPreset, seed: seed, start: epoch)
        self.pending = PendingInserts(largestID: try store.largestItemID())
    }

    /// How many rows the trace's insert events made so far (in memory until committed).
    public var pendingInsertCount: Int { pending.count }

    public func page(_ request: FeedController.FetchRequest) throws -> Page {
        let page = try request.run(on: source)
        if pending.isEmpty { return page }
        let shape: PendingInserts.PageRequest
        switch request.query {
        case .newest: shape = .newest
        case .after(let cursor): shape = .after(cursor)
        case .before(let cursor): shape = .before(cursor)
        }
        return try pending.merge(shape, limit: request.limit, storePage: page, storeProbe: probe)
    }

    /// Whether the store holds an item newer (`newer`) or older than `anchor`.
    private func probe(_ anchor: Cursor, _ newer: Bool) throws -> Bool {
        newer ? !(try source.before(anchor, limit: 1).items.isEmpty) : !(try source.after(anchor, limit: 1).items.isEmpty)
    }

    public func rows(ids: [Int64]) throws -> RowBatch {
        if pending.isEmpty { return try source.rows(ids: ids) }
        return try pending.rows(ids: ids) { try source.rows(ids: $0) }
    }

    public func insertAtHead(count: Int, at t: Double) throws {
        let offset = t.isFinite && t > 0 ? (t < 9.2e18 ? Int64(t.rounded(.down)) : Int64.max) : 0
        let (time, overflow) = epoch.addingReportingOverflow(offset)
        let items = generator.items(count: count, notBefore: overflow ? Int64.max : time)
        try pending.add(items)
    }

    public func groundTruth(after cursor: Cursor, limit: Int) throws -> [Item] {
        guard limit > 0 else { return [] }
        let page = try source.after(cursor, limit: limit)
        if pending.isEmpty { return page.items }
        return try pending.merge(.after(cursor), limit: limit, storePage: page, storeProbe: probe).items
    }

    /// Writes every pending insert into the store in one `BEGIN IMMEDIATE` transaction (the
    /// write lock is held only for that), with the ids the replay gave them; when another writer
    /// took one of those ids meanwhile, SQLite assigns new ones instead (the same rows, all kept).
    /// - Parameter shouldStop: checked between rows; when it turns true the transaction rolls back.
    /// - Returns: how many rows were written.
    /// - Throws: ``StoreError/interrupted`` (nothing written), ``SQLiteError``.
    @discardableResult
    public func commitInserts(shouldStop: @escaping () -> Bool = { false }) throws -> Int {
        let items = pending.newItems
        guard !items.isEmpty else { return 0 }
        do {
            try store.insert(items: items, feed: feed, shouldStop: shouldStop)
        } catch StoreError.duplicateID {
            try store.insert(items: items.map { var item = $0; item.id = nil; return item }, feed: feed, shouldStop: shouldStop)
        }
        return items.count
    }
}
