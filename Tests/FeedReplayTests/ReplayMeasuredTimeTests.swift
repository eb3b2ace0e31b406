import FeedEngine
import FeedLayout
import FeedModel
import Testing

@testable import FeedReplay

/// A backend that says each call took `ms` of wall time (as a load session's timed backend
/// measures it), over the in-memory feed.
private final class SlowBackend: ReplayBackend {
    let inner: MemoryBackend
    let ms: Double
    init(_ inner: MemoryBackend, ms: Double) {
        self.inner = inner
        self.ms = ms
    }
    func page(_ request: FeedController.FetchRequest) throws -> Page { try inner.page(request) }
    func rows(ids: [Int64]) throws -> RowBatch { try inner.rows(ids: ids) }
    func insertAtHead(count: Int, at t: Double) throws { try inner.insertAtHead(count: count, at: t) }
    func groundTruth(after cursor: Cursor, limit: Int) throws -> [Item] { try inner.groundTruth(after: cursor, limit: limit) }
    var lastCallMilliseconds: Double { ms }
}

/// The query's own time reaches the replay's virtual clock before the latency model's draw
/// (the load tester's "what people see under load"); a simulated backend adds nothing.
@Suite struct ReplayMeasuredTimeTests {
    @Test func eachAnswerLandsAfterTheBackendsTimePlusTheDrawnLatency() throws {
        let layout = try LayoutConfiguration(kind: .grid, columns: 3).makeLayout()
        let options = ReplayRowModelsTests.options(rowLatency: .fixed(ms: 40))
        let report = try ReplaySession(
            trace: ReplayRowModelsTests.trace(until: 1000), layout: layout, layoutDescription: "grid",
            backend: SlowBackend(MemoryBackend(items: ReplayScenarioTests.hundredItems()), ms: 60), options: options
        ).run().report
        // Init asked at 0 lands at 60 + 200 = 260 (frame 13 at 50 Hz); its row batch, asked at 260,
        // lands at 260 + 60 + 40 = 360. The same run on the plain backend shows content at 240
        // (ReplayRowModelsTests: 200 + 40).
        #expect(report.timeToFirstContentMs == 360)
        #expect(MemoryBackend(items: []).lastCallMilliseconds == 0)
    }
}
