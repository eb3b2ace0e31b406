import FeedEngine
import FeedModel
import FeedReplay
import FeedStore
import Foundation
import Testing

@testable import FeedLoad
import FeedResources

@Suite struct PaginationLoadSessionTests {
    /// A feed of ids 1…`count` (larger id = newer) and a session over it, pages of 10.
    private func session(
        count: Int64, pageBudget: Int, rowBatchLimit: Int, in database: TemporaryDatabase
    ) throws -> PaginationLoadSession {
        let store = try ItemStore(path: database.path)
        let (feed, _) = try store.insert(items: (1...count).map(newItem), feedNamed: "home")
        return try PaginationLoadSession(
            index: 0, pool: ConnectionPool(connector: try SQLiteConnector(path: database.path, feedName: "home")), mode: .keyset,
            controller: FeedController.Configuration(pageSize: 10, initialLoadPages: 1), pageBudget: pageBudget,
            rowBatchLimit: rowBatchLimit, insertPreset: try Preset.named("mixed"), seed: 1)
    }

    /// Steps until the session ends; returns the number of steps and the metrics.
    private func runToEnd(_ session: PaginationLoadSession, limit: Int = 1_000) throws -> (steps: Int, LoadMetrics) {
        var metrics = LoadMetrics()
        var steps = 0
        while steps < limit {
            steps += 1
            guard try session.step(&metrics) != nil else { break }
        }
        try session.finish(interrupted: false, &metrics)
        return (steps, metrics)
    }

    @Test func aSessionPagesToTheEndOfTheFeedFetchingEachPagesRowsInBatches() throws {
        let database = try TemporaryDatabase()
        defer { database.cleanUp() }
        let session = try session(count: 95, pageBudget: 100, rowBatchLimit: 4, in: database)
        let (steps, metrics) = try runToEnd(session)
        // 95 items in pages of 10: Init (95…86), then 8 full More pages and a last one of 5 (5…1).
        #expect(steps == 10)
        #expect(metrics.pages == 10)
        #expect(metrics.latency[.newest]?.count == 1)
        #expect(metrics.latency[.after]?.count == 9)
        // Rows in batches of ≤ 4 ids: a page of 10 → 4 + 4 + 2 (3 statements), the last page of 5 → 4 + 1 (2).
        // 9 × 3 + 2 = 29 statements, 95 rows.
        #expect(metrics.latency[.rows]?.count == 29)
        #expect(metrics.rows == 95)
        #expect(session.walks.map(\.ids) == [Array((1...95).reversed())])
        #expect(metrics.notableSessions.isEmpty, "a clean session is not listed")
        #expect(metrics.consistency == ConsistencyCount())
        #expect(metrics.sessionsChecked == 1)
    }

    @Test func aSessionStopsAtItsPageBudget() throws {
        let database = try TemporaryDatabase()
        defer { database.cleanUp() }
        let session = try session(count: 95, pageBudget: 3, rowBatchLimit: 50, in: database)
        let (steps, metrics) = try runToEnd(session)
        // Init + 2 Mores = 3 pages of 10 (95…66), each page's rows in one statement.
        #expect(steps == 3)
        #expect(metrics.pages == 3)
        #expect(metrics.latency[.rows]?.count == 3)
        #expect(metrics.rows == 30)
        #expect(session.walks.map(\.ids) == [Array((66...95).reversed())])
    }

    /// A pooled connection keeps the casts made when it was opened (``BackendFaces``) for every
    /// session that takes it: on SQLite, OFFSET pages and no deferred requests. Two OFFSET sessions
    /// in turn on the pool's one connection each walk 30…1 in pages of 10: Init (30…21), then OFFSET
    /// pages at 10 (20…11) and 20 (10…1), as a source that casts its backend afresh does.
    @Test func sessionsTakingAPooledConnectionInTurnUseItsCastsAndWalkTheSameOffsetPages() throws {
        let database = try TemporaryDatabase()
        defer { database.cleanUp() }
        let store = try ItemStore(path: database.path)
        _ = try store.insert(items: (1...30).map(newItem), feedNamed: "home")
        let pool = ConnectionPool(connector: try SQLiteConnector(path: database.path, feedName: "home"))
        let connections = try pool.take()
        // The cast is the connection's own backend: its OFFSET page at 10 holds items 20…11.
        #expect(try connections.faces.offsetPages?.offsetPage(offset: 10, limit: 10).items.map(\.id) == Array((11...20).reversed()))
        #expect(connections.faces.deferred == nil)
        pool.give(connections)
        // The old path: a source that casts its backend itself, walked by hand through OFFSET pages.
        let feed = try store.requireFeed(named: "home")
        let fresh = TimedFeedSource(backend: try ItemStore(path: database.path).pages(feed: feed), mode: .offset)
        let first = try fresh.newest(limit: 10)
        let second = try fresh.after(first.items.last!.cursor, limit: 10)
        _ = try fresh.after(second.items.last!.cursor, limit: 10)
        #expect(fresh.walks.map(\.ids) == [Array((1...30).reversed())])
        for index in 0..<2 {
            let session = try PaginationLoadSession(
                index: index, pool: pool, mode: .offset,
                controller: FeedController.Configuration(pageSize: 10, initialLoadPages: 1), pageBudget: 10,
                rowBatchLimit: 10, insertPreset: try Preset.named("mixed"), seed: 1)
            let (steps, metrics) = try runToEnd(session)
            #expect(steps == 3)
            #expect(metrics.latency[.newest]?.count == 1)
            #expect(metrics.latency[.offset]?.count == 2)
            #expect(metrics.rows == 30)
            #expect(session.walks.map(\.ids) == fresh.walks.map(\.ids))
            #expect(metrics.consistency == ConsistencyCount())
        }
        let reused = try pool.take()
        #expect(reused === connections, "the pool hands the one connection back each time")
    }

