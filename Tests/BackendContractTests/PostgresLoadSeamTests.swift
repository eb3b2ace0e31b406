import FeedModel
import Testing

@testable import FeedPostgres

/// What the load tester will use on PostgreSQL: a connection per thread, the ground truth's max id
/// and spans (against a brute-force filter), and `read` as one snapshot.
@Suite(postgresAvailable) struct PostgresLoadSeamTests {
    @Test func groundTruthSpansEqualTheBruteForceSpanOnPostgreSQL() throws {
        let database = try ContractDatabase(.postgresql)
        defer { database.cleanUp() }
        let connector = PostgresConnector(
            conninfo: try #require(TestPostgres.uri), settings: database.postgresSettings,
            migrator: TestPostgres.migrator, feed: "home")
        let writer = try database.open(feed: "home")
        var random = SplitMix64(seed: 5)
        var oracle = FeedOracle()
        let items = (1...400).map { stub(id: Int64($0), at: Int64(random.next() % 60)) }
        try writer.insert(items)
        try database.open(feed: "other").insert([stub(id: 1_000, at: 30)])  // never in home's spans
        oracle.items = items.map(\.expectedStub)
        let reader = try connector.groundTruthReader(reuseUnchangedSpans: true)
        #expect(try reader.maxID() == 1_000)
        for _ in 0..<50 {
            let a = Cursor(publishedAt: Int64(random.next() % 62) - 1, id: Int64(random.next() % 410))
            let b = Cursor(publishedAt: Int64(random.next() % 62) - 1, id: Int64(random.next() % 410))
            let expected = oracle.feedOrder.filter { !($0.cursor < a) && !(b < $0.cursor) }.map(\.id)
            #expect(try reader.spanIDs(newest: a, oldest: b, expected: 0) == expected, "\(a) … \(b)")
        }
        #expect(reader.spansRead == 50 && reader.spansReused == 0)
        #expect(try connector.connect().newest(limit: 3).items.count == 3)
    }

    @Test func readSeesOneSnapshotWhileAnotherConnectionInsertsOnPostgreSQL() throws {
        let database = try ContractDatabase(.postgresql)
        defer { database.cleanUp() }
        let writer = try database.open(feed: "home")
        try writer.insert((1...10).map { stub(id: Int64($0), at: Int64($0)) })
        let reader = try #require(try database.open(feed: "home") as? PostgresFeedBackend)
        let (before, after) = try reader.read {
            let first = try reader.newest(limit: 50)
            try writer.insert([stub(id: 11, at: 11)])  // committed on the other connection
            let second = try reader.newest(limit: 50)
            return (first, second)
        }
        #expect(before.items.count == 10 && after.items.count == 10)  // the same snapshot
        #expect(try reader.newest(limit: 50).items.count == 11)  // and the next read sees the insert
    }
}
