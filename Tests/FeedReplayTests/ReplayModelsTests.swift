import FeedEngine
import FeedModel
import Testing

@testable import FeedReplay

@Suite struct LatencyModelTests {
    @Test func percentileTableInterpolatesLinearlyBetweenRows() {
        let table: [LatencyModel.Percentile] = [.init(50, 80), .init(90, 250), .init(99, 900)]
        // p = 70 lies halfway between 50 and 90: 80 + 0.5 · (250 − 80) = 165.
        #expect(LatencyModel.interpolate(table, at: 70) == 165)
        // p = 95: (95 − 90) / (99 − 90) = 5/9 of the way from 250 to 900: 250 + 650·5/9 = 611.11…
        #expect(abs(LatencyModel.interpolate(table, at: 95) - (250 + 650.0 * 5 / 9)) < 1e-9)
        // Flat outside the table.
        #expect(LatencyModel.interpolate(table, at: 10) == 80)
        #expect(LatencyModel.interpolate(table, at: 99.9) == 900)
    }

    @Test func uniformDrawsStayInsideBoundsAndAverageToTheMidpoint() {
        var rng = SplitMix64(seed: 7)
        let model = LatencyModel.uniform(min: 100, max: 300)
        var sum = 0.0
        for _ in 0..<20_000 {
            let x = model.sample(&rng)
            #expect(x >= 100 && x <= 300)
            sum += x
        }
        // Mean of U(100, 300) is 200; standard error ≈ 57.7 / sqrt(20000) ≈ 0.41.
        #expect(abs(sum / 20_000 - 200) < 3)
    }

    @Test func logNormalMedianIsTheGivenMedian() {
        var rng = SplitMix64(seed: 11)
        let model = LatencyModel.logNormal(median: 120, sigma: 0.6)
        var draws = (0..<20_001).map { _ in model.sample(&rng) }
        draws.sort()
        // The median of median·e^(σZ) is median·e^0 = 120; sample median within a few percent.
        #expect(abs(draws[10_000] - 120) < 5)
    }

    @Test(arguments: [
        ("fixed:200", LatencyModel.fixed(ms: 200)),
        ("uniform:50,300", LatencyModel.uniform(min: 50, max: 300)),
        ("lognormal:120,0.6", LatencyModel.logNormal(median: 120, sigma: 0.6)),
        ("table:50=80,90=250", LatencyModel.percentiles([.init(50, 80), .init(90, 250)])),
    ])
    func parsesEachModelAndPrintsItBack(text: String, expected: LatencyModel) throws {
        let model = try LatencyModel.parse(text)
        #expect(model == expected)
        #expect(model.description == text)
    }

    @Test(arguments: ["fixed", "fixed:-1", "uniform:300,50", "gamma:1", "table:90=250,50=80", "table:x"])
    func rejectsMalformedLatency(text: String) {
        #expect(throws: ModelParseError.self) { try LatencyModel.parse(text) }
    }
}

@Suite struct FaultModelTests {
    @Test func callsInsideAnOutageFailAndOthersSucceedWithZeroRates() throws {
        let model = try FaultModel.parse("outage=1000-2000")
        var rng = SplitMix64(seed: 1)
        #expect(model.outcome(issuedAt: 999.9, &rng) == .success)
        #expect(model.outcome(issuedAt: 1000, &rng) == .error)
        #expect(model.outcome(issuedAt: 1999.9, &rng) == .error)
        #expect(model.outcome(issuedAt: 2000, &rng) == .success)
    }

    @Test(arguments: ["outage=-5-10", "outage=5-", "outage=5-10-20", "outage=10-5", "outage=0-inf"])
    func malformedOutagesAreRefusedNotRepaired(text: String) {
        // "-5-10" used to split into 5 and 10 and become 5-10 silently.
        #expect(throws: ModelParseError.self) { try FaultModel.parse(text) }
    }

    @Test func errorRateIsHonouredOverManyCalls() throws {
        let model = try FaultModel.parse("error=0.25")
        var rng = SplitMix64(seed: 3)
        let errors = (0..<40_000).filter { _ in model.outcome(issuedAt: 0, &rng) == .error }.count
        // Binomial(40000, 0.25): mean 10000, sd ≈ 86.6.
        #expect(abs(errors - 10_000) < 500)
    }

    @Test(arguments: ["error=2", "outage=5-1", "nonsense", "timeout-ms=0", "color=red"])
    func rejectsMalformedFaults(text: String) {
        #expect(throws: ModelParseError.self) { try FaultModel.parse(text) }
    }

    /// A key given twice took its last value silently; outages are a list and may repeat.
    @Test(arguments: ["error=0.1,error=0.2", "timeout=0,timeout=0.5", "timeout-ms=10,outage=1-2,timeout-ms=20"])
    func aKeyGivenTwiceIsRefused(text: String) {
        #expect(throws: ModelParseError.self) { try FaultModel.parse(text) }
    }

