import FeedEngine
import FeedModel
import FeedStore

/// The real ``ReplayBackend``: one feed of a SQLite ``ItemStore``, on this session's connection.
///
/// Upstream inserts write real rows at the feed's head, generated from a preset, so a later
/// Refresh finds them. Virtual time 0 is mapped to just after the newest item at the start, so
/// an insert at `t` ms is published at `newest + 1 + t` ms or later.
public final class StoreBackend: ReplayBackend {
    public let store: ItemStore
    public let feed: FeedID
    private let source: FeedPageSource
    private var generator: ItemGenerator
    private let epoch: Int64

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
        self.epoch = newest + 1
        self.generator = ItemGenerator(preset: insertPreset, seed: seed, start: newest + 1)
    }

    public func page(_ request: FeedController.FetchRequest) throws -> Page {
        try request.run(on: source)
    }

    public func rows(ids: [Int64]) throws -> RowBatch {
        try source.rows(ids: ids)
    }

    public func insertAtHead(count: Int, at t: Double) throws {
        let items = generator.items(count: count, notBefore: epoch + Int64(t.rounded(.down)))
        _ = try store.insert(items: items, feed: feed)
    }

    public func groundTruth(after cursor: Cursor, limit: Int) throws -> [Item] {
        guard limit > 0 else { return [] }
        return try source.after(cursor, limit: limit).items
    }
}
