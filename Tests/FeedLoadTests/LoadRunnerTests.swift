import FeedEngine
import FeedModel
import FeedReplay
import FeedStore
import Foundation
import Testing

@testable import FeedLoad
import FeedResources

@Suite struct LoadRunnerTests {
    /// A store with `count` items of the `mixed` preset in feed `home`.
    private func seededDatabase(count: Int) throws -> TemporaryDatabase {
        let database = try TemporaryDatabase()
        let store = try ItemStore(path: database.path)
        var generator = ItemGenerator(preset: try Preset.named("mixed"), seed: 7)
        try Seeder.seed(store, feedNamed: "home", generator: &generator, count: count)
        return database
    }

    /// Four replay sessions (synthesized skimmer and flinger traces, 10× real time, pages of 10)
    /// for 1.5 s on 2 workers while 2 writers insert 400 items/s at the head.
    private func writeLoad(_ pagination: PaginationMode, path: String) -> LoadConfiguration {
        LoadConfiguration(
            path: path, feedName: "home", model: .closed(sessions: 4),
            traces: .synthesized(models: [.skimmer, .flinger], durationSeconds: 6),
            replay: ReplayOptions(controller: FeedController.Configuration(pageSize: 10, initialLoadPages: 1)),
            timeScale: 10, pagination: pagination, durationSeconds: 1.5, workers: 2, writers: 2, writeRate: 400)
    }

    @Test func keysetReplaySessionsSeeNoDuplicatesOrSkipsWhileWritersInsertAtTheHead() throws {
        let database = try seededDatabase(count: 3_000)
        defer { database.cleanUp() }
        let report = try LoadRunner(
            configuration: writeLoad(.keyset, path: database.path), clock: .virtual(), openBackend: openSQLite
        ).run()
        #expect(report.sessions.failed == 0)
        #expect(report.errors.isEmpty)
        #expect(report.sessions.started >= 4)
        #expect(report.consistency.sessionsChecked == report.sessions.started)
        #expect(report.pages > 8, "the sessions scrolled past their first page")
        #expect(report.inserted > 100, "the writers ran during the sessions")
        #expect(report.consistency.duplicates == 0)
        #expect(report.consistency.skips == 0)
        #expect(report.consistency.replayViolations.isEmpty, "\(report.consistency.sessions)")
        #expect(!report.hasViolations)
        #expect(report.latency["newest"]?.count ?? 0 >= 4)
        #expect(report.latency["after"] != nil && report.latency["offset"] == nil)
        #expect(report.latency["insert"]?.count == UInt64(report.insertTransactions))
        #expect(report.rows > 0)
    }

    @Test(arguments: [false, true])
    func writersRemoveTheirRowsAfterTheRunUnlessKept(keep: Bool) throws {
        let database = try seededDatabase(count: 3_000)
        defer { database.cleanUp() }
        var configuration = writeLoad(.keyset, path: database.path)
        configuration.keepWrites = keep
        let report = try LoadRunner(configuration: configuration, openBackend: openSQLite).run()
        #expect(report.inserted > 100, "the writers ran")
        #expect(report.errors.isEmpty)
        let store = try ItemStore(path: database.path)
        let items = try store.itemCount(feed: try store.requireFeed(named: "home"))
        // Removed: the feed holds the 3 000 seeded items again; kept: those plus every inserted one.
        #expect(items == (keep ? 3_000 + report.inserted : 3_000))
    }

