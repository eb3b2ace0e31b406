import FeedModel
import Testing

@testable import FeedStore

@testable import FeedLoad

@Suite struct GroundTruthTests {
    /// Ids 15…6 of ``twentyItems()`` (newItem(n) is published at 1_000_000 + n × 1_000: newest
    /// first = largest id).
    static let newest = Cursor(publishedAt: 1_015_000, id: 15)
    static let oldest = Cursor(publishedAt: 1_006_000, id: 6)

    /// Ids 1…20 in feed "home", and a ground truth on its own connection.
    private func twentyItems() throws -> (TemporaryDatabase, ItemStore, FeedID, SQLiteGroundTruth) {
        let database = try TemporaryDatabase()
        let store = try ItemStore(path: database.path)
        let (feed, _) = try store.insert(items: (1...20).map(newItem), feedNamed: "home")
        return (database, store, feed, try SQLiteGroundTruth(path: database.path, feed: feed))
    }

    @Test func spanIDsAreTheIdsOfTheSpanItemsIncludingTiesInPublicationTime() throws {
        let database = try TemporaryDatabase()
        defer { database.cleanUp() }
        let store = try ItemStore(path: database.path)
        // Ids 1…40 in feed "home", published in pairs (ids 2k−1 and 2k share a time), and ids
        // 41…50 in another feed, which no span of "home" may include.
        let home = (Int64(1)...40).map { id -> NewItem in
            var item = newItem(id)
            item.publishedAt = 1_000_000 + (id + 1) / 2 * 1_000
            return item
        }
        let (feed, _) = try store.insert(items: home, feedNamed: "home")
        _ = try store.insert(items: (41...50).map(newItem), feedNamed: "other")
        let truth = try SQLiteGroundTruth(path: database.path, feed: feed)
        let cursors = home.map { Cursor(publishedAt: $0.publishedAt, id: $0.id!) }
        var random = SplitMix64(seed: 61)
        for _ in 0..<50 {
            let a = cursors[Int(random.next() % 40)]
            let b = cursors[Int(random.next() % 40)]
            let (newest, oldest) = (min(a, b), max(a, b))
            // Brute force: every "home" item whose cursor lies between them in feed order.
            let expected = cursors.filter { newest <= $0 && $0 <= oldest }.sorted().map(\.id)  // feed order
            #expect(try truth.spanIDs(newest: newest, oldest: oldest) == expected)
            #expect(try truth.span(newest: newest, oldest: oldest).map(\.id).sorted() == expected.sorted())
        }
    }

    /// The same span over an unchanged database is answered from the last read; any commit by
    /// another connection (an insert into the span, a deletion) makes the next check read again.
    @Test func theLastSpanIsReusedOnlyWhileNothingWasCommitted() throws {
        let (database, store, feed, truth) = try twentyItems()
        defer { database.cleanUp() }
        let (newest, oldest) = (Self.newest, Self.oldest)
        let tenDown = Array((Int64(6)...15).reversed())
        #expect(try truth.spanIDs(newest: newest, oldest: oldest) == tenDown)
        #expect(truth.spansReused == 0)
        #expect(try truth.spanIDs(newest: newest, oldest: oldest) == tenDown)
        #expect(truth.spansReused == 1)
        // Another span is read from the index, and becomes the one kept.
        #expect(try truth.spanIDs(newest: newest, oldest: Cursor(publishedAt: 1_014_000, id: 14)) == [15, 14])
        #expect(truth.spansReused == 1)
        #expect(try truth.spanIDs(newest: newest, oldest: oldest) == tenDown)
        #expect(try truth.spanIDs(newest: newest, oldest: oldest) == tenDown)
        #expect(truth.spansReused == 2)
        // An item inserted inside the span, published between ids 10 and 9: read again, and seen.
        var inserted = newItem(21)
        inserted.publishedAt = 1_009_500
        _ = try store.insert(items: [inserted], feed: feed)
        let withInserted: [Int64] = [15, 14, 13, 12, 11, 10, 21, 9, 8, 7, 6]
        #expect(try truth.spanIDs(newest: newest, oldest: oldest) == withInserted)
        #expect(truth.spansReused == 2)
        #expect(try truth.spanIDs(newest: newest, oldest: oldest) == withInserted)
        #expect(truth.spansReused == 3)
        // A deletion inside the span: read again, and gone.
        #expect(try store.delete(ids: [12]) == 1)
        #expect(try truth.spanIDs(newest: newest, oldest: oldest) == [15, 14, 13, 11, 10, 21, 9, 8, 7, 6])
        #expect(truth.spansReused == 3)
    }

    /// Other commits that change a kept span without adding or deleting through the store: an item
    /// moved out of the span and back by UPDATE, deleted and re-inserted with the same id elsewhere,
    /// a commit followed by a checkpoint that truncates the WAL (empty again, content changed), and a
    /// write rolled back after its pages spilled to the WAL (nothing changed: the span is reused).
    @Test func updatesCheckpointsAndRollbacksByAnotherConnectionAreSeen() throws {
        let (database, _, _, truth) = try twentyItems()
        defer { database.cleanUp() }
        let other = try Connection(path: database.path, options: .loadTester)
        let (newest, oldest) = (Self.newest, Self.oldest)
        let all = Array((Int64(6)...15).reversed())
        let without12 = all.filter { $0 != 12 }
        func span() throws -> [Int64] { try truth.spanIDs(newest: newest, oldest: oldest) }

        #expect(try span() == all)
        try other.execute("UPDATE items SET published_at = 3000000 WHERE id = 12")  // to the head
        #expect(try span() == without12)
        try other.execute("UPDATE items SET published_at = 1012000 WHERE id = 12")  // back
        #expect(try span() == all)
        try other.execute(
            """
            BEGIN; DELETE FROM items WHERE id = 12;
            INSERT INTO items (id, feed_id, published_at, kind, width, height)
            SELECT 12, feed_id, 5000000, kind, width, height FROM items WHERE id = 11; COMMIT
            """)
        #expect(try span() == without12)

        try other.execute("UPDATE items SET published_at = 1012000 WHERE id = 12; PRAGMA wal_checkpoint(TRUNCATE)")
        #expect(try span() == all)
        try other.execute("PRAGMA wal_checkpoint(TRUNCATE); UPDATE items SET published_at = 3000000 WHERE id = 12")
        #expect(try span() == without12)

        let reused = truth.spansReused
        try other.execute(
            """
            PRAGMA cache_size = 1; BEGIN IMMEDIATE; UPDATE items SET published_at = 1012000 WHERE id = 12;
            INSERT INTO items (feed_id, published_at, kind, width, height, payload)
            SELECT a.feed_id, 1, a.kind, a.width, a.height, randomblob(3000) FROM items AS a, items AS b LIMIT 300;
            ROLLBACK
            """)
        #expect(try span() == without12)
        #expect(truth.spansReused == reused + 1)
    }
}
