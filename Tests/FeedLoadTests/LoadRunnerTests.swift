import FeedModel
import FeedStore
import Foundation
import Testing

@testable import FeedLoad

@Suite struct LoadRunnerTests {
    /// A store with `count` items of the `mixed` preset in feed `home`.
    private func seededDatabase(count: Int) throws -> TemporaryDatabase {
        let database = try TemporaryDatabase()
        let store = try ItemStore(path: database.path)
        var generator = ItemGenerator(preset: try Preset.named("mixed"), seed: 7)
        try Seeder.seed(store, feedNamed: "home", generator: &generator, count: count)
        return database
    }

    @Test func keysetSessionsSeeNoDuplicatesOrSkipsWhileWritersInsertAtTheHead() throws {
        let database = try seededDatabase(count: 3_000)
        defer { database.cleanUp() }
        let configuration = LoadConfiguration(
            path: database.path, feedName: "home", model: .closed(sessions: 4), timeScale: 0.02,
            pagination: .keyset, pageSize: 10, durationSeconds: 1.5, workers: 2, writers: 2, writeRate: 400)
        let report = try LoadRunner(configuration: configuration).run()
        #expect(report.sessions.failed == 0)
        #expect(report.errors.isEmpty)
        #expect(report.sessions.started >= 4)
        #expect(report.consistency.sessionsChecked == report.sessions.started)
        #expect(report.pages > 4)
        #expect(report.inserted > 100, "the writers ran during the sessions")
        #expect(report.consistency.duplicates == 0)
        #expect(report.consistency.skips == 0)
        #expect(!report.hasViolations)
        #expect(report.latency["newest"]?.count ?? 0 >= 4)
        #expect(report.latency["after"] != nil && report.latency["offset"] == nil)
        #expect(report.latency["insert"]?.count == UInt64(report.insertTransactions))
        #expect(report.rows > 0)
    }

    @Test func theReportIsSortedJSONAndNamesEveryTopic() throws {
        let database = try seededDatabase(count: 200)
        defer { database.cleanUp() }
        let configuration = LoadConfiguration(
            path: database.path, feedName: "home", model: .open(ratePerSecond: 50, slots: 2), timeScale: nil,
            pagination: .offset, pageSize: 10, durationSeconds: 0.3, workers: 1)
        let report = try LoadRunner(configuration: configuration).run()
        let json = try report.json()
        for key in ["\"busyWaits\"", "\"consistency\"", "\"errors\"", "\"latency\"", "\"pagesPerSecond\"", "\"sessions\""] {
            #expect(json.contains(key))
        }
        let keys = json.split(separator: "\n").filter { $0.hasPrefix("  \"") }.map { $0.split(separator: ":")[0] }
        #expect(keys == keys.sorted())
        #expect(report.latency["offset"] != nil)
        #expect(report.text.contains("consistency (offset)"))
    }

    @Test func badConfigurationNamesTheField() throws {
        let database = try seededDatabase(count: 10)
        defer { database.cleanUp() }
        let base = LoadConfiguration(path: database.path, feedName: "home", model: .closed(sessions: 1), workers: 1)
        var missing = base
        missing.path = database.directory.appendingPathComponent("nope.sqlite").path
        #expect(throws: LoadConfigurationError.self) { try LoadRunner(configuration: missing) }
        var unknownFeed = base
        unknownFeed.feedName = "nope"
        #expect(throws: StoreError.self) { try LoadRunner(configuration: unknownFeed) }
        var badRate = base
        badRate.model = .open(ratePerSecond: 0, slots: 1)
        #expect {
            try LoadRunner(configuration: badRate)
        } throws: { ($0 as? LoadConfigurationError)?.field == "arrival-rate" }
    }
}
