import FeedEngine
import FeedModel
import FeedReplay
import Foundation
import Testing

@testable import FeedLoad
@testable import FeedPostgres
@testable import FeedStore

extension ContractDatabase {
    /// The load tester's connector to feed `name` of this database, as `feedsim load --db` opens it.
    func connector(feed name: String) throws -> any FeedBackendConnector {
        switch kind {
        case .sqlite:
            return try SQLiteConnector(path: sqlitePath, feedName: name)
        case .postgresql:
            return PostgresConnector(
                conninfo: try #require(TestPostgres.uri), settings: postgresSettings, migrator: TestPostgres.migrator,
                feed: name)
        }
    }
}

/// The load tester's consistency checks and runs on every backend, with the same code: a walk
/// checked against the backend's ground truth, runs with writers, and segments merged. Each test
/// has a SQLite and a PostgreSQL twin (the PostgreSQL ones need `FEEDSIM_TEST_POSTGRES`).
@Suite struct LoadConsistencyContractTests {
    /// Item `id` published at `1 000 000 + id × 1 000` ms: a larger id is newer.
    static func item(_ id: Int64) -> NewItem {
        NewItem(id: id, publishedAt: 1_000_000 + id * 1_000, kind: "post", width: 390, height: 200 + Double(id % 4) * 20)
    }

    /// A database whose feed `home` holds ids 1…`count` and feed `other` 10 items that must never show.
    static func seeded(_ kind: BackendKind, count: Int64) throws -> ContractDatabase {
        let database = try ContractDatabase(kind)
        try database.open(feed: "home").insert((1...count).map(item))
        try database.open(feed: "other").insert((0..<10).map { item(1_000_000 + $0) })
        return database
    }

    // MARK: One walk under writes, checked against the ground truth

