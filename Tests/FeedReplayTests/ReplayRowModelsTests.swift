import FeedEngine
import FeedLayout
import FeedModel
import Testing

@testable import FeedReplay

/// Row fetches with their own latency and fault models, and every random stream from the seed.
/// 50 Hz so every frame time is a whole number of milliseconds (frame k at 20k ms).
@Suite struct ReplayRowModelsTests {
    static func trace(until end: Double) -> Trace {
        Trace(
            header: TraceHeader(
                version: 1, viewport: Size(width: 300, height: 600), screenScale: 1, refreshRate: 50, source: "test"),
            events: [TraceEvent(t: end, .end)])
    }

    static func run(_ options: ReplayOptions, until end: Double = 1000) throws -> ReplayReport {
        let layout = try LayoutConfiguration(kind: .grid, columns: 3).makeLayout()
        return try ReplaySession(
            trace: trace(until: end), layout: layout, layoutDescription: "grid",
            backend: MemoryBackend(items: ReplayScenarioTests.hundredItems()), options: options
        ).run().report
    }

    static func options(
        latency: LatencyModel = .fixed(ms: 200), rowLatency: LatencyModel? = nil, faults: FaultModel = .none,
        rowFaults: FaultModel? = nil, retry: FeedController.RetryPolicy = .init(), seed: UInt64 = 1
    ) -> ReplayOptions {
        ReplayOptions(
            controller: FeedController.Configuration(pageSize: 30, initialLoadPages: 1, retry: retry),
            ranges: .uikit, latency: latency, faults: faults, seed: seed, settleMs: 500, rowLatency: rowLatency,
            rowFaults: rowFaults)
    }

    @Test func rowsUseThePageLatencyUnlessTheirOwnIsGiven() throws {
        // Init is issued at 0 and lands at 200 (frame 10); its 30 items (10 rows, 1000 pt) all lie in
        // the preload rect (viewport 600 + one screen ahead): one row batch issued at 200.
        // Page latency for rows: it lands at 400. Row latency 40 ms: at 240.
        let shared = try Self.run(Self.options())
        #expect(shared.timeToFirstContentMs == 400)
        #expect(shared.options["row_latency"] == "fixed:200")
        let own = try Self.run(Self.options(rowLatency: .fixed(ms: 40)))
        #expect(own.timeToFirstContentMs == 240)
        #expect(own.options["row_latency"] == "fixed:40")
        #expect(own.options["latency"] == "fixed:200")
        // The More fired at 200 (29 − 17 = 12 < 30 items below the last visible) lands at 400 and
        // brings rows 10–11 (items 30–35) into the preload rect (0–1200): a second batch of 6.
        #expect(own.rows.batches == 2)
        #expect(own.rows.fetched == 36)
    }

    @Test func failedRowBatchesAreAskedAgainAndCounted() throws {
        // Row outage 0–300 ms, row latency 40: the batch issued at 200 fails at 240, is asked again in
        // the same frame (failures are delivered before the frame's update), fails at 280, asked again
        // at 280 (still inside the outage), fails at 320; asked at 320 it succeeds and lands at 360.
        let report = try Self.run(
            Self.options(rowLatency: .fixed(ms: 40), rowFaults: try FaultModel.parse("outage=0-300")))
        #expect(report.timeToFirstContentMs == 360)
        #expect(report.rows.failedBatches == 3)
        // 4 batches of the 30 Init items, and the 6 items the More brings at 400 (after the outage).
        #expect(report.rows.batches == 5)
        #expect(report.rows.fetched == 4 * 30 + 6)
        // Each failure was off the wire when its ids were asked again: nothing redundant.
        #expect(report.rows.redundant == 0)
        // The page model has no faults: Init landed untouched.
        #expect(report.pages.`init` == 1)
        #expect(report.pages.failures == 0)
        #expect(report.options["row_faults"] == "outage=0-300")
        #expect(report.options["faults"] == "none")
    }

