import FeedModel
import Testing

/// Edge cases of the page contract, the same on every backend: expected pages worked out by hand.
@Suite struct BackendPagingEdgeTests {
    /// Runs `body` on a fresh database of `kind` with a backend bound to feed `f`.
    static func with(_ kind: BackendKind, _ body: (any FeedBackend) throws -> Void) throws {
        let database = try ContractDatabase(kind)
        defer { database.cleanUp() }
        try body(try database.open(feed: "f"))
    }

    static func emptyFeed(_ kind: BackendKind) throws {
        try with(kind) { pages in
            let cursor = Cursor(publishedAt: 1000, id: 1)
            for page in [
                try pages.newest(limit: 10), try pages.after(cursor, limit: 10), try pages.before(cursor, limit: 10),
            ] {
                #expect(page.items.isEmpty, "\(kind)")
                #expect(page.firstCursor == nil && page.lastCursor == nil, "\(kind)")
                #expect(!page.hasMoreBefore && !page.hasMoreAfter, "\(kind)")
            }
            #expect(try pages.rows(ids: [1, 2]) == RowBatch(rows: [], missing: [1, 2]))
            #expect(try pages.groundTruth(after: cursor, limit: 5).isEmpty)
        }
    }

    static func oneItem(_ kind: BackendKind) throws {
        try with(kind) { pages in
            try pages.insert([stub(id: 7, at: 500)])
            let only = Cursor(publishedAt: 500, id: 7)
            let first = try pages.newest(limit: 1)
            #expect(first.items.map(\.id) == [7])
            #expect(first.firstCursor == only && first.lastCursor == only, "\(kind)")
            #expect(!first.hasMoreBefore && !first.hasMoreAfter)
            // Empty pages on both sides: nothing strictly newer than the cursor (item 7 is the cursor) nor older.
            let below = try pages.after(only, limit: 5)
            #expect(below.items.isEmpty && !below.hasMoreBefore && !below.hasMoreAfter, "\(kind)")
            let above = try pages.before(only, limit: 5)
            #expect(above.items.isEmpty && !above.hasMoreBefore && !above.hasMoreAfter, "\(kind)")
            // From just below item 7: it is the page, nothing more either way.
            let fromBelow = try pages.before(Cursor(publishedAt: 499, id: 1), limit: 5)
            #expect(fromBelow.items.map(\.id) == [7] && !fromBelow.hasMoreBefore && !fromBelow.hasMoreAfter, "\(kind)")
        }
    }

    static func limits(_ kind: BackendKind) throws {
        try with(kind) { pages in
            try pages.insert([stub(id: 1, at: 30), stub(id: 2, at: 10), stub(id: 3, at: 20)])
            // Feed order by published_at DESC: 30 (id 1), 20 (id 3), 10 (id 2).
            let all = try pages.newest(limit: 100)
            #expect(all.items.map(\.id) == [1, 3, 2] && !all.hasMoreAfter && !all.hasMoreBefore, "\(kind)")
            let exact = try pages.newest(limit: 3)  // limit = count: the limit+1 probe finds nothing more
            #expect(exact.items.map(\.id) == [1, 3, 2] && !exact.hasMoreAfter, "\(kind)")
            let one = try pages.newest(limit: 1)
            #expect(one.items.map(\.id) == [1] && one.hasMoreAfter, "\(kind)")
            let middle = try pages.after(Cursor(publishedAt: 30, id: 1), limit: 1)
            #expect(middle.items.map(\.id) == [3] && middle.hasMoreAfter && middle.hasMoreBefore, "\(kind)")
        }
    }

