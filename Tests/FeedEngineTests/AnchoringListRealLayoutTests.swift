import FeedEngine
import FeedLayout
import FeedModel
import Testing

/// Scroll anchoring on the real ``ListLayout``: a 40 pt header, 10 pt top and bottom insets, 8 pt
/// between rows, rows of 100 pt in a 320 × 800 pt viewport. Row i spans 50 + 108i ..< 150 + 108i.
@Suite struct AnchoringListRealLayoutTests {
    static let viewport = Size(width: 320, height: 800)

    static func layout(_ count: Int, configuration: LayoutConfiguration = .storeTestList) throws
        -> any CollectionLayout
    {
        let layout = try configuration.makeLayout()
        try layout.prepare(sizes: Array(repeating: Size(width: 320, height: 100), count: count), viewport: viewport)
        return layout
    }

    /// 0: row 0 (50 ..< 150) is whole. 150: row 0 ends at the edge (half-open: not visible), row 1
    /// (158 ..< 258) is whole. 200: row 1 is cut, row 2 (266 ..< 366) whole. 1000: row 8
    /// (914 ..< 1014) cut, row 9 (1022 ..< 1122) whole.
    @Test(arguments: [(0.0, 0), (150, 1), (200, 2), (1000, 9)])
    func anchorIsTheFirstFullyVisibleRow(offset: Double, anchor: Int) throws {
        let layout = try Self.layout(20)
        let found = ScrollAnchoring.anchorIndex(
            in: layout, contentOffset: Point(x: 0, y: offset), viewport: Self.viewport, among: 0..<20)
        #expect(found == anchor)
    }

    @Test func prependBelowTheTopMovesTheOffsetByTheInsertedRowsAndSpacing() throws {
        let layout = try Self.layout(20)
        let added = [controllerTestItem(100, height: 50), controllerTestItem(99, height: 70)]
        let outcome = try ScrollAnchoring.apply(
            .prepend(added), to: layout, contentOffset: Point(x: 0, y: 1000), viewport: Self.viewport)
        // Anchor row 9 at 1022. Above it now: 50 + 8 + 70 + 8 = 136 pt more, so it becomes row 11 at 1158.
        #expect(outcome.rule == .anchored)
        #expect(outcome.adjustment == 136)
        #expect(outcome.contentOffset == Point(x: 0, y: 1136))
        #expect(outcome.anchorIndexBefore == 9)
        #expect(outcome.anchorIndexAfter == 11)
        #expect(layout.attributesForItem(at: 11)?.frame.minY == 1158)
        #expect(layout.itemCount == 22)
    }

    /// Offset ≤ 0, or row 0 (50 ..< 150) still in the viewport (at 40 and at 149).
    @Test(arguments: [0.0, -60, 40, 149])
    func prependAtTheVeryTopShowsTheNewRows(offset: Double) throws {
        let layout = try Self.layout(20)
        let outcome = try ScrollAnchoring.apply(
            .prepend([controllerTestItem(100)]), to: layout, contentOffset: Point(x: 0, y: offset),
            viewport: Self.viewport)
        #expect(outcome.rule == .atTop)
        #expect(outcome.adjustment == 0)
    }

    @Test func prependJustBelowTheFirstRowIsAnchored() throws {
        let layout = try Self.layout(20)
        // At 150 row 0 has just left (150 ..< 950 does not meet 50 ..< 150): anchor row 1 at 158,
        // one 100 pt row + 8 pt spacing above it.
        let outcome = try ScrollAnchoring.apply(
            .prepend([controllerTestItem(100)]), to: layout, contentOffset: Point(x: 0, y: 150),
            viewport: Self.viewport)
        #expect(outcome.rule == .anchored)
        #expect(outcome.adjustment == 108)
    }

    /// A `.prepend` load (dropped pages coming back) keeps the anchor even at offset 0; a Refresh
    /// or gap-fill there shows the new rows.
    @Test(arguments: [
        (FeedController.LoadKind.prepend, ScrollAnchoring.Rule.anchored, 216.0), (.refresh, .atTop, 0),
        (.gapFill, .atTop, 0),
    ])
    func atTheVeryTopOnlyRefreshesShowTheNewRows(
        load: FeedController.LoadKind, rule: ScrollAnchoring.Rule, adjustment: Double
    ) throws {
        let layout = try Self.layout(20)
        // Anchor row 0 (50 ..< 150, whole at offset 0); two rows of 100 + 8 pt above it: 216.
        let outcome = try ScrollAnchoring.apply(
            .prepend([controllerTestItem(101), controllerTestItem(100)]), to: layout, contentOffset: .zero,
            viewport: Self.viewport, load: load)
        #expect(outcome.rule == rule)
        #expect(outcome.adjustment == adjustment)
    }

