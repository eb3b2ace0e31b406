import FeedEngine
import FeedLayout
import Testing

/// Touch slop and what happens at the edges, per platform preset, against the platforms' sources.
@Suite struct ScrollPlatformTests {
    /// UIKit's pan starts after 10 pt (the figure `ScrollModel.Configuration.touchSlop` documents:
    /// Apple publishes none; 10 pt is the measured `UIPanGestureRecognizer` hysteresis). 9 pt of
    /// travel is still a possible tap; at 20 pt the drag has started and the content has moved
    /// 20 − 10 = 10 pt (no jump by the slop).
    @Test func uikitsPanStartsAfterTenPoints() {
        var model = ScrollFixture.feed(offset: 1000, configuration: .uikit)
        #expect(ScrollModel.Configuration.uikit.touchSlop == 10)
        model.touchDown(at: Point(x: 200, y: 500), t: 0)
        model.touchMove(to: Point(x: 200, y: 491), t: 8)
        #expect(!model.isDragging && model.offset == 1000)
        model.touchMove(to: Point(x: 200, y: 480), t: 16)
        #expect(model.isDragging && model.offset == 1010)
    }

    /// Android: `ViewConfiguration.getScaledTouchSlop()` = `TOUCH_SLOP` (8 dp, AOSP
    /// frameworks/base core/java/android/view/ViewConfiguration.java) × density; FeedSim's points
    /// are dp. 7 pt: no drag; 20 pt: dragging, moved 20 − 8 = 12.
    @Test func androidsDragStartsAfterTheScaledTouchSlopOf8dp() {
        var model = ScrollFixture.feed(offset: 1000, configuration: .android)
        #expect(ScrollModel.Configuration.android.touchSlop == 8)
        model.touchDown(at: Point(x: 200, y: 500), t: 0)
        model.touchMove(to: Point(x: 200, y: 493), t: 8)
        #expect(!model.isDragging && model.offset == 1000)
        model.touchMove(to: Point(x: 200, y: 480), t: 16)
        #expect(model.isDragging && model.offset == 1012)
    }

    /// Android clamps at the edge and feeds the pull to the EdgeEffect (EdgeEffect.java
    /// `onPullDistance`: the distance is the running sum of the pulls, never below 0; a pull back
    /// toward the content is consumed by the effect first). A 300 pt pull from the top: the drag
    /// starts at 8 pt, so the effect holds 300 − 8 = 292 pt while the offset stays 0 (UIKit would
    /// show the rubber band: (1 − 1/(290·0.55/800 + 1))·800 = 132.99 pt past the top). The
    /// SwipeRefreshLayout spinner moves 292 × DRAG_RATE 0.5 = 146 pt: that is the pull distance.
    /// Moving the finger back 100 pt leaves 192 pt of effect and the offset at 0; moving it to
    /// y = 50 uses up the effect and scrolls: offset = 108 − 50 = 58.
    @Test func androidClampsAtTheTopAndReportsTheEdgeEffectDistance() {
        var model = ScrollFixture.feed(offset: 0, configuration: .android)
        model.touchDown(at: Point(x: 200, y: 100), t: 0)
        for k in 1...10 {
            model.touchMove(to: Point(x: 200, y: 100 + Double(k) * 30), t: Double(k) * 8)
            #expect(model.offset == 0, "offset within bounds at step \(k)")
        }
        #expect(model.edgeEffectDistance == 292)
        #expect(model.pullDistance == 146)
        model.touchMove(to: Point(x: 200, y: 300), t: 96)
        #expect(model.edgeEffectDistance == 192 && model.offset == 0)
        model.touchMove(to: Point(x: 200, y: 50), t: 120)
        #expect(model.edgeEffectDistance == 0 && model.offset == 58)

        var uikit = ScrollFixture.feed(offset: 0, configuration: .uikit)
        uikit.touchDown(at: Point(x: 200, y: 100), t: 0)
        uikit.touchMove(to: Point(x: 200, y: 400), t: 80)
        #expect(abs(uikit.offset - -132.99) < 0.01)
        #expect(uikit.edgeEffectDistance == 0)
    }

    /// A release at the top after the 300 pt pull: the release reports the 292 pt edge effect
    /// and a 146 pt pull, and the content stays at the edge (nothing to spring back from).
    @Test func androidReleaseReportsTheEdgeEffectAndStaysAtTheEdge() {
        var model = ScrollFixture.feed(offset: 0, configuration: .android)
        model.touchDown(at: Point(x: 200, y: 100), t: 0)
        model.touchMove(to: Point(x: 200, y: 400), t: 80)
        model.touchMove(to: Point(x: 200, y: 400), t: 200)
        let release = model.touchUp(t: 210)
        #expect(release.edgeEffectDistance == 292)
        #expect(release.pullDistance == 146)
        model.step(to: 1000)
        #expect(model.offset == 0 && !model.isDecelerating)
    }

    /// A fling into the bottom: OverScroller stops at the scroll range's end (`fling` with the
    /// range as bounds), so every frame lies within [0, maxOffset = 4200] and it ends on 4200.
    @Test func androidFlingStopsAtTheBottomEdge() {
        var model = ScrollFixture.feed(offset: 4000, configuration: .android)
        ScrollFixture.drag(&model, from: 700, fingerVelocity: -3000)
        model.touchUp(t: 72)
        let offsets = ScrollFixture.runToRest(&model, hz: 60)
        #expect(offsets.allSatisfy { $0 >= 0 && $0 <= 4200 })
        #expect(model.offset == 4200)
    }
}