    /// Sessions on one pool (so one ground-truth connection) walk the same 3 pages, 50…21: the
    /// second one's span is answered from the first one's read; a commit anywhere in the database
    /// (here into another feed) makes the third one read it again.
    @Test func sessionsWalkingTheSameSpanOfAnUnchangedDatabaseReuseTheCheckedSpan() throws {
        let database = try TemporaryDatabase()
        defer { database.cleanUp() }
        let store = try ItemStore(path: database.path)
        let (feed, _) = try store.insert(items: (1...50).map(newItem), feedNamed: "home")
        let pool = ConnectionPool(connector: try SQLiteConnector(path: database.path, feedName: "home"))
        func walk() throws -> LoadMetrics {
            let session = try PaginationLoadSession(
                index: 0, pool: pool, mode: .keyset,
                controller: FeedController.Configuration(pageSize: 10, initialLoadPages: 1), pageBudget: 3,
                insertPreset: try Preset.named("mixed"), seed: 1)
            let (_, metrics) = try runToEnd(session)
            #expect(session.walks.map(\.ids) == [Array((21...50).reversed())])
            #expect(metrics.consistency == ConsistencyCount())
            return metrics
        }
        let first = try walk()
        #expect((first.spansRead, first.spansReused) == (1, 0))
        let second = try walk()
        #expect((second.spansRead, second.spansReused) == (0, 1))
        _ = try store.insert(items: [newItem(60)], feedNamed: "other")
        let third = try walk()
        #expect((third.spansRead, third.spansReused) == (1, 0))
    }

    /// Six pagination sessions of 40 pages (pages of 10) at a time on 2 workers for 1 s while 2
    /// writers insert 400 items/s at the head.
    private func writeLoad(_ pagination: PaginationMode, path: String) -> LoadConfiguration {
        LoadConfiguration(
            path: path, feedName: "home", model: .closed(sessions: 6), session: .pagination(pageBudget: 40),
            replay: ReplayOptions(controller: FeedController.Configuration(pageSize: 10, initialLoadPages: 1)),
            timeScale: nil, pagination: pagination, durationSeconds: 1, workers: 2, writers: 2, writeRate: 400)
    }

    private func seededDatabase(count: Int) throws -> TemporaryDatabase {
        let database = try TemporaryDatabase()
        let store = try ItemStore(path: database.path)
        var generator = ItemGenerator(preset: try Preset.named("mixed"), seed: 7)
        try Seeder.seed(store, feedNamed: "home", generator: &generator, count: count)
        return database
    }

    @Test func keysetPaginationSessionsSeeNoDuplicatesOrSkipsWhileWritersInsertAtTheHead() throws {
        let database = try seededDatabase(count: 3_000)
        defer { database.cleanUp() }
        let report = try LoadRunner(configuration: writeLoad(.keyset, path: database.path), openBackend: openSQLite).run()
        #expect(report.sessions.failed == 0 && report.errors.isEmpty)
        #expect(report.sessions.completed >= 6, "sessions ran to their page budget and were replaced")
        #expect(report.consistency.sessionsChecked == report.sessions.started)
        #expect(report.inserted > 50, "the writers ran during the sessions")
        #expect(report.frames == 0)
        // Every page's items get their rows (pages of 10, one statement each).
        #expect(report.rows == report.items)
        #expect(report.latency["rows"]?.count == UInt64(report.pages))
        #expect(report.consistency.duplicates == 0)
        #expect(report.consistency.skips == 0)
        #expect(!report.hasViolations)
    }

    @Test func offsetPaginationSessionsLoadDuplicatesUnderTheSameWrites() throws {
        let database = try seededDatabase(count: 3_000)
        defer { database.cleanUp() }
        let report = try LoadRunner(configuration: writeLoad(.offset, path: database.path), openBackend: openSQLite).run()
        #expect(report.sessions.failed == 0 && report.errors.isEmpty)
        #expect(report.inserted > 50)
        // Each More page that follows k inserts at the head repeats k items of the page before it.
        #expect(report.consistency.duplicates > 0)
    }

    @Test func aPageBudgetBelowOneIsRejectedNamingTheField() throws {
        let database = try seededDatabase(count: 100)
        defer { database.cleanUp() }
        var configuration = writeLoad(.keyset, path: database.path)
        configuration.session = .pagination(pageBudget: 0)
        #expect {
            try LoadRunner(configuration: configuration, openBackend: openSQLite)
        } throws: { ($0 as? LoadConfigurationError)?.field == "page-budget" }
    }
}