    @Test func droppingFromTheTopMovesTheOffsetUpByTheRemovedRowsAndSpacing() throws {
        let layout = try Self.layout(30)
        let outcome = try ScrollAnchoring.apply(
            .dropFirst(4), to: layout, contentOffset: Point(x: 0, y: 1500), viewport: Self.viewport)
        // 1500 ..< 2300: row 13 (1454 ..< 1554) cut, row 14 (1562) whole. It becomes row 10 at
        // 50 + 1080 = 1130: −432 = −4 × 108.
        #expect(outcome.anchorIndexBefore == 14)
        #expect(outcome.anchorIndexAfter == 10)
        #expect(outcome.adjustment == -432)
        #expect(outcome.contentOffset == Point(x: 0, y: 1068))
    }

    @Test func appendingAndDroppingBelowLeaveTheOffset() throws {
        let layout = try Self.layout(30)
        let appended = try ScrollAnchoring.apply(
            .append([controllerTestItem(1, height: 300)]), to: layout, contentOffset: Point(x: 0, y: 500),
            viewport: Self.viewport)
        #expect(appended.rule == .anchored)
        #expect(appended.adjustment == 0)
        let dropped = try ScrollAnchoring.apply(
            .dropLast(10), to: layout, contentOffset: Point(x: 0, y: 500), viewport: Self.viewport)
        #expect(dropped.adjustment == 0)
        #expect(layout.itemCount == 21)
        // 50 + 21 × 100 + 20 × 8 + 10 = 2320.
        #expect(layout.contentSize.height == 2320)
    }

    @Test func replacingGoesBackToTheTopButKeepsAPull() throws {
        let layout = try Self.layout(30)
        let scrolled = try ScrollAnchoring.apply(
            .replace([controllerTestItem(1)]), to: layout, contentOffset: Point(x: 0, y: 700), viewport: Self.viewport)
        #expect(scrolled.rule == .reset)
        #expect(scrolled.contentOffset == .zero)
        #expect(layout.itemCount == 1)
        let pulled = try ScrollAnchoring.apply(
            .replace([controllerTestItem(2)]), to: layout, contentOffset: Point(x: 0, y: -30), viewport: Self.viewport)
        #expect(pulled.contentOffset == Point(x: 0, y: -30))
    }

    @Test func anEmptyListHasNothingToAnchorEvenWithAHeader() throws {
        let layout = try Self.layout(0)
        let outcome = try ScrollAnchoring.apply(
            .append([controllerTestItem(1)]), to: layout, contentOffset: .zero, viewport: Self.viewport)
        #expect(outcome.rule == .empty)
        #expect(outcome.adjustment == 0)
    }

    @Test func prependWithEstimatedHeightsMovesByTheEstimatesNotTheIntrinsicHeights() throws {
        // Every row is 80 pt until measured; 8 pt spacing, no header: row i at 88i.
        let configuration = LayoutConfiguration(kind: .list, spacing: 8, estimatedHeight: 80)
        let layout = try Self.layout(20, configuration: configuration)
        let added = [controllerTestItem(100, height: 50), controllerTestItem(99, height: 70)]
        let outcome = try ScrollAnchoring.apply(
            .prepend(added), to: layout, contentOffset: Point(x: 0, y: 1000), viewport: Self.viewport)
        // 1000: row 11 (968 ..< 1048) cut, row 12 (1056) whole; two estimated rows above: 2 × 88.
        #expect(outcome.anchorIndexBefore == 12)
        #expect(outcome.adjustment == 176)
    }

    @Test func viewportFromAListListsTheVisibleRows() throws {
        let layout = try Self.layout(20)
        // 250 ..< 1050: row 1 (158 ..< 258) through row 9 (1022 ..< 1122); row 10 starts at 1130.
        let viewport = FeedController.Viewport(layout: layout, contentOffset: Point(x: 0, y: 250))
        // Content: 40 + 10 + 20 × 100 + 19 × 8 + 10 = 2212; to the end: 2212 − 1050 = 1162.
        #expect(
            viewport
                == .init(
                    contentOffset: 250, viewportLength: 800, contentLength: 2212, firstVisibleIndex: 1,
                    lastVisibleIndex: 9))
        #expect(viewport.distanceToEnd == 1162)
    }
}
