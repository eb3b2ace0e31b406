import FeedEngine
import FeedLayout
import FeedModel
import Testing

@testable import FeedReplay

/// Issue 12's view half in whole replays: supplementary views, taps on them, the carousel's
/// centred item, Android's clamped edges and the pull-to-refresh threshold. Figures by hand.
@Suite struct ReplayViewFidelityTests {
    static func trace(_ events: [TraceEvent], viewport: Size = Size(width: 300, height: 600)) -> Trace {
        Trace(header: TraceHeader(version: 1, viewport: viewport, screenScale: 1, refreshRate: 60, source: "test"), events: events)
    }

    static func session(
        _ trace: Trace, layout configuration: LayoutConfiguration, initialPages: Int = 1, latency: LatencyModel = .fixed(ms: 200),
        scroll: ScrollModel.Configuration = .uikit, threshold: Double = 50
    ) throws -> ReplaySession {
        let options = ReplayOptions(
            controller: FeedController.Configuration(pageSize: 30, initialLoadPages: initialPages, refreshThreshold: threshold),
            ranges: .uikit, scroll: scroll, latency: latency, settleMs: 1000, keepTimeline: true)
        return try ReplaySession(
            trace: trace, layout: try configuration.makeLayout(), layoutDescription: configuration.summary,
            backend: MemoryBackend(items: ReplayScenarioTests.hundredItems()), options: options, axis: configuration.scrollAxis)
    }

    /// A 3-column grid of 100 × 100 items in 300 wide, header 40, footer 44, refresh view 50.
    static let grid = LayoutConfiguration(kind: .grid, columns: 3, headerHeight: 40, footerHeight: 44, refreshHeight: 50)

    /// Init (30 items, 10 rows) lands at 200 ms: content 40 + 1000 + 44 = 1084, footer 1040..<1084.
    /// Taps in viewport coordinates: (150, 20) at offset 0 is the header (0..<40), not item 0;
    /// (150, 60) is item 1 (row 0 at y 40, column 1), id 99. At 320 ms the offset is set to −50
    /// (the refresh view's place, −50..<0): (150, 10) is content y −40, the refresh view. At
    /// 340 ms the offset is 484 (the end, 1084 − 600): (150, 580) is content y 1064, the footer
    /// (the More issued at 200 ms lands at 400, so the load-more view is still there and visible).
    @Test func tapsOnSupplementaryViewsAreReportedAsThoseViews() throws {
        let events = [
            TraceEvent(t: 300, .tap(Point(x: 150, y: 20))),
            TraceEvent(t: 310, .tap(Point(x: 150, y: 60))),
            TraceEvent(t: 320, .offset(Point(x: 0, y: -50))),
            TraceEvent(t: 330, .tap(Point(x: 150, y: 10))),
            TraceEvent(t: 340, .offset(Point(x: 0, y: 484))),
            TraceEvent(t: 350, .tap(Point(x: 150, y: 580))),
            TraceEvent(t: 600, .end),
        ]
        let report = try Self.session(Self.trace(events), layout: Self.grid).run().report
        #expect(report.taps.map(\.element) == ["header", "cell", "refresh", "footer"])
        #expect(report.taps.map(\.item) == [nil, 1, nil, nil])
        #expect(report.taps.map(\.itemId) == [nil, 99, nil, nil])
    }

    /// With 4 initial pages Init asks for 120 and gets all 100 items: the feed has ended at
    /// 200 ms, so the load-more footer is hidden (content 40 + 34·100 + 44 = 3484, footer at
    /// 3440). A tap on it at the end (offset 2884, content y 2884 + 580 = 3464) hits nothing.
    @Test func theLoadMoreFooterIsHiddenOnceTheFeedHasEnded() throws {
        let events = [
            TraceEvent(t: 100, .tap(Point(x: 150, y: 10))),
            TraceEvent(t: 300, .offset(Point(x: 0, y: 2884))),
            TraceEvent(t: 310, .tap(Point(x: 150, y: 580))),
            TraceEvent(t: 400, .end),
        ]
        let session = try Self.session(Self.trace(events), layout: Self.grid, initialPages: 4)
        let report = try session.run().report
        #expect(report.final.loadedItems == 100)
        #expect(report.final.contentSize == [300, 3484])
        let footer = session.layout.attributesForSupplementaryView(ofKind: .footer)
        #expect(footer?.isHidden == true && footer?.frame.minY == 3440)
        // Before Init landed the footer was shown (and the tap at 100 ms hit the header).
        #expect(report.taps.map(\.element) == ["header", nil])
    }

