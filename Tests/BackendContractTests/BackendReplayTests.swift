import FeedResources
import FeedEngine
import FeedLayout
import FeedModel
import FeedReplay
import FeedStore
import Foundation
import Testing

/// The same seeded data and trace give the same replay report on every backend (DESIGN.md's
/// backend invariant): the report does not name its backend, so the JSON must be byte-identical.
@Suite struct BackendReplayTests {
    /// 3,000 items of the mixed preset (seed 7) in feed `home`, a 40 s flinger session with two
    /// upstream inserts, faults and latency: pages, rows, writes and the ground truth all used.
    static func replay(on kind: BackendKind) throws -> (report: Data, timeline: String, left: Int) {
        let database = try ContractDatabase(kind)
        defer { database.cleanUp() }
        var generator = ItemGenerator(preset: try Preset.named("mixed"), seed: 7)
        let backend: any FeedBackend
        switch kind {
        case .sqlite:
            let store = try ItemStore(path: database.sqlitePath)
            try Seeder.seed(store, feedNamed: "home", generator: &generator, count: 3_000)
            backend = store.pages(feed: try store.requireFeed(named: "home"))
        case .postgresql:
            let store = try database.openPostgres()
            try store.seed(feedNamed: "home", count: 3_000, next: { generator.next() })
            backend = store.backend(feed: try store.requireFeed(named: "home"))
        }
        var trace = TraceSynthesizer(model: .flinger, duration: 40, seed: 11).generate()
        for t in [5_000.0, 15_000.0] {
            let index = trace.events.firstIndex { $0.t >= t } ?? trace.events.count
            trace.events.insert(TraceEvent(t: trace.events[index].t, .insert(count: 5)), at: index)
        }
        var options = ReplayOptions(
            controller: FeedController.Configuration(pageSize: 25, maxLoadedItems: 200),
            latency: .logNormal(median: 150, sigma: 0.7),
            faults: try FaultModel.parse("error=0.1,timeout=0.05,timeout-ms=2000"), seed: 99)
        options.keepTimeline = true
        let result = try ReplaySession.run(
            trace: trace, backend: backend, layout: LayoutConfiguration(kind: .mosaic), options: options,
            insertPreset: try Preset.named("mixed"))
        // The inserts lived in memory only: the feed still holds the seeded 3,000.
        var left = 0
        var page = try backend.newest(limit: 1_000)
        left += page.items.count
        while page.hasMoreAfter, let last = page.lastCursor {
            page = try backend.after(last, limit: 1_000)
            left += page.items.count
        }
        return (try result.report.jsonData(), try #require(result.timelineCSV), left)
    }

    @Test(postgresAvailable)
    func replaysSeededIdenticallyGiveTheSameReportOnSQLiteAndPostgreSQL() throws {
        let sqlite = try Self.replay(on: .sqlite)
        let postgres = try Self.replay(on: .postgresql)
        #expect(String(decoding: postgres.report, as: UTF8.self) == String(decoding: sqlite.report, as: UTF8.self))
        #expect(postgres.timeline == sqlite.timeline)
        #expect(sqlite.left == 3_000 && postgres.left == 3_000)
        // The replay did what makes equality hard: pages both ways, inserts, faults and retries.
        let report = try JSONSerialization.jsonObject(with: sqlite.report) as? [String: Any]
        let pages = try #require(report?["pages"] as? [String: Any])
        #expect((pages["more"] as? Int ?? 0) > 0)
        #expect((pages["retries"] as? Int ?? 0) + (pages["failures"] as? Int ?? 0) > 0)
    }
}
