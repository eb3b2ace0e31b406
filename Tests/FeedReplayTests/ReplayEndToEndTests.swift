import FeedEngine
import FeedLayout
import FeedModel
import FeedSimTestSupport
import FeedStore
import Foundation
import Testing

@testable import FeedReplay
import FeedResources

/// Whole replays: the shipped real traces, determinism, the SQLite store under the session.
@Suite struct ReplayEndToEndTests {
    static func shippedTrace(_ name: String) throws -> Trace {
        try Trace.read(contentsOf: RealData.packageFile("Seeds/traces/\(name)").path)
    }

    /// 1,000 items of 100 × 100 pt, newest id 1000.
    static func thousandItems() -> [Item] {
        (1...1000).map { Item(id: Int64($0), publishedAt: 5_000_000 + Int64($0) * 10, kind: "photo", width: 100, height: 100) }
    }

    @Test(arguments: [
        "evemu-Atmel-maXTouch-1-finger-drag-up-down.jsonl",
        "evemu-EP0430M09-1-finger-drag-up-down.jsonl",
        "flutter-velocity-tracker-drags.jsonl",
    ])
    func contentOffsetFollowsTheRecordedFingerDuringTheFirstDrag(traceName: String) throws {
        // UIKit: the pan starts once the finger has moved 10 pt (ScrollModel.Configuration.uikit's
        // touch slop; issue 12 corrected the 0 this test used to assume), then the offset is the
        // start offset (0) plus the finger's travel upward past the slop, y(down) − y(now) − 10
        // for a drag that started upward, as long as that stays inside the content (a pull past
        // the top is rubber-banded, which this test leaves out).
        let trace = try Self.shippedTrace(traceName)
        let backend = MemoryBackend(items: Self.thousandItems())
        let layout = try LayoutConfiguration(kind: .grid, columns: 4).makeLayout()
        let options = ReplayOptions(
            controller: FeedController.Configuration(pageSize: 50), latency: .fixed(ms: 0), keepTimeline: true)
        let result = try ReplaySession(
            trace: trace, layout: layout, layoutDescription: "grid", backend: backend, options: options
        ).run()
        guard case .touchDown(let down) = trace.events.first?.kind else {
            Issue.record("\(traceName) does not start with a touch down")
            return
        }
        let upTime = trace.events.first { if case .touchUp = $0.kind { return true } else { return false } }!.t
        let moves = trace.events.compactMap { e -> (Double, Double)? in
            if case .touchMove(let p) = e.kind, e.t < upTime { return (e.t, p.y) }
            return nil
        }
        let slop = ScrollModel.Configuration.uikit.touchSlop
        // The drag starts at the first move at least `slop` from the touch-down, in its direction.
        guard let start = moves.first(where: { abs(down.y - $0.1) >= slop }) else {
            Issue.record("\(traceName): the finger never passes the slop")
            return
        }
        let direction: Double = down.y - start.1 > 0 ? 1 : -1
        let rows = result.timelineCSV!.split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        var checked = 0
        for row in rows {
            let t = Double(row[0])!
            guard t < upTime, t >= start.0, let last = moves.last(where: { $0.0 <= t }) else { continue }
            let expected = down.y - last.1 - direction * slop
            guard expected >= 0 else { continue }
            #expect(abs(Double(row[2])! - expected) < 0.001, "t = \(t) ms")
            checked += 1
        }
        #expect(checked >= 5, "too few frames checked in \(traceName)")
    }

    @Test func sameTraceOptionsAndSeedGiveByteIdenticalReports() throws {
        func replayOnce() throws -> (Data, String) {
            let store = try ItemStore.inMemory()
            var generator = ItemGenerator(preset: try Preset.named("mixed"), seed: 7)
            _ = try Seeder.seed(store, feedNamed: "home", generator: &generator, count: 3000)
            var trace = TraceSynthesizer(model: .flinger, duration: 40, seed: 11).generate()
            // Upstream writes during the session: real rows inserted at the head.
            for t in [5_000.0, 15_000.0] {
                let index = trace.events.firstIndex { $0.t >= t } ?? trace.events.count
                trace.events.insert(TraceEvent(t: trace.events[index].t, .insert(count: 5)), at: index)
            }
            var options = ReplayOptions(
                controller: FeedController.Configuration(pageSize: 25, maxLoadedItems: 200),
                latency: .logNormal(median: 150, sigma: 0.7), faults: try FaultModel.parse("error=0.1,timeout=0.05,timeout-ms=2000"),
                seed: 99)
            options.keepTimeline = true
            let result = try ReplaySession.run(
                trace: trace, backend: store.pages(feed: try store.requireFeed(named: "home")),
                layout: LayoutConfiguration(kind: .mosaic), options: options,
                insertPreset: try Preset.named("mixed"))
            return (try result.report.jsonData(), result.timelineCSV!)
        }
        let (first, firstTimeline) = try replayOnce()
        let (second, secondTimeline) = try replayOnce()
        #expect(first == second)
        #expect(firstTimeline == secondTimeline)
        // The run exercised what makes determinism hard: faults, retries and several pages.
        let report = try JSONDecoder.snakeCase.decode(ReplayReport.self, from: first)
        #expect(report.pages.failures + report.pages.retries > 0)
        #expect(report.pages.more > 0)
        #expect(report.violations.isEmpty)
    }
}


@Suite struct ReplayStoreWritesTests {
    @Test func upstreamInsertsAreUndoneAfterTheReplayUnlessKept() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("feedsim-writes-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let store = try ItemStore(path: path)
        var generator = ItemGenerator(preset: try Preset.named("photos"), seed: 3)
        _ = try Seeder.seed(store, feedNamed: "home", generator: &generator, count: 500)
        // A drag that stays on screen, with 3 + 4 items written upstream meanwhile.
        var events = [TraceEvent(t: 0, .touchDown(Point(x: 100, y: 400)))]
        events += (1...20).map { TraceEvent(t: Double($0) * 10, .touchMove(Point(x: 100, y: 400 - Double($0) * 5))) }
        events += [
            TraceEvent(t: 210, .touchUp(Point(x: 100, y: 300))), TraceEvent(t: 300, .insert(count: 3)),
            TraceEvent(t: 400, .insert(count: 4)), TraceEvent(t: 600, .end),
        ]
        let trace = Trace(
            header: TraceHeader(version: 1, viewport: Size(width: 390, height: 844), screenScale: 3, refreshRate: 60, source: "test"),
            events: events)
        let options = ReplayOptions(controller: FeedController.Configuration(), latency: .fixed(ms: 50))
        func replay(keep: Bool) throws -> Data {
            try ReplaySession.run(
                trace: trace, backend: store.pages(feed: try store.requireFeed(named: "home")),
                layout: LayoutConfiguration(kind: .grid), options: options,
                insertPreset: try Preset.named("mixed"), keepInserts: keep
            ).report.jsonData()
        }
        let first = try replay(keep: false)
        #expect(try store.stats().totalItems == 500)
        #expect(try replay(keep: false) == first)
        _ = try replay(keep: true)
        #expect(try store.stats().totalItems == 507)
    }
}

extension JSONDecoder {
    static var snakeCase: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }
}
