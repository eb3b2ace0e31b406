import FeedModel
import Foundation
import Testing

@testable import FeedPostgres

/// Schema version 2 (`Schema/postgres/002_items_without_feed_fk.sql`): `items.feed_id` has no
/// foreign key any more, and FeedSim keeps what the key gave: every item's feed exists, deleting a
/// feed deletes its items. Also the migration of a database at version 1 with items in it.
@Suite(postgresAvailable) struct PostgresFeedKeepingTests {
    static func withDatabase(_ body: (ContractDatabase) throws -> Void) throws {
        let database = try ContractDatabase(.postgresql)
        defer { database.cleanUp() }
        try body(database)
    }

    /// Foreign keys on the table `items` of the database's schema (information_schema, as an engine-neutral catalog).
    static func foreignKeys(_ store: PostgresStore) throws -> Int64 {
        try store.connection.execute(
            """
            SELECT count(*) FROM information_schema.table_constraints
            WHERE table_schema = current_schema() AND table_name = 'items' AND constraint_type = 'FOREIGN KEY'
            """
        ).int64(0, 0)
    }

    @Test func aDatabaseAtVersionOneWithItemsMigratesToVersionTwoKeepingEveryItemOnPostgreSQL() throws {
        try Self.withDatabase { database in
            let versionOne = try PostgresMigrator(migrations: [TestPostgres.migrator.migrations[0]])
            let old = try database.openPostgres(migrator: versionOne)
            #expect(old.schemaVersion == 1)
            #expect(try Self.foreignKeys(old) == 1)
            var index: Int64 = 0
            try old.seed(feedNamed: "home", count: 1_000, next: {
                index += 1
                return stub(id: nil, at: index)
            })

            let store = try database.openPostgres()
            #expect(store.schemaVersion == 2)
            let versions = try store.connection.execute("SELECT version FROM feedsim_schema ORDER BY version")
            #expect((0..<versions.rowCount).map { versions.int64($0, 0) } == [1, 2])
            #expect(try Self.foreignKeys(store) == 0)
            // The items and the feed-order index are still there: pages come from the index.
            let backend = store.backend(feed: try store.requireFeed(named: "home"))
            #expect(try backend.newest(limit: 3).items.map(\.id) == [1_000, 999, 998])
            #expect(try store.stats().totalItems == 1_000)
            let feedOrder = try store.connection.execute(
                "SELECT count(*) FROM pg_indexes WHERE schemaname = current_schema() AND indexname = 'items_feed_order'")
            #expect(feedOrder.int64(0, 0) == 1)
            // Opening again applies nothing twice.
            #expect(try database.openPostgres().schemaVersion == 2)
        }
    }

    @Test func writingItemsIntoAFeedThatDoesNotExistIsRefusedAndLeavesNothingOnPostgreSQL() throws {
        try Self.withDatabase { database in
            let store = try database.openPostgres()
            let home = try store.createFeed(named: "home")
            let missing = home + 1_000
            #expect(throws: PostgresStoreError.missingFeed(id: missing)) {
                try store.insert(items: [stub(id: nil, at: 1), stub(id: 77, at: 2)], feed: missing)
            }
            #expect(try store.connection.execute("SELECT count(*) FROM items").int64(0, 0) == 0)
            #expect(
                "\(PostgresStoreError.missingFeed(id: 12))"
                    == "feed 12 does not exist (deleted while items were being written?): rolled back, nothing written")
        }
    }

    /// The seed locks the feed's row only just before COMMIT, so another connection can lock the row
    /// (as writers at the head do) and even delete the feed while the COPY runs; the seed then sees
    /// the feed gone and rolls back: no orphans.
    @Test func aFeedDeletedWhileItsSeedRunsRollsTheSeedBackAndWritersAreNotBlockedOnPostgreSQL() throws {
        try Self.withDatabase { database in
            let store = try database.openPostgres()
            try store.createFeed(named: "home")
            let other = try database.openPostgres()
            var lockedDuringSeed = false
            var deleted = 0
            #expect(throws: PostgresStoreError.missingFeed(id: try store.requireFeed(named: "home"))) {
                try store.seed(
                    feedNamed: "home", count: 30_000, next: { stub(id: nil, at: 5) },
                    progress: { sent in
                        guard sent == 10_000 else { return }
                        // A head writer's lock is granted at once (a foreign key's check would hold a
                        // key-share lock on this row until the seed commits: FOR UPDATE would wait).
                        try? other.connection.execute("SET lock_timeout = '2s'")
                        lockedDuringSeed = (try? other.connection.transaction {
                            try other.connection.execute("SELECT id FROM feeds WHERE name = 'home' FOR UPDATE").rowCount
                        }) == 1
                        deleted = (try? other.deleteFeed(named: "home")) ?? -1
                    })
            }
            #expect(lockedDuringSeed)
            #expect(deleted == 0)  // the seed's rows were not committed yet
            #expect(try store.feeds().isEmpty)
            #expect(try store.connection.execute("SELECT count(*) FROM items").int64(0, 0) == 0)
        }
    }

    @Test func deletingAFeedDeletesItsItemsAndNoOtherFeedsOnPostgreSQL() throws {
        try Self.withDatabase { database in
            let store = try database.openPostgres()
            try store.seed(feedNamed: "home", count: 300, next: { stub(id: nil, at: 1) })
            try store.seed(feedNamed: "other", count: 200, next: { stub(id: nil, at: 2) })
            #expect(try store.deleteFeed(named: "home") == 300)
            #expect(try store.feeds().map(\.name) == ["other"])
            #expect(try store.stats().totalItems == 200)
            #expect(try store.connection.execute("SELECT count(*) FROM items").int64(0, 0) == 200)
            #expect(throws: PostgresStoreError.unknownFeed("home", known: ["other"])) {
                try store.deleteFeed(named: "home")
            }
        }
    }

    @Test func statsCountItemsWhoseFeedIsMissingOnPostgreSQL() throws {
        try Self.withDatabase { database in
            let store = try database.openPostgres()
            try store.seed(feedNamed: "home", count: 5, next: { stub(id: nil, at: 1) })
            #expect(try store.stats().orphanItems == 0)
            // What only SQL from elsewhere can do now that no foreign key stops it: two items of no feed.
            let feed = try store.requireFeed(named: "home")
            try store.connection.execute(
                "INSERT INTO items (feed_id, published_at, kind, width, height) VALUES (\(feed + 7), 1, 'k', 1, 1), (\(feed + 8), 2, 'k', 1, 1)")
            let stats = try store.stats()
            #expect(stats.orphanItems == 2)
            #expect(stats.totalItems == 5)
            let json = String(decoding: try JSONEncoder().encode(stats), as: UTF8.self)
            #expect(json.contains("\"orphan_items\":2"))
        }
    }
}