    static func ties(_ kind: BackendKind) throws {
        try with(kind) { pages in
            try pages.insert([5, 3, 9, 1, 7].map { stub(id: $0, at: 100) })
            // All at 100: feed order is id DESC = 9, 7, 5, 3, 1; pages of 2: [9, 7] [5, 3] [1].
            let p1 = try pages.newest(limit: 2)
            let p2 = try pages.after(try #require(p1.lastCursor), limit: 2)
            let p3 = try pages.after(try #require(p2.lastCursor), limit: 2)
            #expect(p1.items.map(\.id) == [9, 7] && p1.hasMoreAfter, "\(kind)")
            #expect(p2.items.map(\.id) == [5, 3] && p2.hasMoreAfter && p2.hasMoreBefore, "\(kind)")
            #expect(p3.items.map(\.id) == [1] && !p3.hasMoreAfter && p3.hasMoreBefore, "\(kind)")
            // Back up from the bottom: before(1) nearest two = 3, 5, in feed order [5, 3].
            let up = try pages.before(Cursor(publishedAt: 100, id: 1), limit: 2)
            #expect(up.items.map(\.id) == [5, 3] && up.hasMoreBefore && up.hasMoreAfter, "\(kind)")
        }
    }

    static func cursorRowDeleted(_ kind: BackendKind) throws {
        try with(kind) { pages in
            // ids 1...6 at 10, 20, ..., 60: feed order 6, 5, 4, 3, 2, 1.
            try pages.insert((1...6).map { stub(id: Int64($0), at: Int64($0) * 10) })
            let first = try pages.newest(limit: 2)
            #expect(first.items.map(\.id) == [6, 5])
            #expect(try pages.delete(ids: [5]) == 1)
            let next = try pages.after(try #require(first.lastCursor), limit: 2)
            #expect(next.items.map(\.id) == [4, 3] && next.hasMoreBefore && next.hasMoreAfter, "\(kind)")
            #expect(try pages.delete(ids: [6, 6, 99]) == 1)  // a repeated and a missing id count once and not at all
            let back = try pages.before(try #require(next.firstCursor), limit: 2)
            #expect(back.items.isEmpty && !back.hasMoreBefore && back.hasMoreAfter, "\(kind)")
        }
    }

    static func writesAndRows(_ kind: BackendKind) throws {
        try with(kind) { pages in
            // Ids assigned by the backend continue after the largest id written so far (SQLite's
            // rowid rule; PostgreSQL's sequence is moved past explicit ids).
            #expect(try pages.insert([stub(id: 10, at: 1), stub(id: 4, at: 2)]) == [10, 4])
            #expect(try pages.insert([stub(id: nil, at: 3), stub(id: nil, at: 4)]) == [11, 12], "\(kind)")
            let text = "tab\tnew\nline\r back\\slash ünïcødé 🙂 'quote' \"double\""
            #expect(try pages.update([ItemRow(id: 4, title: text, author: "a", payload: "{\"k\":[1]}"),
                                      ItemRow(id: 77, title: "", author: "", payload: "{}")]) == 1)
            let batch = try pages.rows(ids: [12, 4, 99, 4])
            #expect(batch.rows.map(\.id) == [12, 4, 4] && batch.missing == [99], "\(kind)")
            #expect(batch.rows[1] == ItemRow(id: 4, title: text, author: "a", payload: "{\"k\":[1]}"), "\(kind)")
            #expect(batch.rows[0].title == "t0" && batch.rows[0].payload == "{}", "\(kind)")
            // A duplicate id writes nothing of its batch.
            #expect(throws: (any Error).self) { try pages.insert([stub(id: 50, at: 9), stub(id: 10, at: 9)]) }
            #expect(try pages.rows(ids: [50]).missing == [50], "\(kind)")
            // A bad item (negative width) writes nothing of its batch either.
            #expect(throws: (any Error).self) {
                try pages.insert([stub(id: 51, at: 9), NewItem(id: 52, publishedAt: 9, kind: "k", width: -1, height: 1)])
            }
            #expect(try pages.rows(ids: [51]).missing == [51], "\(kind)")
            #expect(try pages.newest(limit: 10).items.map(\.id) == [12, 11, 4, 10], "\(kind)")
        }
    }

