import FeedEngine
import FeedLayout
import FeedReplay
import FeedResources
import FeedStore
import Foundation
import Testing

@testable import FeedLoad

/// `feedsim load`'s replay sessions run the virtualizer without cells
/// (``FeedReplay/ReplayOptions/skipsCellsForLoadSummary``). The same seeded load — real SQLite
/// queries, on a virtual clock so both runs see the same answers at the same virtual times — run
/// once that way and once with the virtualizer keeping its cells must print the same report:
/// pages, items, rows, frames, query counts, blank area, time to first content, violations and
/// consistency, over several layouts, trace models and seeds.
@Suite struct ReplayLoadSessionRowsOnlyTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var layout: LayoutConfiguration
        var models: [SynthModel]
        var seed: UInt64
        var testDescription: String { "\(layout.summary) \(models.map(\.rawValue)) seed \(seed)" }
    }

    static let cases: [Case] = [
        Case(layout: LayoutConfiguration(kind: .grid), models: [.flinger], seed: 1),
        Case(layout: LayoutConfiguration(kind: .grid, columns: 2, headerHeight: 80), models: [.skimmer, .refresher], seed: 2),
        Case(layout: LayoutConfiguration(kind: .list, spacing: 6), models: [.flinger, .reader], seed: 3),
        Case(layout: LayoutConfiguration(kind: .waterfall, columns: 3), models: [.refresher, .flinger], seed: 4),
        Case(layout: LayoutConfiguration(kind: .strip, direction: .horizontal), models: [.flinger], seed: 5),
    ]

    private static func run(_ testCase: Case, path: String, skipsCells: Bool) throws -> LoadReport {
        var replay = ReplayOptions(controller: FeedController.Configuration(pageSize: 20, initialLoadPages: 1))
        replay.skipsCellsForLoadSummary = skipsCells
        replay.rowFaults = try FaultModel.parse("error=0.1")
        var configuration = LoadConfiguration(
            path: path, feedName: "home", model: .closed(sessions: 2),
            traces: .synthesized(models: testCase.models, durationSeconds: 12), layout: testCase.layout,
            replay: replay, timeScale: 2, durationSeconds: 600, workers: 1, seed: testCase.seed)
        configuration.iterations = 4
        configuration.latency = .logNormal(median: 90, sigma: 0.8)
        return try LoadRunner(configuration: configuration, clock: .virtual(), openBackend: openSQLite).run()
    }

    @Test(arguments: cases)
    func aLoadWithoutCellsPrintsTheFiguresOfTheVirtualizerWithCells(_ testCase: Case) throws {
        // A database each, seeded alike: a trace's `insert` events write to the store.
        func seeded() throws -> TemporaryDatabase {
            let database = try TemporaryDatabase()
            let store = try ItemStore(path: database.path)
            var generator = ItemGenerator(preset: try Preset.named("mixed"), seed: testCase.seed)
            try Seeder.seed(store, feedNamed: "home", generator: &generator, count: 1500)
            return database
        }
        let fullDatabase = try seeded()
        defer { fullDatabase.cleanUp() }
        let rowsOnlyDatabase = try seeded()
        defer { rowsOnlyDatabase.cleanUp() }

        let full = try Self.run(testCase, path: fullDatabase.path, skipsCells: false)
        let rowsOnly = try Self.run(testCase, path: rowsOnlyDatabase.path, skipsCells: true)
        #expect(full.sessions.completed == 4, "the comparison needs every session to finish")
        #expect(full.pages >= 4 && full.rows > 0 && full.frames > 0)
        // Each of the 4 finished replays showed content: one time to first content each.
        #expect(full.replays.timeToFirstContent?.count == 4)
        #expect((full.replays.blankMeanFraction ?? 0) > 0, "the comparison needs blank frames")

        #expect(rowsOnly.sessions == full.sessions)
        #expect(rowsOnly.pages == full.pages)
        #expect(rowsOnly.items == full.items)
        #expect(rowsOnly.rows == full.rows)
        #expect(rowsOnly.frames == full.frames)
        #expect(rowsOnly.errors == full.errors)
        #expect(rowsOnly.latency.mapValues(\.count) == full.latency.mapValues(\.count))
        #expect(rowsOnly.replays == full.replays)
        #expect(rowsOnly.blankMeanSum == full.blankMeanSum)
        #expect(rowsOnly.consistency == full.consistency)
        #expect(rowsOnly.histograms?["ttfc"] == full.histograms?["ttfc"])
    }
}
