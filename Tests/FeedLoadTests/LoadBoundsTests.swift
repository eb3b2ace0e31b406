import FeedResources
import FeedEngine
import FeedModel
import FeedReplay
import FeedStore
import Foundation
import Synchronization
import Testing

@testable import FeedLoad

/// Issue 11 for the load tester: bounded sessions and writers, threads whose start is checked,
/// and a summary that says in words when a walk repeated or lost items.
@Suite struct LoadBoundsTests {
    func seeded(count: Int) throws -> TemporaryDatabase {
        let database = try TemporaryDatabase()
        let store = try ItemStore(path: database.path)
        var generator = ItemGenerator(preset: try Preset.named("mixed"), seed: 7)
        try Seeder.seed(store, feedNamed: "home", generator: &generator, count: count)
        return database
    }

    func configuration(_ pagination: PaginationMode, path: String, sessions: Int = 4, writers: Int = 2) -> LoadConfiguration {
        LoadConfiguration(
            path: path, feedName: "home", model: .closed(sessions: sessions),
            traces: .synthesized(models: [.skimmer, .flinger], durationSeconds: 6),
            replay: ReplayOptions(controller: FeedController.Configuration(pageSize: 10, initialLoadPages: 1)),
            timeScale: 10, pagination: pagination, durationSeconds: 1.5, workers: 2, writers: writers, writeRate: 400)
    }

    @Test func theOffsetBaselineSaysInWordsThatItsWalksRepeatedItemsAndKeysetSaysZero() throws {
        let database = try seeded(count: 3_000)
        defer { database.cleanUp() }
        let offset = try LoadRunner(configuration: configuration(.offset, path: database.path), openBackend: openSQLite).run()
        try #require(offset.consistency.duplicates > 0, "the writers moved the OFFSET pages")
        let verdict = try #require(offset.consistencyVerdict)
        #expect(verdict.contains("the walks repeated \(offset.consistency.duplicates) item(s)"))
        #expect(verdict.contains("OFFSET pages shift"))
        #expect(offset.text.contains(verdict))
        let keyset = try LoadRunner(configuration: configuration(.keyset, path: database.path), openBackend: openSQLite).run()
        #expect(keyset.consistencyVerdict == nil)
        #expect(keyset.text.contains(": 0 duplicates, 0 skips"))
    }

    @Test(arguments: [(LoadConfiguration.maxSessions + 1, 0), (4, LoadConfiguration.maxWriters + 1)])
    func sessionsAndWritersAboveTheirBoundAreRefusedByName(sessions: Int, writers: Int) throws {
        let database = try seeded(count: 50)
        defer { database.cleanUp() }
        do {
            _ = try LoadRunner(configuration: configuration(.keyset, path: database.path, sessions: sessions, writers: writers), openBackend: openSQLite)
            Issue.record("accepted \(sessions) sessions and \(writers) writers")
        } catch let error as LoadConfigurationError {
            #expect(error.field == (writers > 0 ? "writers" : "sessions"))
        }
    }

    @Test func aLaunchedThreadRunsItsBodyAndReportsSuccess() {
        let ran = Atomic<Int>(0)
        let done = DispatchSemaphore(value: 0)
        let code = ThreadLauncher.start(stackSize: 1 << 20) {
            ran.add(1, ordering: .relaxed)
            done.signal()
        }
        #expect(code == 0)
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(ran.load(ordering: .relaxed) == 1)
        let failure = ThreadLauncher.StartFailure(role: "writer", index: 4, count: 64, code: EAGAIN)
        #expect(failure.description.hasPrefix("could not start writer thread 5 of 64: Resource temporarily unavailable"))
    }
}
