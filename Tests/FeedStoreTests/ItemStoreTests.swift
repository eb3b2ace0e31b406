import FeedModel
import Foundation
import Testing

@testable import FeedStore
import FeedSimTestSupport

@Suite struct ItemStoreTests {
    @Test func newFileIsMigratedToVersionOneAndReopensWithItsData() throws {
        let database = try TemporaryDatabase()
        defer { database.cleanUp() }
        do {
            let store = try ItemStore(path: database.path)
            #expect(store.schemaVersion == 1)
            try store.insert(items: [stub(id: 1, at: 10)], feed: try store.createFeed(named: "home"))
            #expect(try store.connection.scalarText("PRAGMA journal_mode") == "wal")
            #expect(try store.connection.scalarInt("PRAGMA foreign_keys") == 1)
            #expect(try store.connection.scalarInt("PRAGMA synchronous") == 1)  // NORMAL
        }
        let reopened = try ItemStore(path: database.path)
        #expect(reopened.schemaVersion == 1)
        #expect(try reopened.connection.scalarInt("PRAGMA user_version") == 1)
        let feed = try #require(try reopened.feedID(named: "home"))
        #expect(try reopened.pages(feed: feed).newest(limit: 5).items.map(\.id) == [1])
    }

    @Test func laterMigrationFileIsAppliedOnReopen() throws {
        let database = try TemporaryDatabase()
        defer { database.cleanUp() }
        let schema = database.directory.appendingPathComponent("Schema", isDirectory: true)
        try FileManager.default.createDirectory(at: schema, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: RealData.packageRoot.appendingPathComponent("Schema").appendingPathComponent("001_initial.sql"),
            to: schema.appendingPathComponent("001_initial.sql"))
        #expect(try ItemStore(path: database.path, schemaDirectory: schema).schemaVersion == 1)
        try "ALTER TABLE items ADD COLUMN likes INTEGER NOT NULL DEFAULT 0;"
            .write(to: schema.appendingPathComponent("002_likes.sql"), atomically: true, encoding: .utf8)
        let store = try ItemStore(path: database.path, schemaDirectory: schema)
        #expect(store.schemaVersion == 2)
        #expect(
            try store.connection.scalarInt("SELECT count(*) FROM pragma_table_info('items') WHERE name = 'likes'") == 1)
    }

    @Test func gapInMigrationNumbersIsRefused() throws {
        let database = try TemporaryDatabase()
        defer { database.cleanUp() }
        let schema = database.directory.appendingPathComponent("Schema", isDirectory: true)
        try FileManager.default.createDirectory(at: schema, withIntermediateDirectories: true)
        try "SELECT 1;".write(to: schema.appendingPathComponent("001_a.sql"), atomically: true, encoding: .utf8)
        try "SELECT 1;".write(to: schema.appendingPathComponent("003_c.sql"), atomically: true, encoding: .utf8)
        #expect(
            throws: StoreError.resource(
                path: schema.appendingPathComponent("003_c.sql").path, reason: "expected migration number 2, found 3")
        ) {
            try ItemStore(path: database.path, schemaDirectory: schema)
        }
    }

    @Test func databaseFromANewerFeedSimIsRefused() throws {
        let database = try TemporaryDatabase()
        defer { database.cleanUp() }
        do {
            let connection = try Connection(path: database.path)
            try connection.execute("PRAGMA user_version = 99")
        }
        #expect(throws: StoreError.newerSchema(path: database.path, version: 99, newestKnown: 1)) {
            try ItemStore(path: database.path)
        }
    }

    @Test func someoneElsesDatabaseIsRefusedAndLeftUntouched() throws {
        let database = try TemporaryDatabase()
        defer { database.cleanUp() }
        // A plain SQLite file with a table of its own, in rollback-journal mode.
        let other = try Connection(path: ":memory:")
        try other.execute("ATTACH DATABASE '\(database.path)' AS other")
        try other.execute("CREATE TABLE other.notes(body TEXT)")
        try other.execute("DETACH DATABASE other")
        #expect(throws: StoreError.foreignDatabase(path: database.path, reason: "it has tables (notes) but no 'feeds' table")) { try ItemStore(path: database.path) }
        // Still one table, still not WAL.
        let check = try Connection(path: ":memory:")
        try check.execute("ATTACH DATABASE '\(database.path)' AS other")
        #expect(try check.scalarInt("SELECT count(*) FROM other.sqlite_master") == 1)
        #expect(try check.scalarText("PRAGMA other.journal_mode") == "delete")
    }

    @Test func garbageFileIsRefusedNamingTheFile() throws {
        let database = try TemporaryDatabase()
        defer { database.cleanUp() }
        let garbage = String(repeating: "this is not a database\n", count: 400)
        try garbage.write(toFile: database.path, atomically: true, encoding: .utf8)
        #expect(throws: StoreError.notADatabase(path: database.path)) {
            try ItemStore(path: database.path)
        }
        #expect(StoreError.notADatabase(path: database.path).description.contains(database.path))
        // The file is left as it was.
        #expect(try String(contentsOfFile: database.path, encoding: .utf8) == garbage)
    }

    @Test func corruptDatabaseIsAnErrorNamingTheFileNotACrash() throws {
        let database = try TemporaryDatabase()
        defer { database.cleanUp() }
        do {
            let store = try ItemStore(path: database.path)
            try store.insert(items: (1...2_000).map { stub(id: Int64($0), at: Int64($0)) }, feedNamed: "home")
        }  // the last connection closes: WAL checkpointed into the main file
        // Overwrite pages 3 to 6 (4096-byte pages) with 0xFF.
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: database.path))
        try handle.seek(toOffset: 2 * 4096)
        try handle.write(contentsOf: Data(repeating: 0xFF, count: 4 * 4096))
        try handle.close()
        let error = try #require(throws: (any Error).self) {
            let store = try ItemStore(path: database.path)
            let pages = store.pages(feed: try store.requireFeed(named: "home"))
            var page = try pages.newest(limit: 100)
            while page.hasMoreAfter, let last = page.lastCursor { page = try pages.after(last, limit: 100) }
            _ = try store.rows(ids: (1...2_000).map { Int64($0) })
            _ = try store.stats()
        }
        let text = String(describing: error)
        #expect(text.contains(database.path), "\(text)")
        #expect(text.contains("malformed") || text.contains("corrupt") || text.contains("not an SQLite"), "\(text)")
    }

    @Test func duplicateIdRollsBackTheWholeInsert() throws {
        let store = try ItemStore.inMemory()
        let feed = try store.createFeed(named: "f")
        try store.insert(items: [stub(id: 2, at: 1)], feed: feed)
        #expect(throws: StoreError.duplicateID(2)) {
            try store.insert(items: [stub(id: 1, at: 1), stub(id: 2, at: 2)], feed: feed)
        }
        #expect(try store.rows(ids: [1]).missing == [1])
    }

    @Test func negativeSizeIsRejectedByTheSchemaAndNothingIsWritten() throws {
        let store = try ItemStore.inMemory()
        let feed = try store.createFeed(named: "f")
        let bad = NewItem(id: 9, publishedAt: 1, kind: "photo", width: -1, height: 10)
        let error = try #require(throws: SQLiteError.self) {
            try store.insert(items: [stub(id: 8, at: 1), bad], feed: feed)
        }
        #expect(error.isConstraint && error.extendedCode == 275)  // SQLITE_CONSTRAINT_CHECK
        #expect(try store.rows(ids: [8, 9]).missing == [8, 9])
    }

    @Test func createFeedReturnsTheExistingFeedForAKnownName() throws {
        let store = try ItemStore.inMemory()
        let a = try store.createFeed(named: "home")
        #expect(try store.createFeed(named: "home") == a)
        #expect(try store.feedID(named: "nope") == nil)
        #expect(throws: StoreError.unknownFeed("nope", known: ["home"])) { try store.requireFeed(named: "nope") }
    }

    @Test func statsCountItemsPerFeedAndKindWithTimeRanges() throws {
        let store = try ItemStore.inMemory()
        let home = try store.createFeed(named: "home")
        _ = try store.createFeed(named: "empty")
        try store.insert(
            items: [
                stub(id: 1, at: 50, kind: "photo"), stub(id: 2, at: 10, kind: "ad"), stub(id: 3, at: 30, kind: "photo"),
            ],
            feed: home)
        let stats = try store.stats()
        #expect(stats.schemaVersion == 1)
        #expect(stats.feeds.map(\.name) == ["empty", "home"])
        #expect(stats.feeds[0].items == 0 && stats.feeds[0].kinds.isEmpty && stats.feeds[0].oldestPublishedAt == nil)
        // home: ad 1 (at 10), photo 2 (at 50 and 30); range 10...50.
        #expect(stats.feeds[1].kinds == [.init(kind: "ad", items: 1), .init(kind: "photo", items: 2)])
        #expect(stats.feeds[1].oldestPublishedAt == 10 && stats.feeds[1].newestPublishedAt == 50)
        #expect(stats.totalItems == 3)
    }

    @Test func concurrentWritersOnTheSameFileAllLand() async throws {
        let database = try TemporaryDatabase()
        defer { database.cleanUp() }
        let setup = try ItemStore(path: database.path)
        let feed = try setup.createFeed(named: "home")
        let path = database.path
        // Four threads, one store each, 25 single-item transactions each.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    let store = try ItemStore(path: path)
                    for n in 0..<25 {
                        try store.insert(items: [stub(id: Int64(writer * 1000 + n), at: Int64(n))], feed: feed)
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try setup.stats().totalItems == 100)  // 4 × 25
    }
}

@Suite struct StatementTests {
    @Test func aFailedBindIsThrownByTheNextStepAndClearedByReset() throws {
        let connection = try Connection(path: ":memory:")
        let statement = try connection.prepare("SELECT ?1")
        statement.bind(Int64(1), at: 5)  // one parameter only: SQLITE_RANGE (25)
        #expect(throws: SQLiteError.self) { _ = try statement.step() }
        do {
            _ = try statement.step()
        } catch let error as SQLiteError {
            #expect(error.code == 25)
        }
        statement.reset()
        statement.bind(Int64(7), at: 1)
        #expect(try statement.step())
        #expect(statement.int64(at: 0) == 7)
    }
}