    @Test func rowFaultsDefaultToThePageFaults() throws {
        // Page outage 0–150: Init (issued at 0) fails at 200; with no row model of their own, rows
        // fail in the same window, but none is asked for before Init lands, so rows are untouched.
        let retry = FeedController.RetryPolicy(baseMilliseconds: 100, factor: 2, maxAttempts: 3, jitter: 0)
        let report = try Self.run(Self.options(faults: try FaultModel.parse("outage=0-150"), retry: retry))
        #expect(report.options["row_faults"] == "outage=0-150")
        // Init fails at 200, retries at 300, lands at 500; rows issued at 500 land at 700.
        #expect(report.pages.failures == 1)
        #expect(report.timeToFirstContentMs == 700)
        #expect(report.rows.failedBatches == 0)
    }

    @Test func anIdAskedAgainWhileItsCancelledFetchIsOnTheWireIsRedundant() throws {
        // Pages take 100 ms, rows 300. Init lands at 100 (30 items, 1000 pt): batch 1, items 0–29
        // (preload 0–1200). The More issued then lands at 200 (2000 pt): batch 2, items 30–35.
        // At 220 the offset jumps to 1400 (the end): preload 1400–2600, items 42–59 (batch 3);
        // items 0–35 all left, so batches 1 and 2 are cancelled (still on the wire until 400, 500).
        // At 240 back to 0, scrolling up: preload −600–600, items 0–17 asked again (batch 4) while
        // batch 1 is still out: 18 redundant ids; batch 3's items all left: cancelled.
        let trace = Trace(
            header: TraceHeader(
                version: 1, viewport: Size(width: 300, height: 600), screenScale: 1, refreshRate: 50, source: "test"),
            events: [
                TraceEvent(t: 220, .offset(Point(x: 0, y: 1400))), TraceEvent(t: 240, .offset(Point(x: 0, y: 0))),
                TraceEvent(t: 1000, .end),
            ])
        let layout = try LayoutConfiguration(kind: .grid, columns: 3).makeLayout()
        let report = try ReplaySession(
            trace: trace, layout: layout, layoutDescription: "grid",
            backend: MemoryBackend(items: ReplayScenarioTests.hundredItems()),
            options: Self.options(latency: .fixed(ms: 100), rowLatency: .fixed(ms: 300))
        ).run().report
        #expect(report.rows.redundant == 18)
        #expect(report.rows.cancelledBatches == 3)
        #expect(report.rows.batches == 4)
    }

    /// The retry times of an Init that never succeeds (outage all run), with jitter 0.2.
    static func failedTime(seed: UInt64) throws -> Double {
        let retry = FeedController.RetryPolicy(baseMilliseconds: 100, factor: 2, capMilliseconds: 1000, maxAttempts: 3)
        let report = try Self.run(
            Self.options(latency: .fixed(ms: 50), faults: try FaultModel.parse("outage=0-10000"), retry: retry, seed: seed),
            until: 2000)
        return report.timeInFailedMs
    }

    @Test func retryJitterComesFromTheReplaysSeed() throws {
        // The retry stream is the third draw of the seed's root generator (after the latency and
        // fault streams' splits): RetryPolicy.seed is replaced by it, whatever the options held.
        func expected(seed: UInt64) -> Double {
            var root = SplitMix64(seed: seed)
            _ = root.next()
            _ = root.next()
            var jitter = SplitMix64(seed: root.next())
            let policy = FeedController.RetryPolicy(
                baseMilliseconds: 100, factor: 2, capMilliseconds: 1000, maxAttempts: 3)
            // Frames every 20 ms: an answer or a retry time is handled at the first frame at or
            // after it, and a retry is issued at that frame. Init at 0 fails at 50 (seen at 60);
            // retry 1 at 60 + d1, fails 50 later; retry 2 after d2, fails 50 later: given up.
            func frame(_ t: Double) -> Double { (t / 20).rounded(.up) * 20 }
            var seen = frame(50)
            seen = frame(frame(seen + policy.delay(afterAttempt: 1, unit: jitter.nextUnit())) + 50)
            seen = frame(frame(seen + policy.delay(afterAttempt: 2, unit: jitter.nextUnit())) + 50)
            // The run ends at 2000 ms.
            return 2000 - seen
        }
        let one = try Self.failedTime(seed: 1)
        let two = try Self.failedTime(seed: 2)
        #expect(one != two)
        #expect(try Self.failedTime(seed: 1) == one)
        #expect(abs(one - expected(seed: 1)) < 1e-6)
        #expect(abs(two - expected(seed: 2)) < 1e-6)
    }
}
