import FeedModel
import Testing

/// The pagination invariant (DESIGN.md) on every backend, with the same code: following cursors
/// from any cursor yields exactly the items beyond it in feed order, no duplicate and no gap, while
/// a second connection inserts and deletes between pages. Every page is compared with a
/// brute-force page computed from the test's own model of the feed (``FeedOracle``).
@Suite struct BackendPagingPropertyTests {
    /// Items per feed at the start; `published_at` drawn from 0..<40 so about 5 items share each
    /// millisecond (200 / 40), ids drawn at random so tie order is not insertion order.
    static let initialCount = 200
    static let timeSpread: Int64 = 40
    static let limits = [1, 2, 3, 5, 7, 10, 13, 20, 32, 50, 64, 100, 199, 200, 201, 500]
    /// On SQLite (a file, fast) every page size up to 60 as well: the walks FeedStoreTests'
    /// own property test ran, same seeds, now through the backend seam.
    static let sqliteLimits = Array(Set(Array(1...60) + limits)).sorted()

    struct Fixture {
        let database: ContractDatabase
        let reader: any FeedBackend
        let writer: any FeedBackend
        var model = FeedOracle()
        var random: SplitMix64
        var nextID: Int64 = 300_000

        init(_ kind: BackendKind, seed: UInt64) throws {
            database = try ContractDatabase(kind)
            writer = try database.open(feed: "home")
            reader = try database.open(feed: "home")  // second connection, same database
            // A second feed whose items must never leak into the first one's pages.
            let other = try database.open(feed: "other")
            random = SplitMix64(seed: seed)
            var ids = Set<Int64>()
            while ids.count < BackendPagingPropertyTests.initialCount { ids.insert(Int64(random.next() % 100_000) + 1) }
            var items: [NewItem] = []
            for id in ids.sorted() {
                items.append(stub(id: id, at: Int64(random.next() % UInt64(BackendPagingPropertyTests.timeSpread))))
            }
            try writer.insert(items)
            try other.insert((0..<20).map { stub(id: 200_000 + $0, at: $0) })
            model.items = items.map(\.expectedStub)
        }

        mutating func startCursor() -> Cursor {
            if random.next() % 2 == 0, let item = model.items.randomElement(using: &random) {
                return item.cursor
            }
            return Cursor(
                publishedAt: Int64(random.next() % UInt64(BackendPagingPropertyTests.timeSpread + 2)) - 1,
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
                #expect(try writer.insert(inserted) == inserted.compactMap(\.id))
                model.items += inserted.map(\.expectedStub)
            }
            var deleted: [Int64] = []
            for _ in 0..<(random.next() % 3) where !model.items.isEmpty {
                let index = Int(random.next() % UInt64(model.items.count))
                deleted.append(model.items.remove(at: index).id)
            }
            #expect(try writer.delete(ids: deleted) == deleted.count)
            return deleted
        }
    }

    static func followAfterPages(_ kind: BackendKind, limit: Int) throws {
        var fixture = try Fixture(kind, seed: 0xA17E_0000 + UInt64(limit))
        defer { fixture.database.cleanUp() }
        let start = fixture.startCursor()
        let olderAtStart = fixture.model.older(than: start).map(\.id)
        var deletedEver = Set<Int64>()
        var returned: [Item] = []
        var cursor = start
        var pages = 0
        while true {
            let expected = fixture.model.afterPage(cursor, limit: limit)
            let page = try fixture.reader.after(cursor, limit: limit)
            #expect(page == expected, "\(kind): page \(pages) after \(cursor)")
            guard page == expected else { return }
            returned += page.items
            pages += 1
            guard page.hasMoreAfter, let last = page.lastCursor else { break }
            deletedEver.formUnion(try fixture.mutate(allowInserts: true))
            cursor = last
        }
        #expect(Set(returned.map(\.id)).count == returned.count)
        #expect(zip(returned, returned.dropFirst()).allSatisfy { $0.cursor < $1.cursor })
        let survivors = olderAtStart.filter { !deletedEver.contains($0) }
        #expect(Set(survivors).isSubset(of: Set(returned.map(\.id))))
        #expect(returned.allSatisfy { start < $0.cursor })
    }

    static func followBeforePages(_ kind: BackendKind, limit: Int) throws {
        var fixture = try Fixture(kind, seed: 0xBEF0_0000 + UInt64(limit))
        defer { fixture.database.cleanUp() }
        let start = fixture.startCursor()
        let newerAtStart = fixture.model.newer(than: start).map(\.id)
        var deletedEver = Set<Int64>()
        var insertedEver = Set<Int64>()
        var returned: [Item] = []
        var cursor = start
        var pages = 0
        while true {
            let expected = fixture.model.beforePage(cursor, limit: limit)
            let page = try fixture.reader.before(cursor, limit: limit)
            #expect(page == expected, "\(kind): page \(pages) before \(cursor)")
            guard page == expected else { return }
            returned = page.items + returned
            pages += 1
            guard page.hasMoreBefore, let first = page.firstCursor else { break }
            let idsBefore = Set(fixture.model.items.map(\.id))
            deletedEver.formUnion(try fixture.mutate(allowInserts: pages <= 20))  // then the walk reaches the top
            insertedEver.formUnion(Set(fixture.model.items.map(\.id)).subtracting(idsBefore))
            cursor = first
        }
        #expect(Set(returned.map(\.id)).count == returned.count)
        #expect(zip(returned, returned.dropFirst()).allSatisfy { $0.cursor < $1.cursor })
        let survivors = (newerAtStart + insertedEver).filter { !deletedEver.contains($0) }
        #expect(Set(survivors).isSubset(of: Set(returned.map(\.id))))
        #expect(returned.allSatisfy { $0.cursor < start })
    }

    @Test(arguments: sqliteLimits)
    func followingAfterPagesReturnsExactlyTheOlderItemsWhileAnotherConnectionWritesOnSQLite(limit: Int) throws {
        try Self.followAfterPages(.sqlite, limit: limit)
    }

    @Test(postgresAvailable, arguments: limits)
    func followingAfterPagesReturnsExactlyTheOlderItemsWhileAnotherConnectionWritesOnPostgreSQL(limit: Int) throws {
        try Self.followAfterPages(.postgresql, limit: limit)
    }

    @Test(arguments: sqliteLimits)
    func followingBeforePagesReturnsExactlyTheNewerItemsWhileAnotherConnectionWritesOnSQLite(limit: Int) throws {
        try Self.followBeforePages(.sqlite, limit: limit)
    }

    @Test(postgresAvailable, arguments: limits)
    func followingBeforePagesReturnsExactlyTheNewerItemsWhileAnotherConnectionWritesOnPostgreSQL(limit: Int) throws {
        try Self.followBeforePages(.postgresql, limit: limit)
    }
}
