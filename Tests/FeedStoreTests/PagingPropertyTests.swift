import FeedModel
import Foundation
import Testing

@testable import FeedStore

/// The pagination invariant (DESIGN.md): following cursors from any cursor yields exactly the
/// items beyond it in feed order, no duplicate and no gap, while a second connection inserts and
/// deletes between pages. Every page is also compared with a brute-force page computed from the
/// test's own model of the feed.
@Suite struct PagingPropertyTests {
    /// Items per feed at the start; `published_at` drawn from 0..<40 so about 5 items share each
    /// millisecond (200 / 40), ids drawn at random so tie order is not insertion order.
    static let initialCount = 200
    static let timeSpread: Int64 = 40

    struct Fixture {
        let database: TemporaryDatabase
        let reader: ItemStore
        let writer: ItemStore
        let feed: FeedID
        var model = FeedModelOracle()
        var random: SplitMix64
        var nextID: Int64 = 0

        init(seed: UInt64) throws {
            database = try TemporaryDatabase()
            reader = try ItemStore(path: database.path)
            writer = try ItemStore(path: database.path)  // second connection, same file
            feed = try writer.createFeed(named: "home")
            // A second feed whose items must never leak into the first one's pages.
            let other = try writer.createFeed(named: "other")
            random = SplitMix64(seed: seed)
            var ids = Set<Int64>()
            while ids.count < PagingPropertyTests.initialCount { ids.insert(Int64(random.next() % 100_000) + 1) }
            var items: [NewItem] = []
            for id in ids.sorted() {
                items.append(stub(id: id, at: Int64(random.next() % UInt64(PagingPropertyTests.timeSpread))))
            }
            try writer.insert(items: items, feed: feed)
            try writer.insert(items: (0..<20).map { stub(id: 200_000 + $0, at: $0) }, feed: other)
            model.items = items.map { Item(id: $0.id!, publishedAt: $0.publishedAt, kind: $0.kind, width: 100, height: 50) }
            nextID = 300_000
        }

        /// A cursor to start from: an existing item's, or an arbitrary point between items.
        mutating func startCursor() -> Cursor {
            if random.next() % 2 == 0, let item = model.items.randomElement(using: &random) {
                return item.cursor
            }
            return Cursor(
                publishedAt: Int64(random.next() % UInt64(PagingPropertyTests.timeSpread + 2)) - 1,
                id: Int64(random.next() % 100_000))
        }

        /// Between pages, through the second connection: insert 0–3 items newer than everything
        /// (some tied with the current newest), and delete 0–2 random items.
        mutating func mutate(allowInserts: Bool) throws -> [Int64] {
            if allowInserts {
                let newest = model.items.map(\.publishedAt).max() ?? 0
                var inserted: [NewItem] = []
                for _ in 0..<(random.next() % 4) {
                    nextID += Int64(random.next() % 7) + 1
                    inserted.append(stub(id: nextID, at: newest + Int64(random.next() % 2)))
                }
                try writer.insert(items: inserted, feed: feed)
                model.items += inserted.map { Item(id: $0.id!, publishedAt: $0.publishedAt, kind: $0.kind, width: 100, height: 50) }
            }
            var deleted: [Int64] = []
            for _ in 0..<(random.next() % 3) where !model.items.isEmpty {
                let index = Int(random.next() % UInt64(model.items.count))
                deleted.append(model.items.remove(at: index).id)
            }
            let count = try writer.delete(ids: deleted)
            #expect(count == deleted.count)
            return deleted
        }
    }

    @Test(arguments: Array(1...60))
    func followingAfterPagesReturnsExactlyTheOlderItemsWhileAnotherConnectionWrites(limit: Int) throws {
        var fixture = try Fixture(seed: 0xA17E_0000 + UInt64(limit))
        defer { fixture.database.cleanUp() }
        let start = fixture.startCursor()
        let olderAtStart = fixture.model.older(than: start).map(\.id)
        var deletedEver = Set<Int64>()
        var returned: [Item] = []
        var cursor = start
        var pages = 0
        while true {
            let expected = fixture.model.afterPage(cursor, limit: limit)
            let page = try fixture.reader.pages(feed: fixture.feed).after(cursor, limit: limit)
            #expect(page == expected, "page \(pages) after \(cursor)")
            guard page == expected else { return }
            returned += page.items
            pages += 1
            guard page.hasMoreAfter, let last = page.lastCursor else { break }
            deletedEver.formUnion(try fixture.mutate(allowInserts: true))
            cursor = last
        }
        // No duplicate, strictly in feed order, and every item older than the start cursor that
        // was never deleted came back.
        #expect(Set(returned.map(\.id)).count == returned.count)
        #expect(zip(returned, returned.dropFirst()).allSatisfy { $0.cursor < $1.cursor })
        let survivors = olderAtStart.filter { !deletedEver.contains($0) }
        #expect(Set(survivors).isSubset(of: Set(returned.map(\.id))))
        #expect(returned.allSatisfy { start < $0.cursor })
    }

    @Test(arguments: Array(1...60))
    func followingBeforePagesReturnsExactlyTheNewerItemsWhileAnotherConnectionWrites(limit: Int) throws {
        var fixture = try Fixture(seed: 0xBEF0_0000 + UInt64(limit))
        defer { fixture.database.cleanUp() }
        let start = fixture.startCursor()
        let newerAtStart = fixture.model.newer(than: start).map(\.id)
        var deletedEver = Set<Int64>()
        var insertedEver = Set<Int64>()
        var returned: [Item] = []  // walk order: each page is newer than the previous one
        var cursor = start
        var pages = 0
        while true {
            let expected = fixture.model.beforePage(cursor, limit: limit)
            let page = try fixture.reader.pages(feed: fixture.feed).before(cursor, limit: limit)
            #expect(page == expected, "page \(pages) before \(cursor)")
            guard page == expected else { return }
            returned = page.items + returned
            pages += 1
            guard page.hasMoreBefore, let first = page.firstCursor else { break }
            // Inserts stop after 20 pages so the walk reaches the top.
            let idsBefore = Set(fixture.model.items.map(\.id))
            deletedEver.formUnion(try fixture.mutate(allowInserts: pages <= 20))
            insertedEver.formUnion(Set(fixture.model.items.map(\.id)).subtracting(idsBefore))
            cursor = first
        }
        #expect(Set(returned.map(\.id)).count == returned.count)
        #expect(zip(returned, returned.dropFirst()).allSatisfy { $0.cursor < $1.cursor })
        // Items newer than the start that were never deleted, including those inserted during
        // the walk, all came back (the walk ends at the top, above every insert).
        let survivors = (newerAtStart + insertedEver).filter { !deletedEver.contains($0) }
        #expect(Set(survivors).isSubset(of: Set(returned.map(\.id))))
        #expect(returned.allSatisfy { $0.cursor < start })
    }
}
