import FeedEngine
import FeedLayout
import FeedModel
import Testing

@testable import FeedReplay

/// Replays in layouts whose content does not grow with items: the short-content rule must not
/// load the whole feed when nothing scrolls.
@Suite struct ReplayNoExtentTests {
    /// 200 items of 100 × 100 pt, ids 1…200 (id 200 newest).
    static func twoHundredItems() -> [Item] {
        (1...200).map { Item(id: Int64($0), publishedAt: 1_000_000 + Int64($0) * 1000, kind: "photo", width: 100, height: 100) }
    }

    @Test func aStripAtRestLoadsOnlyTheInitPages() throws {
        // Default controller: pageSize 20, Init = 3 pages × 20 = 60 items, issued at 0, landing at 100 ms.
        // The strip's content is the 390 pt viewport before and after Init (60 squares of
        // 390 / 60 = 6.5 pt, all visible): Init added no extent and nothing moved, so no More.
        // (Before the fix: 7 Mores of 20, (200 − 60) / 20 = 7, loading all 200 items.)
        let trace = Trace(
            header: TraceHeader(viewport: Size(width: 390, height: 844), screenScale: 3, refreshRate: 60, source: "test"),
            events: [TraceEvent(t: 2000, .end)])
        let backend = MemoryBackend(items: Self.twoHundredItems())
        let configuration = LayoutConfiguration(kind: .strip)
        let options = ReplayOptions(controller: FeedController.Configuration(), latency: .fixed(ms: 100), settleMs: 1000)
        let session = try ReplaySession(
            trace: trace, layout: try configuration.makeLayout(), layoutDescription: "strip", backend: backend,
            options: options, axis: configuration.scrollAxis)
        let report = try session.run().report
        #expect(report.pages.`init` == 1)
        #expect(report.pages.more == 0)
        #expect(report.final.loadedItems == 60)
        #expect(report.final.contentSize == [390, 844])
        #expect(
            report.phaseTransitions.map { [$0.tMs, $0.from, $0.to] as [AnyHashable] }
                == [[0.0, "idle", "init"], [100.0, "init", "idle"]] as [[AnyHashable]])
        // One Init page query; no other page was asked for.
        #expect(backend.pageCalls == 1)
        #expect(report.violations.isEmpty)
    }
}
