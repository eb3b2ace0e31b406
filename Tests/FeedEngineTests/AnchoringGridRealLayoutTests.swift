import FeedEngine
import FeedLayout
import FeedModel
import Testing

/// Scroll anchoring on the real ``GridLayout``: 3 columns of 100 × 100 pt items 10 pt apart
/// (x = 0, 110, 220), rows 20 pt apart under a 30 pt header, in a 320 × 800 pt viewport. Item i is
/// in row ⌊i / 3⌋, which spans 30 + 120r ..< 130 + 120r.
@Suite struct AnchoringGridRealLayoutTests {
    static let viewport = Size(width: 320, height: 800)
    static let configuration = LayoutConfiguration(
        kind: .grid, columns: 3, itemSize: Size(width: 100, height: 100), spacing: 10, lineSpacing: 20,
        headerHeight: 30)

    static func layout(_ count: Int) throws -> any CollectionLayout {
        let layout = try configuration.makeLayout()
        try layout.prepare(sizes: Array(repeating: Size(width: 100, height: 100), count: count), viewport: viewport)
        return layout
    }

    /// 0: row 0 (30 ..< 130) whole → item 0. 100: row 0 cut, row 1 (150 ..< 250) whole → item 3.
    /// 1000: row 8 (990 ..< 1090) cut, row 9 (1110 ..< 1210) whole → item 27.
    @Test(arguments: [(0.0, 0), (100, 3), (1000, 27)])
    func anchorIsTheFirstItemOfTheFirstFullyVisibleRow(offset: Double, anchor: Int) throws {
        let layout = try Self.layout(60)
        let found = ScrollAnchoring.anchorIndex(
            in: layout, contentOffset: Point(x: 0, y: offset), viewport: Self.viewport, among: 0..<60)
        #expect(found == anchor)
    }

    /// At 1000 the anchor is item 27 (row 9). After n items above it, it is item 27 + n in row
    /// ⌊(27 + n) / 3⌋: the offset moves 120 pt per row gained. A part-row keeps the anchor's row
    /// (and y) but moves it across: n = 1 → column 1, n = 2 → column 2.
    @Test(arguments: [(1, 0.0), (2, 0), (3, 120), (4, 120), (6, 240)])
    func prependBelowTheTopMovesTheOffsetByTheRowsTheAnchorMoved(count: Int, adjustment: Double) throws {
        let layout = try Self.layout(60)
        let added = (0..<count).map { controllerTestItem(Int64(1000 - $0)) }
        let outcome = try ScrollAnchoring.apply(
            .prepend(added), to: layout, contentOffset: Point(x: 0, y: 1000), viewport: Self.viewport)
        #expect(outcome.rule == .anchored)
        #expect(outcome.anchorIndexAfter == 27 + count)
        #expect(outcome.adjustment == adjustment)
        let after = try #require(layout.attributesForItem(at: 27 + count))
        #expect(after.frame.minY - outcome.contentOffset.y == 110)  // 1110 − 1000, as before
        #expect(after.frame.minX == Double(count % 3) * 110)
    }

    /// Offset ≤ 0, or row 0 (30 ..< 130) still in the viewport (at 40 and at 129).
    @Test(arguments: [0.0, -60, 40, 129])
    func prependAtTheVeryTopShowsTheNewItems(offset: Double) throws {
        let layout = try Self.layout(60)
        let outcome = try ScrollAnchoring.apply(
            .prepend([controllerTestItem(1000)]), to: layout, contentOffset: Point(x: 0, y: offset),
            viewport: Self.viewport)
        #expect(outcome.rule == .atTop)
        #expect(outcome.adjustment == 0)
    }

    @Test func prependJustBelowTheFirstRowIsAnchored() throws {
        let layout = try Self.layout(60)
        // At 130 row 0 has just left; anchor item 3 (row 1); 3 items above make it item 6 (row 2): +120.
        let outcome = try ScrollAnchoring.apply(
            .prepend(controllerTestItems(1002, through: 1000)), to: layout, contentOffset: Point(x: 0, y: 130),
            viewport: Self.viewport)
        #expect(outcome.rule == .anchored)
        #expect(outcome.adjustment == 120)
    }

    @Test func aPrependLoadAtTheVeryTopIsAnchored() throws {
        let layout = try Self.layout(60)
        // Offset 0: anchor item 0 (row 0); 3 restored items make it item 3 (row 1): +120.
        let outcome = try ScrollAnchoring.apply(
            .prepend(controllerTestItems(1002, through: 1000)), to: layout, contentOffset: .zero,
            viewport: Self.viewport, load: .prepend)
        #expect(outcome.rule == .anchored)
        #expect(outcome.adjustment == 120)
    }

    /// At 1500: row 12 (1470 ..< 1570) cut, row 13 (1590 ..< 1690) whole: anchor item 39. Dropping n
    /// makes it item 39 − n, in row ⌊(39 − n) / 3⌋ at 30 + 120 · that row.
    @Test(arguments: [(3, -120.0), (4, -240), (6, -240)])
    func droppingFromTheTopMovesTheOffsetUpByTheRowsTheAnchorMoved(count: Int, adjustment: Double) throws {
        let layout = try Self.layout(60)
        let outcome = try ScrollAnchoring.apply(
            .dropFirst(count), to: layout, contentOffset: Point(x: 0, y: 1500), viewport: Self.viewport)
        #expect(outcome.anchorIndexBefore == 39)
        #expect(outcome.anchorIndexAfter == 39 - count)
        #expect(outcome.adjustment == adjustment)
    }

    @Test func appendingAndDroppingBelowLeaveTheOffset() throws {
        let layout = try Self.layout(60)
        let appended = try ScrollAnchoring.apply(
            .append(controllerTestItems(5, through: 1)), to: layout, contentOffset: Point(x: 0, y: 500),
            viewport: Self.viewport)
        #expect(appended.adjustment == 0)
        let dropped = try ScrollAnchoring.apply(
            .dropLast(20), to: layout, contentOffset: Point(x: 0, y: 500), viewport: Self.viewport)
        #expect(dropped.adjustment == 0)
        #expect(layout.itemCount == 45)
    }

    @Test func replacingGoesBackToTheTopButKeepsAPull() throws {
        let layout = try Self.layout(60)
        let scrolled = try ScrollAnchoring.apply(
            .replace(controllerTestItems(3, through: 1)), to: layout, contentOffset: Point(x: 0, y: 900),
            viewport: Self.viewport)
        #expect(scrolled.rule == .reset)
        #expect(scrolled.contentOffset == .zero)
        #expect(layout.itemCount == 3)
        let pulled = try ScrollAnchoring.apply(
            .replace([controllerTestItem(9)]), to: layout, contentOffset: Point(x: 0, y: -45), viewport: Self.viewport)
        #expect(pulled.contentOffset == Point(x: 0, y: -45))
    }

    @Test func viewportFromAGridListsTheVisibleItems() throws {
        let layout = try Self.layout(30)
        // 250 ..< 1050: row 1 ends at 250 (not visible); rows 2 (270) to 8 (990 ..< 1090): items 6–26.
        let viewport = FeedController.Viewport(layout: layout, contentOffset: Point(x: 0, y: 250))
        // Content: 30 + 10 rows × 100 + 9 × 20 = 1210; to the end: 1210 − 1050 = 160.
        #expect(
            viewport
                == .init(
                    contentOffset: 250, viewportLength: 800, contentLength: 1210, firstVisibleIndex: 6,
                    lastVisibleIndex: 26))
        #expect(viewport.distanceToEnd == 160)
    }
}