    @Test func outagesMayRepeat() throws {
        #expect(try FaultModel.parse("outage=1-2,outage=5-9").outages == [1..<2, 5..<9])
    }
}

@Suite struct CostModelTests {
    @Test func frameCostAddsEachPart() throws {
        let model = try CostModel.parse("base=1,layout=2,create=5,reuse=1,bind=0.5")
        // 1 + 2 + 2·5 + 3·1 + 4·0.5 = 18.
        #expect(model.frameCost(layoutChanged: true, created: 2, reused: 3, bound: 4) == 18)
        // Without layout: 1 + 0 + 0 + 0 + 0 = 1.
        #expect(model.frameCost(layoutChanged: false, created: 0, reused: 0, bound: 0) == 1)
    }

    @Test func aCostGivenTwiceIsRefused() {
        #expect(throws: ModelParseError.self) { try CostModel.parse("base=1,create=2,base=3") }
    }

    @Test(arguments: [(0.0, HitchBand.good), (4.99, .good), (5.0, .warning), (10.0, .warning), (10.01, .critical)])
    func hitchBandsFollowApplesThresholds(ratio: Double, band: HitchBand) {
        #expect(HitchBand(ratioMsPerS: ratio) == band)
    }
}

@Suite struct EventQueueTests {
    @Test func entriesComeOutByTimeAndEqualTimesInScheduleOrder() {
        var queue = EventQueue<Double, String>()
        queue.push("c", at: 30)
        queue.push("a1", at: 10)
        queue.push("b", at: 20)
        queue.push("a2", at: 10)
        queue.push("a3", at: 10)
        #expect(queue.popDue(at: 5) == nil)
        var out: [String] = []
        while let entry = queue.popDue(at: 25) { out.append(entry.element) }
        #expect(out == ["a1", "a2", "a3", "b"])
        #expect(queue.count == 1)
    }

    @Test func matchesASortedOracleOnRandomPushes() {
        var rng = SplitMix64(seed: 99)
        var queue = EventQueue<Double, Int>()
        var oracle: [(Double, Int)] = []
        for i in 0..<500 {
            let t = Double(rng.next() % 50)
            queue.push(i, at: t)
            oracle.append((t, i))
        }
        // Stable sort by time keeps schedule order for ties.
        let expected = oracle.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }.map(\.element.1)
        var got: [Int] = []
        while let entry = queue.popDue(at: .infinity) { got.append(entry.element) }
        #expect(got == expected)
    }
}

@Suite struct FrameMetricsTests {
    private func sample(t: Double, offset: Double, cost: Double, rowMissing: Double = 0, noContent: Double = 0) -> FrameSample {
        FrameSample(
            t: t, offset: offset, contentOffset: (0, offset), visibleRange: 0...3, loadedItems: 10,
            rowMissingFraction: rowMissing, noContentFraction: noContent, loadsInFlight: 0, cost: cost)
    }

    @Test func hitchesCountOnlyLateFramesWhileScrolling() {
        var m = FrameMetrics(refreshRate: 60, keepTimeline: false)
        m.record(sample(t: 0, offset: 0, cost: 40))  // first frame: no movement, not a hitch
        m.record(sample(t: 16.67, offset: 10, cost: 20))  // moved 10, late by 20 − 16.67 = 3.33
        m.record(sample(t: 33.33, offset: 30, cost: 10))  // moved 20, on time
        m.record(sample(t: 50, offset: 30, cost: 30))  // still: not a hitch
        #expect(m.hitchCount == 1)
        #expect(abs(m.hitchTime - (20 - 1000.0 / 60)) < 1e-9)
        // Two moving frames of 1000/60 ms each: 33.33 ms of scrolling.
        #expect(abs(m.scrollingTime - 2000.0 / 60) < 1e-9)
        // 3.333 ms / 0.03333 s would be 100 ms/s, but 33 ms of scrolling is too little for Apple's
        // ratio (read over a scroll of its own): no ratio, "not enough scrolling".
        #expect(m.hitchTimeRatio == nil)
        #expect(m.hitches.band == "not enough scrolling")
        #expect(m.hitches.timeRatioMsPerS == nil)
        #expect(abs(m.hitches.hitchMs - 3.333333) < 1e-6)
        #expect(m.distance == 30)
    }

    @Test func hitchRatioIsGivenFromOneSecondOfScrolling() {
        // 60 moving frames at 60 Hz = exactly 1 s of scrolling; one frame 9 ms late: 9 ms/s, in
        // Apple's warning band (good under 5, warning 5–10, critical above 10).
        var m = FrameMetrics(refreshRate: 60, keepTimeline: false)
        m.record(sample(t: 0, offset: 0, cost: 1))
        for k in 1...59 { m.record(sample(t: Double(k) * 1000 / 60, offset: Double(k), cost: 1)) }
        #expect(m.hitchTimeRatio == nil)  // 59 frames: 0.983 s
        m.record(sample(t: 1000, offset: 60, cost: 1000.0 / 60 + 9))
        #expect(abs(m.scrollingTime - 1000) < 1e-9)
        #expect(abs((m.hitchTimeRatio ?? -1) - 9) < 1e-9)
        #expect(m.hitches.band == "warning")
    }