    /// Refresher traces insert 1–5 items before each pull (their `insert` events); with no writers
    /// every inserted row is a session's. The run deletes them when it ends, as the writers delete
    /// theirs (a run used to leave them: each load with a refresher trace grew the feed it tested),
    /// and `--keep-writes` keeps them.
    @Test(arguments: [false, true])
    func sessionsTraceInsertsAreRemovedAfterTheRunUnlessKept(keep: Bool) throws {
        let database = try seededDatabase(count: 1_000)
        defer { database.cleanUp() }
        var configuration = LoadConfiguration(
            path: database.path, feedName: "home", model: .closed(sessions: 2),
            traces: .synthesized(models: [.refresher], durationSeconds: 30),
            replay: ReplayOptions(controller: FeedController.Configuration(pageSize: 10, initialLoadPages: 1)),
            timeScale: nil, durationSeconds: 60, workers: 2)
        configuration.iterations = 4
        configuration.keepWrites = keep
        let report = try LoadRunner(configuration: configuration, clock: .virtual(), openBackend: openSQLite).run()
        #expect(report.sessions.completed == 4)
        #expect(report.inserted > 0, "the traces inserted")
        #expect(report.errors.isEmpty)
        let store = try ItemStore(path: database.path)
        let items = try store.itemCount(feed: try store.requireFeed(named: "home"))
        #expect(items == (keep ? 1_000 + report.inserted : 1_000))
    }

    @Test func offsetReplaySessionsLoadDuplicatesUnderTheSameWrites() throws {
        let database = try seededDatabase(count: 3_000)
        defer { database.cleanUp() }
        // On a virtual clock (LoadClock): the writers' 600 inserts and the sessions' pages land at
        // the same virtual times however loaded the machine is.
        let report = try LoadRunner(
            configuration: writeLoad(.offset, path: database.path), clock: .virtual(), openBackend: openSQLite
        ).run()
        #expect(report.sessions.failed == 0)
        #expect(report.latency["offset"] != nil && report.latency["after"] == nil)
        #expect(report.inserted > 100)
        // Every More page that follows an insert at the head repeats the inserted count of items.
        #expect(report.consistency.duplicates > 0)
        #expect(!report.hasViolations, "OFFSET is expected to break; only keyset runs fail on it")
    }

    @Test func refresherSessionsThatInsertAndPullToRefreshStayCleanUnderWriters() throws {
        let database = try seededDatabase(count: 2_000)
        defer { database.cleanUp() }
        // Refresher traces insert 1–5 items before each pull; at K = 20, 1.5 s of wall time is
        // 30 s of trace, several pull-to-refresh cycles per session, while 2 writers insert 200 items/s.
        var configuration = writeLoad(.keyset, path: database.path)
        configuration.traces = .synthesized(models: [.refresher], durationSeconds: 30)
        configuration.timeScale = 20
        configuration.model = .closed(sessions: 2)
        configuration.writeRate = 200
        let report = try LoadRunner(configuration: configuration, openBackend: openSQLite).run()
        #expect(report.sessions.failed == 0 && report.errors.isEmpty)
        #expect((report.latency["newest"]?.count ?? 0) > UInt64(report.sessions.started), "the sessions refreshed")
        #expect(report.consistency.duplicates == 0 && report.consistency.skips == 0)
        #expect(report.consistency.replayViolations.isEmpty, "\(report.consistency.replayViolations)")
    }

    @Test func aSessionPacedAtTenTimesRealTimeTakesATenthOfItsTraceInWallTime() throws {
        let database = try seededDatabase(count: 500)
        defer { database.cleanUp() }
        // A 3 s trace at K = 10 needs at least 3 / 10 = 0.3 s of the load's clock: a 0.2 s run interrupts
        // it. The clock is virtual (LoadClock): it moves only while the session waits for its next
        // frame, so a loaded machine (a worker thread starting late) changes nothing.
        var paced = LoadConfiguration(
            path: database.path, feedName: "home", model: .closed(sessions: 1),
            traces: .synthesized(models: [.reader], durationSeconds: 3), timeScale: 10, durationSeconds: 0.2,
            workers: 1)
        let interrupted = try LoadRunner(configuration: paced, clock: .virtual(), openBackend: openSQLite).run()
        #expect(interrupted.sessions.completed == 0)
        #expect(interrupted.sessions.interrupted == 1)
        // With no waiting the same trace (at most 3 s + 3 s of settling = 720 frames) finishes well within
        // 20 s: on the virtual clock only waits take time, and this run has none.
        paced.timeScale = nil
        paced.durationSeconds = 20
        paced.model = .closed(sessions: 1)
        let stop = StopSignal()
        let runner = try LoadRunner(configuration: paced, stop: stop, clock: .virtual(), openBackend: openSQLite)
        let watcher = Thread {
            while runner.progress().started < 2 && !stop.isSet { Thread.sleep(forTimeInterval: 0.002) }
            stop.set()  // the first session has completed and a second started: enough
        }
        watcher.start()
        let fast = runner.run()
        stop.set()
        #expect(fast.sessions.completed >= 1)
        #expect(fast.elapsedSeconds < 20)
    }