    static func rowsAgainstBruteForce(_ kind: BackendKind) throws {
        try with(kind) { pages in
            let existing = Set(stride(from: Int64(1), through: 1_200, by: 2))
            try pages.insert(
                existing.sorted().map {
                    NewItem(id: $0, publishedAt: $0, kind: "k", width: 1, height: 1, title: "t\($0)", author: "a\($0 % 7)")
                })
            var random = SplitMix64(seed: 12)
            for size in [1, 2, 7, 20, 499, 500, 501, 1_100] {
                let ids = (0..<size).map { _ in Int64(random.next() % 1_250) + 1 }
                let batch = try pages.rows(ids: ids)
                #expect(batch.rows.map(\.id) == ids.filter(existing.contains), "\(kind) \(size)")
                #expect(batch.rows.map(\.title) == ids.filter(existing.contains).map { "t\($0)" }, "\(kind) \(size)")
                #expect(batch.rows.map(\.author) == ids.filter(existing.contains).map { "a\($0 % 7)" }, "\(kind)")
                #expect(batch.missing == ids.filter { !existing.contains($0) }, "\(kind) \(size)")
            }
        }
    }

    static func groundTruthMatchesOracle(_ kind: BackendKind) throws {
        try with(kind) { pages in
            var random = SplitMix64(seed: 99)
            var oracle = FeedOracle()
            let items = (1...300).map { stub(id: Int64($0), at: Int64(random.next() % 50)) }
            try pages.insert(items)
            oracle.items = items.map(\.expectedStub)
            for _ in 0..<40 {
                let cursor = Cursor(publishedAt: Int64(random.next() % 52) - 1, id: Int64(random.next() % 310))
                let limit = Int(random.next() % 400)
                #expect(try pages.groundTruth(after: cursor, limit: limit) == Array(oracle.older(than: cursor).prefix(limit)))
            }
        }
    }

    @Test func emptyFeedGivesEmptyPagesWithNothingMoreEitherWayOnSQLite() throws { try Self.emptyFeed(.sqlite) }
    @Test(postgresAvailable) func emptyFeedGivesEmptyPagesWithNothingMoreEitherWayOnPostgreSQL() throws {
        try Self.emptyFeed(.postgresql)
    }
    @Test func oneItemFeedPagesAroundItsOnlyItemOnSQLite() throws { try Self.oneItem(.sqlite) }
    @Test(postgresAvailable) func oneItemFeedPagesAroundItsOnlyItemOnPostgreSQL() throws { try Self.oneItem(.postgresql) }
    @Test func limitsAtAndAroundTheFeedSizeProbeOneItemFurtherOnSQLite() throws { try Self.limits(.sqlite) }
    @Test(postgresAvailable) func limitsAtAndAroundTheFeedSizeProbeOneItemFurtherOnPostgreSQL() throws {
        try Self.limits(.postgresql)
    }
    @Test func tiesInPublishedAtAreOrderedByIdAndNeverLostOrRepeatedOnSQLite() throws { try Self.ties(.sqlite) }
    @Test(postgresAvailable) func tiesInPublishedAtAreOrderedByIdAndNeverLostOrRepeatedOnPostgreSQL() throws {
        try Self.ties(.postgresql)
    }
    @Test func cursorWhoseItemWasDeletedStillPagesFromItsPositionOnSQLite() throws { try Self.cursorRowDeleted(.sqlite) }
    @Test(postgresAvailable) func cursorWhoseItemWasDeletedStillPagesFromItsPositionOnPostgreSQL() throws {
        try Self.cursorRowDeleted(.postgresql)
    }
    @Test func writesAreAllOrNothingAndRowsComeBackByIdOnSQLite() throws { try Self.writesAndRows(.sqlite) }
    @Test(postgresAvailable) func writesAreAllOrNothingAndRowsComeBackByIdOnPostgreSQL() throws {
        try Self.writesAndRows(.postgresql)
    }
    @Test func rowsMatchABruteForceLookupForRandomRequestsOnSQLite() throws { try Self.rowsAgainstBruteForce(.sqlite) }
    @Test(postgresAvailable) func rowsMatchABruteForceLookupForRandomRequestsOnPostgreSQL() throws {
        try Self.rowsAgainstBruteForce(.postgresql)
    }
    @Test func groundTruthEqualsTheBruteForceOlderItemsOnSQLite() throws { try Self.groundTruthMatchesOracle(.sqlite) }
    @Test(postgresAvailable) func groundTruthEqualsTheBruteForceOlderItemsOnPostgreSQL() throws {
        try Self.groundTruthMatchesOracle(.postgresql)
    }
}
