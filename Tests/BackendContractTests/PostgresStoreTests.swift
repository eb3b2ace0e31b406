import FeedModel
import Foundation
import Testing

@testable import FeedPostgres

/// What only the PostgreSQL store has: migrations and their refusals, the plan of the page
/// queries, COPY seeding and import, connection strings.
@Suite(postgresAvailable) struct PostgresStoreTests {
    static func withDatabase(_ body: (ContractDatabase) throws -> Void) throws {
        let database = try ContractDatabase(.postgresql)
        defer { database.cleanUp() }
        try body(database)
    }

    /// Version 2 since `002_items_without_feed_fk.sql` (was version 1 before that migration existed).
    @Test func openingMigratesAnEmptySchemaAndRecordsEveryVersionInFeedsimSchemaOnPostgreSQL() throws {
        try Self.withDatabase { database in
            let store = try database.openPostgres()
            #expect(store.schemaVersion == 2)
            let versions = try store.connection.execute("SELECT version FROM feedsim_schema ORDER BY version")
            #expect(versions.rowCount == 2 && versions.int64(0, 0) == 1 && versions.int64(1, 0) == 2)
            // Opening again applies nothing twice.
            #expect(try database.openPostgres().schemaVersion == 2)
            #expect(try store.connection.execute("SELECT count(*) FROM feedsim_schema").int64(0, 0) == 2)
        }
    }