    @Test func traceFilesAreTakenRoundRobin() {
        let first = TraceSynthesizer(model: .reader, duration: 1, seed: 1).generate()
        let second = TraceSynthesizer(model: .flinger, duration: 1, seed: 2).generate()
        let files = SessionTraces.files([first, second])
        #expect((0..<5).map { files.trace(forSession: $0, seed: 9) } == [first, second, first, second, first])
        let synthesized = SessionTraces.synthesized(models: [.reader, .flinger], durationSeconds: 1)
        // Session k: model k mod 2, seed 9 + k.
        #expect(
            synthesized.trace(forSession: 0, seed: 9)
                == TraceSynthesizer(model: .reader, duration: 1, seed: 9).generate())
        #expect(
            synthesized.trace(forSession: 3, seed: 9)
                == TraceSynthesizer(model: .flinger, duration: 1, seed: 12).generate())
        #expect(synthesized.names == ["synth:reader", "synth:flinger"])
    }

    @Test func theReportIsSortedJSONAndNamesEveryTopic() throws {
        let database = try seededDatabase(count: 200)
        defer { database.cleanUp() }
        let configuration = LoadConfiguration(
            path: database.path, feedName: "home", model: .open(ratePerSecond: 50, slots: 2),
            traces: .synthesized(models: [.flinger], durationSeconds: 1),
            replay: ReplayOptions(controller: FeedController.Configuration(pageSize: 10)), timeScale: nil,
            pagination: .offset, durationSeconds: 0.3, workers: 1)
        let report = try LoadRunner(configuration: configuration, openBackend: openSQLite).run()
        let json = try report.json()
        for key in [
            "\"busy_waits\"", "\"consistency\"", "\"errors\"", "\"latency\"", "\"pages_per_second\"", "\"sessions\"",
            "\"replay_violations\"", "\"traces\"",
        ] {
            #expect(json.contains(key))
        }
        let keys = json.split(separator: "\n").filter { $0.hasPrefix("  \"") }.map { $0.split(separator: ":")[0] }
        #expect(keys == keys.sorted())
        #expect(report.latency["offset"] != nil)
        #expect(report.text.contains("consistency (offset)"))
        #expect(report.settings.traces == ["synth:flinger"])
    }

    @Test func badConfigurationNamesTheField() throws {
        let database = try seededDatabase(count: 10)
        defer { database.cleanUp() }
        let base = LoadConfiguration(path: database.path, feedName: "home", model: .closed(sessions: 1), workers: 1)
        var missing = base
        missing.path = database.directory.appendingPathComponent("nope.sqlite").path
        #expect(throws: LoadConfigurationError.self) { try LoadRunner(configuration: missing, openBackend: openSQLite) }
        var unknownFeed = base
        unknownFeed.feedName = "nope"
        #expect(throws: StoreError.self) { try LoadRunner(configuration: unknownFeed, openBackend: openSQLite) }
        var badRate = base
        badRate.model = .open(ratePerSecond: 0, slots: 1)
        #expect {
            try LoadRunner(configuration: badRate, openBackend: openSQLite)
        } throws: { ($0 as? LoadConfigurationError)?.field == "arrival-rate" }
        var noTraces = base
        noTraces.traces = .files([])
        #expect {
            try LoadRunner(configuration: noTraces, openBackend: openSQLite)
        } throws: { ($0 as? LoadConfigurationError)?.field == "trace" }
        var badPageSize = base
        badPageSize.replay.controller.pageSize = 0
        #expect {
            try LoadRunner(configuration: badPageSize, openBackend: openSQLite)
        } throws: { ($0 as? LoadConfigurationError)?.field == "controller" }
    }
}
