import FeedEngine
import FeedLayout
import FeedModel
import Testing

/// Scroll anchoring on a stacked list of 100 pt items in a 320 × 800 pt viewport.
@Suite struct AnchoringTests {
    static let viewport = Size(width: 320, height: 800)

    static func layout(_ count: Int) throws -> ControllerStackLayout {
        let layout = ControllerStackLayout()
        try layout.prepare(sizes: Array(repeating: Size(width: 320, height: 100), count: count), viewport: viewport)
        return layout
    }

    @Test func anchorIsTheFirstFullyVisibleItem() throws {
        let layout = try Self.layout(20)
        // Offset 150: item 1 spans 100..<200 (cut), item 2 spans 200..<300 (whole).
        let anchor = ScrollAnchoring.anchorIndex(
            in: layout, contentOffset: Point(x: 0, y: 150), viewport: Self.viewport, among: 0..<20)
        #expect(anchor == 2)
    }

    @Test func prependBelowTheTopMovesTheOffsetByTheInsertedHeight() throws {
        let layout = try Self.layout(20)
        let added = [controllerTestItem(100, height: 50), controllerTestItem(99, height: 70)]
        let outcome = try ScrollAnchoring.apply(
            .prepend(added), to: layout, contentOffset: Point(x: 0, y: 1000), viewport: Self.viewport)
        // Anchor: item 10 at y 1000; after 50 + 70 pt above, at 1120: move down 120.
        #expect(outcome.rule == .anchored)
        #expect(outcome.adjustment == 120)
        #expect(outcome.contentOffset == Point(x: 0, y: 1120))
        #expect(outcome.anchorIndexBefore == 10)
        #expect(outcome.anchorIndexAfter == 12)
        #expect(layout.itemCount == 22)
    }

    @Test(arguments: [0.0, -60.0, 40.0])
    func prependAtTheVeryTopShowsTheNewItems(offset: Double) throws {
        let layout = try Self.layout(20)
        // Offset ≤ 0, or item 0 (0..<100) still in the viewport at 40.
        let outcome = try ScrollAnchoring.apply(
            .prepend([controllerTestItem(100)]), to: layout, contentOffset: Point(x: 0, y: offset),
            viewport: Self.viewport)
        #expect(outcome.rule == .atTop)
        #expect(outcome.adjustment == 0)
    }

    @Test func droppingFromTheTopMovesTheOffsetUpByTheRemovedHeight() throws {
        let layout = try Self.layout(30)
        let outcome = try ScrollAnchoring.apply(
            .dropFirst(4), to: layout, contentOffset: Point(x: 0, y: 1500), viewport: Self.viewport)
        // Anchor item 15 at 1500 becomes item 11 at 1100: −400 = −4 × 100.
        #expect(outcome.adjustment == -400)
        #expect(outcome.anchorIndexAfter == 11)
    }

    @Test func appendingAndDroppingBelowLeaveTheOffset() throws {
        let layout = try Self.layout(30)
        let appended = try ScrollAnchoring.apply(
            .append([controllerTestItem(1)]), to: layout, contentOffset: Point(x: 0, y: 500), viewport: Self.viewport)
        #expect(appended.adjustment == 0)
        #expect(appended.rule == .anchored)
        let dropped = try ScrollAnchoring.apply(
            .dropLast(10), to: layout, contentOffset: Point(x: 0, y: 500), viewport: Self.viewport)
        #expect(dropped.adjustment == 0)
        #expect(layout.itemCount == 21)
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

    @Test func emptyLayoutHasNothingToAnchor() throws {
        let layout = try Self.layout(0)
        let outcome = try ScrollAnchoring.apply(
            .append([controllerTestItem(1)]), to: layout, contentOffset: .zero, viewport: Self.viewport)
        #expect(outcome.rule == .empty)
        #expect(outcome.adjustment == 0)
    }
}

@Suite struct AnchoringViewportTests {
    @Test func viewportFromALayoutListsTheVisibleIndices() throws {
        let layout = try AnchoringTests.layout(20)
        // Offset 250 in an 800 pt viewport covers 250..<1050: items 2 (200..<300) through 10 (1000..<1100).
        let viewport = FeedController.Viewport(layout: layout, contentOffset: Point(x: 0, y: 250))
        #expect(
            viewport
                == .init(
                    contentOffset: 250, viewportLength: 800, contentLength: 2000, firstVisibleIndex: 2,
                    lastVisibleIndex: 10))
        // 2000 − (250 + 800) = 950 pt to the end.
        #expect(viewport.distanceToEnd == 950)
    }
}
