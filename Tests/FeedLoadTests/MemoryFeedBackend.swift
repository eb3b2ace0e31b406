import FeedModel
import Synchronization

/// An in-memory feed shared by every connection a ``MemoryFeedConnector`` opens, answered by brute
/// force (filter and sort the whole feed per call): a backend that is not SQLite, so the load
/// tester's tests show it runs over the seam alone, and an oracle independent of the store's SQL.
final class MemoryFeed: Sendable {
    /// Stubs and rows by id; ids assigned as `max(id) + 1`, as SQLite's rowids are.
    private let state = Mutex<[Int64: (item: Item, row: ItemRow)]>([:])

    init(items: [NewItem]) {
        state.withLock { feed in
            for item in items { Self.add(item, to: &feed) }
        }
    }

    private static func add(_ new: NewItem, to feed: inout [Int64: (item: Item, row: ItemRow)]) -> Int64 {
        let id = new.id ?? ((feed.keys.max() ?? 0) + 1)
        let item = Item(id: id, publishedAt: new.publishedAt, kind: new.kind, width: new.width, height: new.height)
        feed[id] = (item, ItemRow(id: id, title: new.title, author: new.author, payload: new.payload))
        return id
    }

    /// Everything, in feed order (newest first).
    func inFeedOrder() -> [Item] {
        state.withLock { $0.values.map(\.item) }.sorted { $0.cursor < $1.cursor }
    }

    func rows(_ ids: [Int64]) -> [ItemRow?] {
        state.withLock { feed in ids.map { feed[$0]?.row } }
    }

    func write<T: Sendable>(_ body: (inout [Int64: (item: Item, row: ItemRow)]) -> T) -> T {
        state.withLock { feed in body(&feed) }
    }

    func insert(_ items: [NewItem]) -> [Int64] {
        write { feed in items.map { Self.add($0, to: &feed) } }
    }

    func insertAtHead(_ makeItems: (Int64?) -> [NewItem]) -> [Int64] {
        write { feed in
            let newest = feed.values.map(\.item.publishedAt).max()
            return makeItems(newest).map { Self.add($0, to: &feed) }
        }
    }
}

/// One connection to a ``MemoryFeed``.
final class MemoryFeedBackend: FeedBackend, SessionScopedBackend {
    let feed: MemoryFeed
    /// How many times the load tester said a session using this backend had ended.
    private(set) var sessionsEnded = 0
    init(feed: MemoryFeed) { self.feed = feed }

    func sessionEnded() { sessionsEnded += 1 }

    var backendName: String { "memory" }

    func newest(limit: Int) throws -> Page { page(feed.inFeedOrder(), limit: limit, newerExist: false) }

    func after(_ cursor: Cursor, limit: Int) throws -> Page {
        let all = feed.inFeedOrder()
        return page(all.filter { $0.cursor > cursor }, limit: limit, newerExist: all.contains { $0.cursor <= cursor })
    }

    func before(_ cursor: Cursor, limit: Int) throws -> Page {
        let all = feed.inFeedOrder()
        let newer = all.filter { $0.cursor < cursor }
        let items = Array(newer.suffix(limit))
        return Page(
            items: items, hasMoreBefore: newer.count > limit, hasMoreAfter: all.contains { $0.cursor >= cursor })
    }

    private func page(_ items: [Item], limit: Int, newerExist: Bool) -> Page {
        Page(items: Array(items.prefix(limit)), hasMoreBefore: newerExist, hasMoreAfter: items.count > limit)
    }

    func rows(ids: [Int64]) throws -> RowBatch {
        let found = feed.rows(ids)
        return RowBatch(
            rows: found.compactMap { $0 }, missing: zip(ids, found).compactMap { $1 == nil ? $0 : nil })
    }

    func insert(_ items: [NewItem]) throws -> [Int64] { feed.insert(items) }

    func insertAtHead(_ makeItems: (Int64?) -> [NewItem]) throws -> [Int64] { feed.insertAtHead(makeItems) }

    func update(_ rows: [ItemRow]) throws -> Int {
        feed.write { feed in
            rows.reduce(0) { count, row in
                guard feed[row.id] != nil else { return count }
                feed[row.id]?.row = row
                return count + 1
            }
        }
    }

    func delete(ids: [Int64]) throws -> Int {
        feed.write { feed in ids.reduce(0) { $0 + (feed.removeValue(forKey: $1) == nil ? 0 : 1) } }
    }

    func groundTruth(after cursor: Cursor, limit: Int) throws -> [Item] {
        Array(feed.inFeedOrder().filter { $0.cursor > cursor }.prefix(limit))
    }
}

/// Opens ``MemoryFeedBackend``s on one shared feed; its ground truth lists the feed by brute force.
struct MemoryFeedConnector: FeedBackendConnector {
    let feed: MemoryFeed
    var backendName: String { "memory" }
    func connect() throws -> any FeedBackend { MemoryFeedBackend(feed: feed) }
    func groundTruthReader(reuseUnchangedSpans: Bool) throws -> any GroundTruthReader { MemoryGroundTruth(feed: feed) }
}

final class MemoryGroundTruth: GroundTruthReader {
    let feed: MemoryFeed
    private(set) var spansRead = 0
    var spansReused: Int { 0 }
    init(feed: MemoryFeed) { self.feed = feed }

    func maxID() throws -> Int64 { feed.inFeedOrder().map(\.id).max() ?? 0 }

    func spanIDs(newest: Cursor, oldest: Cursor, expected: Int) throws -> [Int64] {
        spansRead += 1
        return feed.inFeedOrder().filter { $0.cursor >= newest && $0.cursor <= oldest }.map(\.id)
    }
}
