import FeedEngine
import FeedLayout
import Foundation
import Testing

/// A paging layout double: pages of `page` points; the target is the page boundary nearest the
/// proposed offset, clamped to `[0, maxOffset]`. Records what it was asked.
private final class PagingLayoutDouble: CollectionLayout {
    let page: Double
    let contentSize: Size
    let viewport: Size
    var asked: [(proposed: Point, velocity: Point)] = []

    init(page: Double, viewport: Size, contentSize: Size) {
        self.page = page
        self.viewport = viewport
        self.contentSize = contentSize
    }

    func targetContentOffset(forProposed proposed: Point, velocity: Point) -> Point {
        asked.append((proposed, velocity))
        let maxOffset = contentSize.height - viewport.height
        return Point(x: proposed.x, y: min(max((proposed.y / page).rounded() * page, 0), maxOffset))
    }

    func prepare(sizes: [Size], viewport: Size) throws {}
    func append(sizes: [Size]) {}
    func prepend(sizes: [Size]) {}
    func removeFirst(_ n: Int) {}
    func removeLast(_ n: Int) {}
    var itemCount: Int { 0 }
    func attributesForElements(in rect: Rect) -> [LayoutAttributes] { [] }
    func attributesForItem(at index: Int) -> LayoutAttributes? { nil }
    func attributesForSupplementaryView(ofKind kind: SupplementaryKind) -> LayoutAttributes? { nil }
    func shouldInvalidateLayout(forBoundsChange newBounds: Rect) -> Bool { false }
    func invalidateLayout(forBoundsChange newBounds: Rect) {}
    func setMeasuredSize(_ size: Size, forItemAt index: Int, contentOffset: Point) -> Double { 0 }
}

@Suite struct ScrollSnappingTests {
    @Test func uikitFlingDeceleratesOntoTheLayoutsTargetPage() {
        var model = ScrollFixture.feed()
        let layout = PagingLayoutDouble(page: 800, viewport: model.viewport, contentSize: model.contentSize)
        ScrollFixture.drag(&model, fingerVelocity: -3000)
        let release = model.touchUp(t: 72, layout: layout)
        // Released at 216 at 3000 pt/s: proposed 216 + 1497 = 1713 → nearest page 1600.
        #expect(layout.asked.count == 1)
        #expect(abs(layout.asked[0].proposed.y - 1713) < 1e-6)
        #expect(abs(layout.asked[0].velocity.y - 3000) < 1e-6)
        #expect(release.targetOffset.y == 1600)
        // The decay is re-aimed: v = (1600 − 216)·1000·0.002/0.998 = 2773.547 pt/s.
        model.step(to: 72 + 1000 / 60)
        let t = 1000.0 / 60
        let expected = 216 + (1600 - 216) * (1 - pow(0.998, t))
        #expect(abs(model.offset - expected) < 1e-6)
        #expect(abs(model.velocity.y - 2773.547094188377 * pow(0.998, t)) < 1e-6)
        let offsets = ScrollFixture.runToRest(&model)
        #expect(model.offset == 1600)
        #expect(offsets.allSatisfy { $0 <= 1600 })
    }

    @Test func androidFlingDeceleratesOntoTheLayoutsTargetPage() {
        var model = ScrollFixture.feed(configuration: .android)
        let layout = PagingLayoutDouble(page: 800, viewport: model.viewport, contentSize: model.contentSize)
        ScrollFixture.drag(&model, fingerVelocity: -4000)
        // Released at 280 (slop 8); spline distance 2156.95 → proposed 2436.95 → page 2400.
        let release = model.touchUp(t: 72, layout: layout)
        #expect(abs(layout.asked[0].proposed.y - 2436.952) < 1e-3)
        #expect(release.targetOffset.y == 2400)
        ScrollFixture.runToRest(&model)
        #expect(abs(model.offset - 2400) < 1e-9)
    }

    @Test func aSlowReleaseStillSnapsBackToTheNearestPage() {
        var model = ScrollFixture.feed(offset: 1600)
        let layout = PagingLayoutDouble(page: 800, viewport: model.viewport, contentSize: model.contentSize)
        model.touchDown(at: Point(x: 200, y: 500), t: 0)
        model.touchMove(to: Point(x: 200, y: 400), t: 16)
        // Offset 1700, held still, lifted 100 ms later: velocity 0, proposed 1700 → page 1600.
        let release = model.touchUp(t: 116, layout: layout)
        #expect(release.velocity == .zero)
        #expect(release.targetOffset.y == 1600)
        ScrollFixture.runToRest(&model)
        #expect(model.offset == 1600)
    }

    @Test func aTapDoesNotAskTheLayoutForATarget() {
        var model = ScrollFixture.feed(offset: 1700)
        let layout = PagingLayoutDouble(page: 800, viewport: model.viewport, contentSize: model.contentSize)
        model.touchDown(at: Point(x: 200, y: 500), t: 0)
        model.touchUp(t: 80, layout: layout)
        #expect(layout.asked.isEmpty)
        #expect(model.offset == 1700)
        #expect(!model.isDecelerating)
    }

    @Test func aClosureCanChooseTheTargetToo() {
        var model = ScrollFixture.feed()
        ScrollFixture.drag(&model, fingerVelocity: -3000)
        let release = model.touchUp(t: 72) { proposed, _ in Point(x: proposed.x, y: 1000) }
        #expect(release.targetOffset.y == 1000)
        ScrollFixture.runToRest(&model)
        #expect(model.offset == 1000)
    }

    @Test func anchoringDuringAFlingShiftsItsEndByTheSameAmount() {
        var model = ScrollFixture.feed(offset: 1000, contentHeight: 100_000)
        ScrollFixture.drag(&model, fingerVelocity: -3000)
        model.touchUp(t: 72)
        model.step(to: 172)
        model.setContentSize(Size(width: 400, height: 100_500))
        model.adjustOffset(by: 500)
        ScrollFixture.runToRest(&model)
        // 2713 without anchoring, + 500.
        #expect(abs(model.offset - 3213) < 1)
    }
}
