import FeedEngine
import FeedLayout
import Testing

@Suite struct ScrollDragTests {
    @Test func offsetFollowsTheFingerInsideTheEdges() {
        var model = ScrollFixture.feed(offset: 1000)
        model.touchDown(at: Point(x: 200, y: 500), t: 0)
        #expect(model.isTracking && !model.isDragging)
        model.touchMove(to: Point(x: 200, y: 400), t: 16)
        // Finger up 100 pt → content offset 1000 + 100.
        #expect(model.offset == 1100)
        model.touchMove(to: Point(x: 210, y: 550), t: 32)
        // Finger 50 pt below where it started → 1000 − 50; x is not the scroll axis.
        #expect(model.offset == 950)
        #expect(model.contentOffset.x == 0)
        #expect(model.isDragging)
    }

    @Test func pullingPastTheTopRubberBandsWithUIKitsFormula() {
        var model = ScrollFixture.feed()
        model.touchDown(at: Point(x: 200, y: 100), t: 0)
        model.touchMove(to: Point(x: 200, y: 200), t: 16)
        // x = 100 pt past the top, d = 800, c = 0.55: (1 − 1/(100·0.55/800 + 1))·800
        //   = 800 · 0.06875 / 1.06875 = 51.4620 pt.
        #expect(abs(model.offset - -51.46198830409361) < 1e-9)
        #expect(abs(model.pullDistance - 51.46198830409361) < 1e-9)
        model.touchMove(to: Point(x: 200, y: 900), t: 32)
        // x = 800: (1 − 1/1.55)·800 = 283.8710 pt.
        #expect(abs(model.offset - -283.8709677419355) < 1e-9)
    }

    @Test func pushingPastTheBottomRubberBandsFromMaxOffset() {
        var model = ScrollFixture.feed(offset: 4200)
        model.touchDown(at: Point(x: 200, y: 700), t: 0)
        model.touchMove(to: Point(x: 200, y: 500), t: 16)
        // maxOffset = 5000 − 800 = 4200; x = 200: (1 − 1/(200·0.55/800 + 1))·800 = 96.7033 pt.
        #expect(abs(model.offset - (4200 + 96.70329670329672)) < 1e-9)
        #expect(abs(model.overscrollPastEnd - 96.70329670329672) < 1e-9)
        #expect(model.pullDistance == 0)
    }

    @Test func aDragThatCrossesTheEdgeIsOneToOneUntilTheEdge() {
        var model = ScrollFixture.feed(offset: 30)
        model.touchDown(at: Point(x: 200, y: 100), t: 0)
        model.touchMove(to: Point(x: 200, y: 230), t: 16)
        // 130 pt down: 30 pt to the edge one to one, then x = 100 rubber-banded → −51.4620.
        #expect(abs(model.offset - -51.46198830409361) < 1e-9)
    }

    @Test func shortContentDoesNotMoveUnlessAlwaysBounceIsOn() {
        var fixed = ScrollFixture.feed(contentHeight: 300)
        fixed.touchDown(at: Point(x: 200, y: 100), t: 0)
        fixed.touchMove(to: Point(x: 200, y: 200), t: 16)
        #expect(fixed.offset == 0)
        #expect(!fixed.isScrollable)

        var config = ScrollFixture.uikitWithoutSlop
        config.alwaysBounce = true
        var bouncy = ScrollFixture.feed(contentHeight: 300, configuration: config)
        bouncy.touchDown(at: Point(x: 200, y: 100), t: 0)
        bouncy.touchMove(to: Point(x: 200, y: 200), t: 16)
        // Both edges are at 0 (maxOffset = max(0, 300 − 800)); the pull is the 100 pt rubber band.
        #expect(abs(bouncy.pullDistance - 51.46198830409361) < 1e-9)
    }

    @Test func touchSlopDelaysTheDragWithoutAJump() {
        var config = ScrollFixture.uikitWithoutSlop
        config.touchSlop = 8
        var model = ScrollFixture.feed(offset: 1000, configuration: config)
        model.touchDown(at: Point(x: 200, y: 500), t: 0)
        model.touchMove(to: Point(x: 200, y: 495), t: 8)
        #expect(model.offset == 1000)
        #expect(!model.isDragging)
        model.touchMove(to: Point(x: 200, y: 480), t: 16)
        // 20 pt moved, the first 8 pt were slop → 1000 + 12.
        #expect(model.offset == 1012)
        #expect(model.isDragging)
    }

    @Test func horizontalAxisScrollsAlongX() {
        var config = ScrollFixture.uikitWithoutSlop
        config.axis = .horizontal
        var strip = ScrollModel(viewport: Size(width: 400, height: 200), contentSize: Size(width: 3000, height: 200),
                                configuration: config)
        strip.touchDown(at: Point(x: 300, y: 100), t: 0)
        strip.touchMove(to: Point(x: 100, y: 150), t: 16)
        #expect(strip.contentOffset == Point(x: 200, y: 0))
        // maxOffset = 3000 − 400 = 2600.
        #expect(strip.maxOffset == 2600)
    }

    @Test func touchingAFlingStopsItWhereItIs() {
        var model = ScrollFixture.feed(offset: 1000)
        ScrollFixture.drag(&model, fingerVelocity: -3000)
        model.touchUp(t: 72)
        model.step(to: 172)
        // 100 ms of decay from 1216 at 3000 pt/s: 1497 · (1 − 0.998^100) = 1497 · 0.181433 = 271.605 pt.
        let expected = 1216 + 1497 * (1 - 0.818566)
        #expect(abs(model.offset - expected) < 0.01)
        model.touchDown(at: Point(x: 200, y: 300), t: 172)
        #expect(!model.isDecelerating)
        model.step(to: 500)
        #expect(abs(model.offset - expected) < 0.01)
        model.touchUp(t: 600)  // no movement: no fling
        #expect(!model.isDecelerating)
        #expect(abs(model.offset - expected) < 0.01)
    }

    @Test func anchoringDuringADragKeepsFollowingTheFinger() {
        var model = ScrollFixture.feed(offset: 1000)
        model.touchDown(at: Point(x: 200, y: 500), t: 0)
        model.touchMove(to: Point(x: 200, y: 400), t: 16)
        #expect(model.offset == 1100)
        // 300 pt inserted above the viewport: content grows, offset moves with it.
        model.setContentSize(Size(width: 400, height: 5300))
        model.adjustOffset(by: 300)
        #expect(model.offset == 1400)
        #expect(model.isDragging)
        model.touchMove(to: Point(x: 200, y: 350), t: 32)
        // The finger moved up 50 more → 1450.
        #expect(model.offset == 1450)
    }

    @Test func releasingAfterRestingDoesNotFling() {
        var model = ScrollFixture.feed(offset: 1000)
        ScrollFixture.drag(&model, fingerVelocity: -3000)
        // Last sample at 72 ms; lifted 50 ms later (> 40 ms): the finger had stopped.
        let release = model.touchUp(t: 122)
        #expect(release.velocity == .zero)
        #expect(!model.isDecelerating)
    }

    @Test func setOffsetTakesRecordedOffsetsAsGiven() {
        var model = ScrollFixture.feed()
        model.setOffset(Point(x: 0, y: -20), t: 10)
        #expect(model.offset == -20)
        #expect(model.pullDistance == 20)
        model.step(to: 1000)
        #expect(model.offset == -20)
    }
}
