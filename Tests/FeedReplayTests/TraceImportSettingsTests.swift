import FeedEngine
import FeedLayout
import FeedModel
import Foundation
import Testing

@testable import FeedReplay

/// The importer options as `replay` and `load` use them: units, guesses, header overrides.
@Suite struct TraceImportSettingsTests {
    /// A touch-csv drag in pixels of a 2.625 px/pt phone: 1050 px down from y = 1312.5 to 262.5.
    static func pixelDrag() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("drag-\(UUID().uuidString).csv").path
        try """
        t_ms,action,x,y
        0,DOWN,525,1312.5
        16,MOVE,525,962.5
        32,MOVE,525,612.5
        48,UP,525,262.5
        """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func ys(_ trace: Trace) -> [Double] {
        trace.events.compactMap { event in
            switch event.kind {
            case .touchDown(let p), .touchMove(let p), .touchUp(let p): return p.y
            default: return nil
            }
        }
    }

    @Test func pixelsPerPointDividesTouchCoordinatesAndSaysNothing() throws {
        var settings = TraceImportSettings()
        settings.pixelsPerPoint = 2.625
        let imported = try settings.load(.touchCSV, path: try Self.pixelDrag())
        // 1312.5 / 2.625 = 500, 962.5 / 2.625 = 366.667, 612.5 / 2.625 = 233.333, 262.5 / 2.625 = 100.
        let ys = Self.ys(imported.trace)
        #expect(ys.count == 4)
        for (y, expected) in zip(ys, [500, 366.666667, 233.333333, 100]) { #expect(abs(y - expected) < 1e-5) }
        #expect(imported.guesses.isEmpty)
    }

    @Test func touchCSVWithoutAUnitSaysItGuessedAndThatTheRowsLookLikePixels() throws {
        let imported = try TraceImportSettings().load(.touchCSV, path: try Self.pixelDrag())
        #expect(Self.ys(imported.trace).first == 1312.5)
        // The default viewport is 411.429 × 731.429 pt; y reaches 1312.5.
        #expect(
            imported.guesses == [
                "touch-csv: no --px-per-pt, coordinates read as points (1 px = 1 pt); they reach 525×1312.5, "
                    + "beyond the 411.429×731.429 pt viewport: likely pixels"
            ])
    }

    @Test func viewportAndRefreshRateOverrideACanonicalTracesHeader() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("t-\(UUID().uuidString).jsonl").path
        let trace = Trace(
            header: TraceHeader(version: 1, viewport: Size(width: 300, height: 600), screenScale: 2, refreshRate: 60, source: "t"),
            events: [TraceEvent(t: 100, .end)])
        try trace.jsonLines().write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try TraceImportSettings().load(.canonical, path: path).trace.header == trace.header)
        var settings = TraceImportSettings()
        settings.viewport = Size(width: 390, height: 844)
        settings.refreshRate = 120
        let header = try settings.load(.canonical, path: path).trace.header
        #expect(header.viewport == Size(width: 390, height: 844))
        #expect(header.refreshRate == 120)
        #expect(header.screenScale == 2)
    }

    @Test func theReplayReportsTheGuessAndTheHeaderItRanWith() throws {
        var settings = TraceImportSettings()
        settings.refreshRate = 120
        let imported = try settings.load(.touchCSV, path: try Self.pixelDrag())
        var options = ReplayOptions(controller: FeedController.Configuration(pageSize: 30, initialLoadPages: 1))
        options.traceNotes = imported.guesses
        let layout = try LayoutConfiguration(kind: .list).makeLayout()
        let report = try ReplaySession(
            trace: imported.trace, layout: layout, layoutDescription: "list",
            backend: MemoryBackend(items: ReplayScenarioTests.hundredItems()), options: options
        ).run().report
        #expect(report.options["trace_import"] == imported.guesses.first)
        #expect(report.options["refresh_rate"] == "120")
        #expect(report.options["viewport"] == "411.429x731.429")
        #expect(report.refreshRateHz == 120)
        #expect(abs(report.hitches.budgetMs - 8.333333) < 1e-6)
    }
}