    /// A walk down ids 30…1 in pages of 10 with writes between pages on a second connection:
    /// ids 31–33 inserted at the head after page 1, 33 and 32 deleted after page 2.
    static func walk(_ kind: BackendKind, _ mode: PaginationMode) throws -> (ids: [Int64], count: ConsistencyCount) {
        let database = try seeded(kind, count: 30)
        defer { database.cleanUp() }
        let connector = try database.connector(feed: "home")
        let writer = try connector.connect()
        let source = TimedFeedSource(backend: try connector.connect(), mode: mode)
        let truth = try connector.groundTruthReader(reuseUnchangedSpans: false)
        let maxIDAtStart = try truth.maxID()
        #expect(maxIDAtStart == 1_000_009, "the largest id in the database, any feed")

        let first = try source.newest(limit: 10)
        try writer.insert((31...33).map(item))
        let second = try source.after(try #require(first.lastCursor), limit: 10)
        try writer.delete(ids: [33, 32])
        _ = try source.after(try #require(second.lastCursor), limit: 10)

        let walk = try #require(source.walks.count == 1 ? source.walks[0] : nil)
        let survivors = try truth.spanIDs(
            newest: try #require(walk.newest), oldest: try #require(walk.oldest), expected: 30)
        // Inserted ids 31…33 are below the other feed's ids: "existed at start" is the seeded 1…30 here.
        let count = ConsistencyChecker.check(loadedIDs: walk.ids, survivorIDsInSpan: survivors) { $0 <= 30 }
        return (walk.ids, count)
    }

    static func offsetPagesRepeatAndSkip(_ kind: BackendKind) throws {
        let (ids, count) = try walk(kind, .offset)
        // Page 1: OFFSET 0 of 30…1 → 30…21.
        // Page 2: the feed is 33…1, OFFSET 10 → 23…14: 23, 22, 21 again = 3 duplicates.
        // Page 3: the feed is 31…1, OFFSET 20 → 11…2: 13 and 12 never loaded = 2 skips.
        #expect(ids == Array((21...30).reversed()) + Array((14...23).reversed()) + Array((2...11).reversed()))
        #expect(count == ConsistencyCount(duplicates: 3, skips: 2))
    }

    static func keysetPagesSeeEveryItemOnce(_ kind: BackendKind) throws {
        let (ids, count) = try walk(kind, .keyset)
        #expect(ids == Array((1...30).reversed()))
        #expect(count == ConsistencyCount(duplicates: 0, skips: 0))
    }

    @Test func offsetPagesRepeatAndSkipItemsUnderWritesOnSQLite() throws { try Self.offsetPagesRepeatAndSkip(.sqlite) }
    @Test(postgresAvailable) func offsetPagesRepeatAndSkipItemsUnderWritesOnPostgreSQL() throws {
        try Self.offsetPagesRepeatAndSkip(.postgresql)
    }
    @Test func keysetPagesSeeEveryItemOnceUnderTheSameWritesOnSQLite() throws { try Self.keysetPagesSeeEveryItemOnce(.sqlite) }
    @Test(postgresAvailable) func keysetPagesSeeEveryItemOnceUnderTheSameWritesOnPostgreSQL() throws {
        try Self.keysetPagesSeeEveryItemOnce(.postgresql)
    }

    // MARK: Runs with writers

    /// `sessions` sessions of `session` over 2 000 items in pages of 10 on 2 workers, while 2
    /// writers run 300 operations/s of `mix`.
    static func writeLoad(
        _ session: SessionKind, mix: WriteMix, pagination: PaginationMode = .keyset, keep: Bool = false
    ) -> LoadConfiguration {
        var configuration = LoadConfiguration(
            path: "contract", feedName: "home", model: .closed(sessions: 3), session: session,
            traces: .synthesized(models: [.skimmer, .flinger], durationSeconds: 6),
            replay: ReplayOptions(controller: FeedController.Configuration(pageSize: 10, initialLoadPages: 1)),
            timeScale: 10, pagination: pagination, durationSeconds: 1.2, workers: 2, writers: 2, writeRate: 300,
            keepWrites: keep)
        configuration.writeMix = mix
        return configuration
    }

    static func feedIDs(_ database: ContractDatabase) throws -> [Int64] {
        try database.open(feed: "home").groundTruth(after: Cursor(publishedAt: .max, id: .max), limit: 1_000_000).map(\.id)
    }

    static func keysetRunsWithWritersStayCleanAndPutTheFeedBack(_ kind: BackendKind, session: SessionKind) throws {
        let database = try seeded(kind, count: 2_000)
        defer { database.cleanUp() }
        let connector = try database.connector(feed: "home")
        let report = try LoadRunner(configuration: writeLoad(session, mix: WriteMix(insert: 2, update: 1, delete: 1))) {
            _ in connector
        }.run()
        #expect(report.errors.isEmpty, "\(report.errors)")
        #expect(report.sessions.failed == 0, "\(report.consistency.sessions)")
        #expect(report.consistency.sessionsChecked == report.sessions.started)
        #expect(report.inserted > 20 && report.updated > 5 && report.deleted > 5, "the writers wrote while sessions walked")
        #expect(report.consistency.duplicates == 0 && report.consistency.skips == 0, "\(report.consistency.sessions)")
        #expect(report.consistency.replayViolations.isEmpty, "\(report.consistency.replayViolations)")
        #expect(!report.hasViolations)
        #expect(report.latency["insert"]?.count == UInt64(report.insertTransactions))
        // Without --keep-writes the writers remove their rows and put back what they changed:
        // exactly ids 2000…1 again, and the other feed untouched.
        #expect(try feedIDs(database) == Array((1...2_000).reversed()))
        #expect(try database.open(feed: "other").newest(limit: 50).items.count == 10)
    }

    @Test(arguments: [SessionKind.pagination(pageBudget: 40), .replay])
    func keysetRunsWithWritersStayCleanAndPutTheFeedBackOnSQLite(session: SessionKind) throws {
        try Self.keysetRunsWithWritersStayCleanAndPutTheFeedBack(.sqlite, session: session)
    }

    @Test(postgresAvailable, arguments: [SessionKind.pagination(pageBudget: 40), .replay])
    func keysetRunsWithWritersStayCleanAndPutTheFeedBackOnPostgreSQL(session: SessionKind) throws {
        try Self.keysetRunsWithWritersStayCleanAndPutTheFeedBack(.postgresql, session: session)
    }

    static func offsetRunsUnderInsertsLoadDuplicatesAndKeptWritesStay(_ kind: BackendKind) throws {
        let database = try seeded(kind, count: 2_000)
        defer { database.cleanUp() }
        let connector = try database.connector(feed: "home")
        let report = try LoadRunner(
            configuration: writeLoad(.replay, mix: .insertOnly, pagination: .offset, keep: true)
        ) { _ in connector }.run()
        #expect(report.errors.isEmpty && report.sessions.failed == 0)
        #expect(report.latency["offset"] != nil && report.latency["after"] == nil)
        #expect(report.inserted > 50)
        // Every More page after an insert at the head repeats the inserted items.
        #expect(report.consistency.duplicates > 0)
        #expect(!report.hasViolations, "OFFSET is expected to break; only keyset runs fail on it")
        // --keep-writes: the writers' items stay, all newer than the seeded ones.
        let ids = try feedIDs(database)
        #expect(ids.count == 2_000 + report.inserted)
        #expect(ids.prefix(report.inserted).allSatisfy { $0 > 1_000_009 } && Array(ids.suffix(2_000)) == Array((1...2_000).reversed()))
    }

    @Test func offsetRunsUnderInsertsLoadDuplicatesAndKeptWritesStayOnSQLite() throws {
        try Self.offsetRunsUnderInsertsLoadDuplicatesAndKeptWritesStay(.sqlite)
    }

    @Test(postgresAvailable) func offsetRunsUnderInsertsLoadDuplicatesAndKeptWritesStayOnPostgreSQL() throws {
        try Self.offsetRunsUnderInsertsLoadDuplicatesAndKeptWritesStay(.postgresql)
    }

    // MARK: Segments merged equal one run

    /// 9 sessions in all (`--iterations 9`), 4 at once, `--time-scale max`, no writers, pages of 10.
    static func iterationsRun(_ session: SessionKind, segment: LoadSegment?) -> LoadConfiguration {
        var configuration = LoadConfiguration(
            path: "contract", feedName: "home", model: .closed(sessions: 4), session: session,
            traces: .synthesized(models: [.skimmer, .flinger], durationSeconds: 3),
            replay: ReplayOptions(controller: FeedController.Configuration(pageSize: 10, initialLoadPages: 1)),
            timeScale: nil, pagination: .keyset, durationSeconds: 120, workers: 2, seed: 5)
        configuration.iterations = 9
        configuration.segment = segment
        return configuration
    }

    /// The report as `feedsim report merge` reads it: through its JSON.
    static func roundTrip(_ report: LoadReport) throws -> LoadReport {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(LoadReport.self, from: Data(try report.json().utf8))
    }

    static func segmentsMergedEqualOneRun(_ kind: BackendKind, session: SessionKind) throws {
        let database = try seeded(kind, count: 1_000)
        defer { database.cleanUp() }
        let connector = try database.connector(feed: "home")
        // On a virtual clock (LoadClock) work takes no time, so a replay session's answers land at
        // the same virtual times in every run: the figures below are exact, not wall-time noise.
        let full = try LoadRunner(configuration: iterationsRun(session, segment: nil), clock: .virtual()) {
            _ in connector
        }.run()
        let parts = try (1...3).map { index in
            let report = try LoadRunner(
                configuration: iterationsRun(session, segment: LoadSegment(index: index, count: 3)), clock: .virtual()
            ) { _ in connector }.run()
            return (name: "segment \(index)", report: try roundTrip(report))
        }
        // Sessions 0…8 dealt out: 1/3 runs 0, 3, 6; 2/3 runs 1, 4, 7; 3/3 runs 2, 5, 8.
        #expect(parts.map(\.report.sessions.completed) == [3, 3, 3])
        #expect(parts.map(\.report.settings.segment) == ["1/3", "2/3", "3/3"])
        let merged = try LoadReport.merge(parts)
        #expect(full.sessions.started == 9 && full.sessions.completed == 9, "--iterations 9: exactly 9 sessions")
        #expect(merged.sessions == full.sessions)
        #expect(merged.settings.segment == nil && merged.settings == full.settings.withWorkers(6))
        #expect(merged.pages == full.pages && merged.items == full.items && merged.rows == full.rows)
        #expect(merged.frames == full.frames)
        #expect(merged.consistency.sessionsChecked == 9)
        #expect(merged.consistency.duplicates == full.consistency.duplicates && merged.consistency.skips == full.consistency.skips)
        #expect(merged.consistency.replayViolations == full.consistency.replayViolations)
        #expect(merged.consistency.sessions.map(\.session) == full.consistency.sessions.map(\.session))
        #expect(merged.replays.finished == full.replays.finished)
        // Query counts per kind are deterministic (latencies are wall time, so not their values).
        #expect(merged.latency.mapValues(\.count) == full.latency.mapValues(\.count))
        // Time to first content and blank area are virtual time: the merged figures equal the
        // full run's, histogram bucket for bucket.
        let ttfcKey = LoadReport.timeToFirstContentKey
        #expect(merged.replays.timeToFirstContent?.count == full.replays.timeToFirstContent?.count)
        #expect(merged.histograms?[ttfcKey] == full.histograms?[ttfcKey])
        #expect(merged.replays.timeToFirstContent == full.replays.timeToFirstContent)
        if let mergedBlank = merged.replays.blankMeanFraction, let fullBlank = full.replays.blankMeanFraction {
            #expect(abs(mergedBlank - fullBlank) < 1e-5, "blank mean (6 digits): merged \(mergedBlank), full \(fullBlank)")
        } else {
            #expect(merged.replays.blankMeanFraction == full.replays.blankMeanFraction)
        }
        // The timeline is not compared: with `--time-scale max` the virtual clock moves only while
        // every worker waits, so how many seconds it shows depends on thread scheduling
        // (LoadReportMergeTests checks that timelines are added second by second).
        #expect(merged.timeline.reduce(0) { $0 + $1.sessionsStarted } <= 9)
        if case .pagination(let budget) = session {
            // 1 000 items in pages of 10: each session's budget of pages, 10 items and 10 rows each.
            #expect(merged.pages == 9 * budget && merged.items == 9 * budget * 10 && merged.rows == 9 * budget * 10)
        }
    }

    @Test(arguments: [SessionKind.pagination(pageBudget: 7), .replay])
    func threeSegmentsOfAnIterationsRunMergedEqualOneFullRunOnSQLite(session: SessionKind) throws {
        try Self.segmentsMergedEqualOneRun(.sqlite, session: session)
    }

    @Test(postgresAvailable, arguments: [SessionKind.pagination(pageBudget: 7), .replay])
    func threeSegmentsOfAnIterationsRunMergedEqualOneFullRunOnPostgreSQL(session: SessionKind) throws {
        try Self.segmentsMergedEqualOneRun(.postgresql, session: session)
    }
}

extension LoadReport.Settings {
    /// These settings with `workers` worker threads.
    func withWorkers(_ workers: Int) -> LoadReport.Settings {
        var copy = self
        copy.workers = workers
        return copy
    }
}