    /// Carousel of 200 × 200 items, spacing 20 (pitch 220) in a 300 × 600 viewport, latency 0
    /// (Init lands in the first frame): centred item round(x / 220): offset 0 → 0, 300 → 1
    /// (1.36), 660 → 3. The offsets are set at 200 and 300 ms, which are frames 12 and 18 at 60 Hz.
    @Test func theCarouselsCentredItemIsReportedPerFrameAndOnChange() throws {
        let carousel = LayoutConfiguration(kind: .carousel, itemSize: Size(width: 200, height: 200), spacing: 20)
        let events = [
            TraceEvent(t: 200, .offset(Point(x: 300, y: 0))),
            TraceEvent(t: 300, .offset(Point(x: 660, y: 0))),
            TraceEvent(t: 400, .end),
        ]
        let result = try Self.session(Self.trace(events), layout: carousel, latency: .fixed(ms: 0)).run()
        let changes = result.report.centredIndexChanges
        #expect(changes.map(\.index) == [0, 1, 3])
        #expect(changes.map(\.tMs) == [0, 200, 300])
        let rows = result.timelineCSV!.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        // The centred_index column follows edge_effect_pt (the load columns come after it).
        let column = try #require(rows[0].firstIndex(of: "centred_index"))
        #expect(rows[0][column - 1] == "edge_effect_pt")
        #expect(rows[1 + 18].first == "300.000" && rows[1 + 18][column] == "3")
    }

    /// The finger pulls down 200 pt from the top (220–290 ms), holds, lifts at 400.
    static let pull: [TraceEvent] = {
        var events = [TraceEvent(t: 220, .touchDown(Point(x: 150, y: 100)))]
        for k in 1...7 { events.append(TraceEvent(t: 220 + Double(k) * 10, .touchMove(Point(x: 150, y: 100 + Double(k) * 200 / 7)))) }
        events.append(TraceEvent(t: 400, .touchUp(Point(x: 150, y: 300))))
        events.append(TraceEvent(t: 1200, .end))
        return events
    }()

    /// Android: the offset stays at 0 (clamped) on every frame; the EdgeEffect holds
    /// 200 − 8 (slop) = 192 pt, also across the More page that lands at 400 ms, mid-pull; the SwipeRefreshLayout spinner travels 192 · 0.5 = 96 pt ≥ 64,
    /// its DEFAULT_CIRCLE_TARGET: a Refresh starts at the lift. With a threshold of 100 it does not.
    /// UIKit, for contrast: the rubber band shows (1 − 1/(190·0.55/600 + 1))·600 = 89.0 pt past the
    /// top ≥ 50 (a Refresh), and no edge effect.
    @Test func androidClampsThePullReportsTheEdgeEffectAndRefreshesPastSixtyFourDp() throws {
        let android = try Self.session(Self.trace(Self.pull), layout: LayoutConfiguration(kind: .grid), scroll: .android, threshold: 64).run()
        #expect(android.report.edgeEffectMaxPt == 192)
        #expect(android.report.pages.refresh == 1)
        let offsets = android.timelineCSV!.split(separator: "\n").dropFirst().map { Double($0.split(separator: ",")[2])! }
        #expect(offsets.allSatisfy { $0 >= 0 })
        let high = try Self.session(Self.trace(Self.pull), layout: LayoutConfiguration(kind: .grid), scroll: .android, threshold: 100).run()
        #expect(high.report.pages.refresh == 0)

        let uikit = try Self.session(Self.trace(Self.pull), layout: LayoutConfiguration(kind: .grid)).run()
        #expect(uikit.report.edgeEffectMaxPt == 0)
        #expect(uikit.report.pages.refresh == 1)
        let uikitOffsets = uikit.timelineCSV!.split(separator: "\n").dropFirst().map { Double($0.split(separator: ",")[2])! }
        #expect(abs(uikitOffsets.min()! - -89.0) < 0.05)
    }
}
