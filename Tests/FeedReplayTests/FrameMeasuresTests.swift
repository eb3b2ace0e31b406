import FeedEngine
import FeedLayout
import FeedModel
import FeedSimTestSupport
import Foundation
import Testing

@testable import FeedReplay

/// ``FrameMeasures/loadSummary`` (what a load session measures) must give the figures the load
/// report prints exactly as the full measurement does: each trace is replayed twice, frame by
/// frame as a load session steps it, once measuring everything and once the summary alone.
@Suite struct FrameMeasuresTests {
    static func replay(_ trace: Trace, measures: FrameMeasures, faults: String) throws -> ReplayReport {
        var items: [Item] = []
        for n in 1...900 {
            let height = Double(80 + (n * 37) % 120)
            let kind = n % 3 == 0 ? "video" : "photo"
            items.append(Item(id: Int64(n), publishedAt: 1_000_000 + Int64(n) * 10, kind: kind, width: 100, height: height))
        }
        let layout = try LayoutConfiguration(kind: .grid, columns: 3).makeLayout()
        var options = ReplayOptions(
            controller: FeedController.Configuration(pageSize: 20, maxLoadedItems: 200),
            latency: .logNormal(median: 120, sigma: 0.6), faults: try FaultModel.parse(faults), seed: 7)
        options.measures = measures
        let session = try ReplaySession(
            trace: trace, layout: layout, layoutDescription: "grid", backend: MemoryBackend(items: items), options: options)
        while try session.advanceFrame() {}
        return session.result.report
    }

    static let traces: [String] = {
        let directory = RealData.packageFile("Seeds/traces")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".jsonl") }.sorted()
    }()

    static func expectSameSummary(_ full: ReplayReport, _ summary: ReplayReport, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(summary.frames == full.frames, sourceLocation: sourceLocation)
        #expect(summary.blank.meanFraction == full.blank.meanFraction, sourceLocation: sourceLocation)
        #expect(summary.blank.rowMissingFraction == full.blank.rowMissingFraction, sourceLocation: sourceLocation)
        #expect(summary.blank.noContentFraction == full.blank.noContentFraction, sourceLocation: sourceLocation)
        #expect(summary.timeToFirstContentMs == full.timeToFirstContentMs, sourceLocation: sourceLocation)
        #expect(summary.violations == full.violations, sourceLocation: sourceLocation)
        #expect(summary.pages == full.pages, sourceLocation: sourceLocation)
        #expect(summary.rows.fetched == full.rows.fetched, sourceLocation: sourceLocation)
        #expect(summary.transitions == full.transitions, sourceLocation: sourceLocation)
    }

    @Test func everyShippedTraceIsCompared() {
        #expect(Self.traces.count >= 7)
    }

    @Test(arguments: traces)
    func aShippedTraceGivesTheLoadReportsFiguresWithTheSummaryAlone(name: String) throws {
        let trace = try Trace.read(contentsOf: RealData.packageFile("Seeds/traces/\(name)").path)
        let full = try Self.replay(trace, measures: .all, faults: "none")
        let summary = try Self.replay(trace, measures: .loadSummary, faults: "none")
        Self.expectSameSummary(full, summary)
    }

    @Test func aFlingerSessionWithFaultsGivesTheSameSummaryAndLeavesTheRestUnmeasured() throws {
        let trace = TraceSynthesizer(model: .flinger, duration: 30, seed: 4).generate()
        let faults = "error=0.2,timeout=0.05,timeout-ms=1500"
        let full = try Self.replay(trace, measures: .all, faults: faults)
        let summary = try Self.replay(trace, measures: .loadSummary, faults: faults)
        #expect(full.blank.meanFraction > 0, "the comparison needs blank frames")
        #expect(full.distancePt > 0)
        Self.expectSameSummary(full, summary)
        // Not measured: stays 0 (documented on FrameMeasures.loadSummary).
        #expect(summary.distancePt == 0)
        #expect(summary.blank.maxFraction == 0)
        #expect(summary.hitches.count == 0)
        #expect(summary.rows.distinctShown == 0)
    }
}