    @Test func aNewerSchemaIsRefusedWithAClearMessageOnPostgreSQL() throws {
        try Self.withDatabase { database in
            let store = try database.openPostgres()
            try store.connection.execute("INSERT INTO feedsim_schema (version) VALUES (7)")
            #expect(throws: PostgresStoreError.newerSchema(database: store.database, version: 7, newestKnown: 2)) {
                _ = try database.openPostgres()
            }
            let message = "\(PostgresStoreError.newerSchema(database: "h:5432/db", version: 7, newestKnown: 1))"
            #expect(message == "h:5432/db: schema version 7 is newer than this feedsim knows (1); use a newer feedsim")
        }
    }

    @Test func aForeignDatabaseIsLeftUntouchedOnPostgreSQL() throws {
        try Self.withDatabase { database in
            let schema = try #require(database.schema)
            try TestPostgres.administer("CREATE TABLE \(schema).orders (id INTEGER PRIMARY KEY)")
            #expect(throws: PostgresStoreError.self) { _ = try database.openPostgres() }
            do {
                _ = try database.openPostgres()
            } catch let error as PostgresStoreError {
                guard case .foreignDatabase(_, let named) = error else { Issue.record("\(error)"); return }
                #expect(named == schema)
                #expect("\(error)".contains("not a FeedSim database; left untouched"))
            }
            // Nothing was created beside the foreign table.
            let admin = try PostgresConnection(try #require(TestPostgres.uri))
            var parameters = PostgresParameters()
            parameters.append(schema)
            let tables = try admin.execute(
                unprepared: "SELECT table_name FROM information_schema.tables WHERE table_schema = $1", parameters)
            #expect((0..<tables.rowCount).map { tables.text($0, 0) } == ["orders"])
        }
    }

    @Test func aServerOlderThanTheMinimumIsRefusedBeforeAnythingIsWrittenOnPostgreSQL() throws {
        try Self.withDatabase { database in
            var migrator = TestPostgres.migrator
            migrator.minimumServerVersion = 990_000  // PostgreSQL 99: newer than any server, so this one is "too old"
            do {
                _ = try database.openPostgres(migrator: migrator)
                Issue.record("expected unsupportedServer")
            } catch let error as PostgresStoreError {
                guard case .unsupportedServer(_, let version, 990_000) = error else { Issue.record("\(error)"); return }
                #expect(version >= 110_000)
                #expect("\(error)".contains("is not supported (FeedSim needs PostgreSQL 99.0 or newer"))
            }
            let tables = try TestPostgres.countTables(in: try #require(database.schema))
            #expect(tables == 0)
        }
    }

    @Test func aBadConnectionStringFailsWithLibpqsMessageAndNoPasswordOnPostgreSQL() throws {
        do {
            _ = try PostgresConnection("postgresql://someone:secret@127.0.0.1:1/nodb?connect_timeout=2")
            Issue.record("expected a connection failure")
        } catch let error as PostgresStoreError {
            guard case .connectionFailed(let target, let message) = error else { Issue.record("\(error)"); return }
            #expect(!target.contains("secret") && target.contains("***"))
            #expect(!message.isEmpty)
        }
    }

    @Test func bothURISchemesAndKeywordStringsConnectOnPostgreSQL() throws {
        let uri = try #require(TestPostgres.uri)
        let components = try #require(URLComponents(string: uri))
        let other = uri.hasPrefix("postgresql://")
            ? "postgres://" + uri.dropFirst("postgresql://".count) : "postgresql://" + uri.dropFirst("postgres://".count)
        let keywords = "host=\(components.host ?? "") port=\(components.port ?? 5432) "
            + "user=\(components.user ?? "postgres") dbname=\(components.path.dropFirst())"
        for conninfo in [uri, other, keywords] {
            let connection = try PostgresConnection(conninfo)
            #expect(try connection.execute("SELECT 1 + 1").int64(0, 0) == 2, "\(conninfo)")
        }
    }

    @Test func failedStatementsCarryTheirSQLStateMessageAndSQLOnPostgreSQL() throws {
        let connection = try PostgresConnection(try #require(TestPostgres.uri))
        do {
            try connection.execute("SELECT * FROM feedsim_no_such_table")
            Issue.record("expected an error")
        } catch let error as PostgresError {
            #expect(error.sqlState == "42P01")  // undefined_table, PostgreSQL's errcodes appendix
            #expect(error.message.contains("feedsim_no_such_table"))
            #expect(error.sql == "SELECT * FROM feedsim_no_such_table")
        }
    }

    /// 20,000 items in one feed and 20,000 in another, analyzed: the planner then picks the index
    /// only because it is cheaper, so the test fails if the page SQL stops being index-friendly.
    @Test(arguments: ["newest", "after", "before"])
    func pageQueriesUseTheFeedOrderIndexOnPostgreSQL(direction: String) throws {
        try Self.withDatabase { database in
            let store = try database.openPostgres()
            var counter: Int64 = 0
            let next = { () -> NewItem in
                counter += 1
                return stub(id: nil, at: counter % 5_000)
            }
            try store.seed(feedNamed: "home", count: 20_000, next: next)
            try store.seed(feedNamed: "other", count: 20_000, next: next)
            try store.connection.execute("ANALYZE items")
            let plan = try store.explainPage(
                direction, cursor: Cursor(publishedAt: 2_500, id: 10_000), feed: try store.requireFeed(named: "home"),
                limit: 20)
            let text = plan.joined(separator: "\n")
            #expect(text.contains("Index Scan using items_feed_order") || text.contains("Index Scan Backward using items_feed_order"), "\(text)")
            #expect(!text.contains("Seq Scan on items"), "\(text)")
        }
    }

    @Test func seedingThroughCOPYWritesEveryItemInOneTransactionOnPostgreSQL() throws {
        try Self.withDatabase { database in
            let store = try database.openPostgres()
            var index: Int64 = 0
            var reported: [Int] = []
            let summary = try store.seed(
                feedNamed: "home", count: 25_000,
                next: {
                    index += 1
                    return NewItem(
                        publishedAt: 1_000 + index, kind: index % 3 == 0 ? "ad" : "photo", width: 10, height: Double(index),
                        title: "t\tab\(index)", author: "a\\b", payload: "{\"i\":\(index)}\n")
                }, progress: { reported.append($0) })
            #expect(summary == CopySummary(items: 25_000, oldestPublishedAt: 1_001, newestPublishedAt: 26_000))
            #expect(reported == [10_000, 20_000, 25_000])
            let stats = try store.stats()
            #expect(stats.feeds.map(\.name) == ["home"] && stats.totalItems == 25_000)
            #expect(stats.feeds[0].kinds.map(\.kind) == ["ad", "photo"])
            #expect(stats.feeds[0].kinds.map(\.items) == [8_333, 16_667])  // multiples of 3 in 1…25,000
            #expect(stats.feeds[0].oldestPublishedAt == 1_001 && stats.feeds[0].newestPublishedAt == 26_000)
            // Text comes back byte for byte through COPY's escaping; ids 1… from the sequence.
            let backend = store.backend(feed: try store.requireFeed(named: "home"))
            let row = try #require(try backend.rows(ids: [7]).rows.first)
            #expect(row == ItemRow(id: 7, title: "t\tab7", author: "a\\b", payload: "{\"i\":7}\n"))
            #expect(try backend.newest(limit: 1).items.first?.id == 25_000)
        }
    }

    @Test func aSeedThatFailsPartWayLeavesNeitherTheFeedNorAnyItemOnPostgreSQL() throws {
        try Self.withDatabase { database in
            let store = try database.openPostgres()
            var index = 0
            #expect(throws: PostgresError.self) {
                // Item 15,000 breaks the CHECK (width >= 0), after a first chunk was already sent.
                try store.seed(feedNamed: "broken", count: 20_000, next: {
                    index += 1
                    return NewItem(publishedAt: Int64(index), kind: "k", width: index == 15_000 ? -1 : 1, height: 1)
                })
            }
            #expect(try store.feeds().isEmpty)
            #expect(try store.connection.execute("SELECT count(*) FROM items").int64(0, 0) == 0)
            // The connection is usable afterwards.
            try store.seed(feedNamed: "ok", count: 3, next: { stub(id: nil, at: 1) })
            #expect(try store.stats().totalItems == 3)
        }
    }

    /// A LATIN1 database: the client still speaks UTF-8 (the server converts), and seeding uses COPY's
    /// text format (binary COPY would store UTF-8 bytes unconverted), escapes included.
    @Test func aLatin1DatabaseGetsTextCOPYAndConvertedTextOnPostgreSQL() throws {
        let name = "feedsim_latin1_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try TestPostgres.administer(
            "CREATE DATABASE \(name) ENCODING 'LATIN1' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0")
        defer { try? TestPostgres.administer("DROP DATABASE \(name)") }
        let store = try PostgresStore(
            conninfo: try #require(TestPostgres.uri), settings: [("dbname", name)], migrator: TestPostgres.migrator)
        #expect(store.connection.serverEncoding == "LATIN1")
        #expect(!store.copyEncoder(1).binary)
        let title = "café\tcrème\\brûlée\nfin\r"
        try store.seed(feedNamed: "home", count: 3, next: {
            NewItem(publishedAt: 1, kind: "k", width: 1, height: 2.5, title: title, author: "Zoë", payload: "{}")
        })
        let backend = store.backend(feed: try store.requireFeed(named: "home"))
        #expect(try backend.rows(ids: [2]).rows == [ItemRow(id: 2, title: title, author: "Zoë", payload: "{}")])
        #expect(try backend.newest(limit: 5).items.map(\.height) == [2.5, 2.5, 2.5])
        #expect(try store.connection.execute("SELECT octet_length(author) FROM items WHERE id = 1").int64(0, 0) == 3)
        // What LATIN1 cannot hold is refused (SQLSTATE 22P05), and nothing of the batch is written.
        do {
            try backend.insert([stub(id: nil, at: 5), NewItem(publishedAt: 5, kind: "🙂", width: 1, height: 1)])
            Issue.record("expected an untranslatable-character error")
        } catch let error as PostgresError {
            #expect(error.sqlState == "22P05")
        }
        #expect(try store.stats().totalItems == 3)
    }

    @Test func importKeepsGivenIdsRefusesDuplicatesAndContinuesTheSequenceOnPostgreSQL() throws {
        try Self.withDatabase { database in
            let store = try database.openPostgres()
            let summary = try store.importItems(
                [stub(id: 40, at: 5), stub(id: nil, at: 6), stub(id: 7, at: 4)], feedNamed: "wiki")
            #expect(summary == CopySummary(items: 3, oldestPublishedAt: 4, newestPublishedAt: 6))
            let backend = store.backend(feed: try store.requireFeed(named: "wiki"))
            // The id-less item is written after the ones with ids, so it gets 41.
            #expect(try backend.newest(limit: 10).items.map(\.id) == [41, 40, 7])
            #expect(throws: PostgresStoreError.duplicateID(40)) {
                try store.importItems([stub(id: 99, at: 1), stub(id: 40, at: 1)], feedNamed: "other")
            }
            #expect(throws: PostgresStoreError.duplicateID(5)) {
                try store.importItems([stub(id: 5, at: 1), stub(id: 5, at: 2)], feedNamed: "other")
            }
            #expect(try store.feeds().map(\.name) == ["wiki"])
            #expect(try backend.insert([stub(id: nil, at: 9)]) == [42])
        }
    }
}

extension TestPostgres {
    /// Tables in `schema`, read on an administrative connection.
    static func countTables(in schema: String) throws -> Int64 {
        let admin = try PostgresConnection(try #require(uri))
        var parameters = PostgresParameters()
        parameters.append(schema)
        return try admin.execute(
            unprepared: "SELECT count(*) FROM information_schema.tables WHERE table_schema = $1", parameters
        ).int64(0, 0)
    }
}
