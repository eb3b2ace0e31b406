import FeedEngine
import FeedModel
import FeedStore

/// The real ``ReplayBackend``: one feed of any ``FeedModel/FeedBackend`` (a SQLite ``ItemStore``,
/// a PostgreSQL database, an HTTP feed API), on this session's connection.
///
/// Upstream inserts write real rows at the feed's head, generated from a preset, so a later
/// Refresh finds them. Virtual time 0 is mapped to just after the newest item at the start, so
/// an insert at `t` ms is published at `newest + 1 + t` ms or later.
public final class StoreBackend: ReplayBackend {
    /// The backend the replay reads and writes.
    public let backend: any FeedBackend
    private var generator: ItemGenerator
    private let epoch: Int64
    /// Ids written by ``insertAtHead(count:at:)``, in order, so a caller can remove them afterwards.
    public private(set) var insertedIDs: [Int64] = []

    /// - Parameters:
    ///   - backend: an open backend bound to the replayed feed (one thread at a time).
    ///   - insertPreset: the preset new items are generated from; `seed` seeds that generator.
    /// - Throws: the backend's error when the newest item cannot be read.
    public init(backend: any FeedBackend, insertPreset: Preset, seed: UInt64) throws {
        self.backend = backend
        let newest = try backend.newest(limit: 1).items.first?.publishedAt ?? ItemGenerator.defaultStart
        let (start, overflow) = newest.addingReportingOverflow(1)
        self.epoch = overflow ? newest : start
        self.generator = ItemGenerator(preset: insertPreset, seed: seed, start: epoch)
    }

    /// - Parameters:
    ///   - store: an open store; the backend uses its connection (one per thread).
    ///   - feed: the feed replayed.
    ///   - insertPreset: the preset new items are generated from; `seed` seeds that generator.
    /// - Throws: ``SQLiteError`` when the newest item cannot be read.
    public convenience init(store: ItemStore, feed: FeedID, insertPreset: Preset, seed: UInt64) throws {
        try self.init(backend: store.pages(feed: feed), insertPreset: insertPreset, seed: seed)
    }

    public func page(_ request: FeedController.FetchRequest) throws -> Page {
        try request.run(on: backend)
    }

    public func rows(ids: [Int64]) throws -> RowBatch {
        try backend.rows(ids: ids)
    }

    public func insertAtHead(count: Int, at t: Double) throws {
        let offset = t.isFinite && t > 0 ? Int64(min(t.rounded(.down), 1e15)) : 0
        let (notBefore, overflow) = epoch.addingReportingOverflow(offset)
        let items = generator.items(count: count, notBefore: overflow ? Int64.max : notBefore)
        insertedIDs += try backend.insert(items)
    }

    public func groundTruth(after cursor: Cursor, limit: Int) throws -> [Item] {
        guard limit > 0 else { return [] }
        return try backend.groundTruth(after: cursor, limit: limit)
    }
}
