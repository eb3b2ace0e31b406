import FeedEngine
import FeedReplay
import FeedResources
import FeedStore
import Foundation
import Testing

@testable import FeedLoad

/// What people see under load: a replay session's answers land on its virtual clock after the
/// query's measured time plus the client-side `--latency` draw, so a slower backend shows as later
/// first content and more blank area.
@Suite struct ReplayLoadSessionLatencyTests {
    private func seededDatabase() throws -> TemporaryDatabase {
        let database = try TemporaryDatabase()
        let store = try ItemStore(path: database.path)
        var generator = ItemGenerator(preset: try Preset.named("mixed"), seed: 3)
        try Seeder.seed(store, feedNamed: "home", generator: &generator, count: 600)
        return database
    }

    /// One session at a time replaying a 2-s skimmer trace with no waiting, for 1 s.
    private func run(latency: LatencyModel, path: String) throws -> LoadReport {
        var configuration = LoadConfiguration(
            path: path, feedName: "home", model: .closed(sessions: 1),
            traces: .synthesized(models: [.skimmer], durationSeconds: 2), timeScale: nil, durationSeconds: 1, workers: 1)
        configuration.latency = latency
        return try LoadRunner(configuration: configuration, openBackend: openSQLite).run()
    }

    @Test func aClientSideLatencyDelaysFirstContentByAPageAndARowFetch() throws {
        let database = try seededDatabase()
        defer { database.cleanUp() }
        let slow = try run(latency: .fixed(ms: 200), path: database.path)
        let fast = try run(latency: .fixed(ms: 0), path: database.path)
        let slowTTFC = try #require(slow.replays.timeToFirstContent)
        let fastTTFC = try #require(fast.replays.timeToFirstContent)
        // The Init page lands ≥ 200 ms after it is asked for at 0 ms, its rows ≥ 200 ms after that:
        // no content before 400 ms. Without the model only the measured query times (well under
        // a frame on an idle machine) and the frame steps stand between them.
        #expect(slowTTFC.p50 >= 400, "\(slowTTFC)")
        #expect(slowTTFC.max >= 400)
        #expect(fastTTFC.p50 < 300, "\(fastTTFC)")
        #expect((slow.replays.blankMeanFraction ?? 0) > (fast.replays.blankMeanFraction ?? 1))
        #expect(slow.settings.latency == "fixed:200" && fast.settings.latency == "fixed:0")
    }

    @Test func theTimedBackendReportsTheMeasuredTimeOfItsLastQuery() throws {
        let database = try seededDatabase()
        defer { database.cleanUp() }
        let connector = try SQLiteConnector(path: database.path, feedName: "home")
        let backend = TimedBackend(
            backend: try connector.connect(), connector: connector, mode: .keyset, insertPreset: try Preset.named("mixed"),
            seed: 1)
        #expect(backend.lastCallMilliseconds == 0, "nothing asked yet")
        let page = try backend.source.newest(limit: 20)
        #expect(page.items.count == 20)
        var metrics = LoadMetrics()
        backend.flush(into: &metrics)
        let recorded = try #require(metrics.latency[.newest]?.max)
        // The same measurement, in ms: the one recorded sample is the histogram's exact max.
        #expect(backend.lastCallMilliseconds == Double(recorded) / 1e6)
        #expect(backend.lastCallMilliseconds > 0)
    }

    @Test func onAVirtualClockAnAnswerLandsAfterTheLatencyDrawAlone() throws {
        let database = try seededDatabase()
        defer { database.cleanUp() }
        let connector = try SQLiteConnector(path: database.path, feedName: "home")
        let backend = TimedBackend(
            backend: try connector.connect(), connector: connector, mode: .keyset, insertPreset: try Preset.named("mixed"),
            seed: 1, chargesQueryTime: false)
        _ = try backend.source.newest(limit: 20)
        var metrics = LoadMetrics()
        backend.flush(into: &metrics)
        // Still timed for the latency histogram, but the replay's clock is not charged for it.
        #expect((metrics.latency[.newest]?.max ?? 0) > 0)
        #expect(backend.lastCallMilliseconds == 0)
    }

    @Test func aReplayCutShortBeforeItsFirstScreenAddsNoBlankAreaAndNoTimeToFirstContent() throws {
        let database = try seededDatabase()
        defer { database.cleanUp() }
        // One session paced in real time (time scale 1) on a 2-s trace, in a 0.5-s run, with 1 s of
        // client latency: the Init page cannot land before 1,000 ms of the trace, so the run's end
        // cuts the session short before any content. Counted, it would be a fully blank session
        // (blank mean 1.0, blank.p95 = 1) although nobody watched it to its end.
        var configuration = LoadConfiguration(
            path: database.path, feedName: "home", model: .closed(sessions: 1),
            traces: .synthesized(models: [.skimmer], durationSeconds: 2), timeScale: 1, durationSeconds: 0.5,
            workers: 1)
        configuration.latency = .fixed(ms: 1000)
        let report = try LoadRunner(configuration: configuration, openBackend: openSQLite).run()
        #expect(report.sessions.started == 1 && report.sessions.interrupted == 1 && report.sessions.completed == 0)
        #expect(report.replays.finished == 0)
        #expect(report.replays.blankMeanFraction == nil && report.replays.timeToFirstContent == nil)
    }
}
