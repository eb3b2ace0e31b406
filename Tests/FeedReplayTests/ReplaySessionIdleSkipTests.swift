import FeedEngine
import FeedLayout
import FeedModel
import FeedSimTestSupport
import FeedStore
import Foundation
import Testing

@testable import FeedReplay

/// Idle skipping must not change a single byte of the report or the timeline: each trace is
/// replayed twice, frame by frame and with skipping, and the outputs compared.
@Suite struct ReplaySessionIdleSkipTests {
    static func replay(
        _ trace: Trace, skipping: Bool, faults: String = "none", latency: LatencyModel = .fixed(ms: 40), timeline: Bool = true
    ) throws -> (json: Data, timeline: String, frames: Int, skipped: Int)
    {
        var items: [Item] = []
        for n in 1...600 {
            let height = Double(80 + (n * 37) % 120)
            let kind = n % 3 == 0 ? "video" : "photo"
            items.append(Item(id: Int64(n), publishedAt: 1_000_000 + Int64(n) * 10, kind: kind, width: 100, height: height))
        }
        let backend = MemoryBackend(items: items)
        let layout = try LayoutConfiguration(kind: .waterfall, columns: 2).makeLayout()
        var options = ReplayOptions(
            controller: FeedController.Configuration(pageSize: 30, maxLoadedItems: 240), latency: latency,
            faults: try FaultModel.parse(faults), seed: 5, keepTimeline: timeline)
        options.skipsIdleFrames = skipping
        let session = try ReplaySession(trace: trace, layout: layout, layoutDescription: "waterfall", backend: backend, options: options)
        let result = try session.run()
        return (try result.report.jsonData(), result.timelineCSV ?? "", result.report.frames, session.framesSkipped)
    }

    static let shippedTraces: [String] = {
        let directory = RealData.packageFile("Seeds/traces")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".jsonl") }.sorted()
    }()

    @Test func everyShippedTraceIsCompared() {
        #expect(Self.shippedTraces.count >= 7)
    }

    @Test(arguments: shippedTraces)
    func aShippedTraceGivesTheSameReportAndTimelineWithIdleSkipping(name: String) throws {
        let trace = try Trace.read(contentsOf: RealData.packageFile("Seeds/traces/\(name)").path)
        let stepped = try Self.replay(trace, skipping: false)
        let skipped = try Self.replay(trace, skipping: true)
        #expect(stepped.json == skipped.json)
        #expect(stepped.timeline == skipped.timeline)
        #expect(stepped.skipped == 0)
    }

    @Test(arguments: [SynthModel.reader, .skimmer, .refresher])
    func aSyntheticSessionWithFaultsAndInsertsGivesTheSameReport(model: SynthModel) throws {
        let trace = TraceSynthesizer(model: model, duration: 40, seed: 3).generate()
        let faults = "error=0.2,timeout=0.05,timeout-ms=1500"
        let stepped = try Self.replay(trace, skipping: false, faults: faults, latency: .logNormal(median: 120, sigma: 0.6))
        let skipped = try Self.replay(trace, skipping: true, faults: faults, latency: .logNormal(median: 120, sigma: 0.6))
        #expect(stepped.json == skipped.json)
        #expect(stepped.timeline == skipped.timeline)
        #expect(skipped.skipped > 0, "a reader session rests between gestures")
    }

    /// A drag, two minutes of nothing, a wheel step, the end.
    static func longPause(endingAt end: Double) -> Trace {
        Trace(
            header: TraceHeader(viewport: Size(width: 390, height: 844), screenScale: 3, refreshRate: 60, source: "pause"),
            events: [
                TraceEvent(t: 0, .touchDown(Point(x: 200, y: 700))),
                TraceEvent(t: 50, .touchMove(Point(x: 200, y: 500))),
                TraceEvent(t: 100, .touchMove(Point(x: 200, y: 300))),
                TraceEvent(t: 100, .touchUp(Point(x: 200, y: 300))),
                TraceEvent(t: 120_000, .wheel(dx: 0, dy: 200)),
                TraceEvent(t: end, .end),
            ])
    }

    @Test func aTwoMinutePauseIsSkippedAndFramesStillCountEveryFrame() throws {
        let trace = Self.longPause(endingAt: 120_500)
        let stepped = try Self.replay(trace, skipping: false)
        let skipped = try Self.replay(trace, skipping: true)
        #expect(stepped.json == skipped.json)
        #expect(stepped.timeline == skipped.timeline)
        // `frames` = every frame of the session, skipped or stepped: 60 Hz from t = 0 to the
        // end event at 120,500 ms (frame 7,230) is 7,231 frames, plus those a fling or a
        // load still in flight at the end adds (none here: the wheel step is applied at once).
        #expect(skipped.frames == 7_231)
        #expect(skipped.skipped > 7_000)
        #expect(skipped.timeline.split(separator: "\n").count == 7_231 + 1)
    }

    @Test func aTwentyFourHourTraceReplaysWithoutSteppingItsIdleFrames() throws {
        let trace = Self.longPause(endingAt: Trace.maximumDurationMilliseconds)
        let skipped = try Self.replay(trace, skipping: true, timeline: false)
        // 86,400,000 ms at 60 Hz: frames 0...5,184,000.
        #expect(skipped.frames == 5_184_001)
        #expect(skipped.skipped > 5_180_000)
    }
}