    @Test func blankWhileScrollingIsApartFromTheWaitForFirstContentWithPercentiles() {
        var m = FrameMetrics(refreshRate: 60, keepTimeline: false)
        // Waiting for the first content: 3 frames, wholly blank, the first two still.
        for k in 0..<3 {
            var s = sample(t: Double(k) * 10, offset: k == 2 ? 5 : 0, cost: 1, noContent: 1)
            s.afterFirstContent = false
            m.record(s)
        }
        // After: 20 moving frames with blank 0, 0.1, ..., the last 19 of them 0.05 · k, and one still frame.
        for k in 0..<20 {
            m.record(sample(t: 100 + Double(k) * 10, offset: 10 + Double(k), cost: 1, rowMissing: Double(k) * 0.05))
        }
        m.record(sample(t: 400, offset: 29, cost: 1, rowMissing: 0.9))
        let blank = m.blank
        #expect(blank.beforeFirstContent.frames == 3)
        #expect(blank.beforeFirstContent.meanFraction == 1)
        #expect(blank.beforeFirstContent.maxFraction == 1)
        // While scrolling: 20 frames, 0, 0.05, ..., 0.95 (the still frame at 0.9 is not scrolling).
        // Mean = 0.05 · (0 + … + 19) / 20 = 0.475. Nearest rank: p50 = 10th value = 0.45;
        // p95 = 19th value = 0.9; max 0.95.
        #expect(blank.whileScrolling.frames == 20)
        #expect(blank.whileScrolling.meanFraction == 0.475)
        #expect(blank.whileScrolling.p50Fraction == 0.45)
        #expect(blank.whileScrolling.p95Fraction == 0.9)
        #expect(blank.whileScrolling.maxFraction == 0.95)
    }

    @Test func timelineSplitsBlankByCauseAndLoadsByKind() throws {
        var m = FrameMetrics(refreshRate: 60, keepTimeline: true)
        var s = sample(t: 0, offset: 0, cost: 1, rowMissing: 0.25, noContent: 0.5)
        s.loadsInFlight = 3
        s.pageLoadsInFlight = 1
        s.rowLoadsInFlight = 2
        s.loadStates = DirectionalLoadStates(refresh: .idle, prepend: .end, append: .loading)
        m.record(s)
        let lines = try #require(m.timelineCSV).split(separator: "\n")
        #expect(
            lines[0] == "t_ms,offset_x,offset_y,first_visible,last_visible,loaded_items,blank_fraction,loads_in_flight,"
                + "frame_cost_ms,edge_effect_pt,centred_index,blank_row_missing,blank_no_content,page_loads_in_flight,"
                + "row_loads_in_flight,refresh_state,prepend_state,append_state")
        #expect(lines[1] == "0.000,0.000,0.000,0,3,10,0.7500,3,1.000,0.000,,0.2500,0.5000,1,2,idle,end,loading")
    }

    @Test func blankAreaAveragesOverFramesAndCapsAtTheWholeViewport() {
        var m = FrameMetrics(refreshRate: 120, keepTimeline: true)
        m.record(sample(t: 0, offset: 0, cost: 1, noContent: 1))
        m.record(sample(t: 8.33, offset: 0, cost: 1, rowMissing: 0.5))
        m.record(sample(t: 16.67, offset: 0, cost: 1))
        m.record(sample(t: 25, offset: 0, cost: 1, rowMissing: 0.25, noContent: 0.25))
        let blank = m.blank
        // (1 + 0.5 + 0 + 0.5) / 4 = 0.5
        #expect(blank.meanFraction == 0.5)
        #expect(blank.maxFraction == 1)
        #expect(blank.framesWithBlank == 3)
        // (0.5 + 0.25) / 4 and (1 + 0.25) / 4
        #expect(blank.rowMissingFraction == 0.1875)
        #expect(blank.noContentFraction == 0.3125)
        let lines = m.timelineCSV!.split(separator: "\n")
        #expect(lines.count == 5)
        // The original nine columns, edge_effect_pt and centred_index (0 and empty off Android and
        // carousels), then the blank by cause, loads by kind and the load states.
        #expect(lines[0].contains(",frame_cost_ms,edge_effect_pt,centred_index,"))
        #expect(lines[2] == "8.330,0.000,0.000,0,3,10,0.5000,0,1.000,0.000,,0.5000,0.0000,0,0,idle,idle,idle")
    }
}
