import FeedEngine
import FeedLayout
import Foundation
import Testing

@Suite struct ScrollBounceTests {
    /// Pulls 100 pt (finger) past the top, holds still, lifts 50 ms later (no velocity).
    func pulled(configuration: ScrollModel.Configuration = ScrollFixture.uikitWithoutSlop) -> ScrollModel {
        var model = ScrollFixture.feed(configuration: configuration)
        model.touchDown(at: Point(x: 200, y: 100), t: 0)
        model.touchMove(to: Point(x: 200, y: 200), t: 16)
        return model
    }

    @Test func releasedPullReportsItsDistanceAndSpringsBackToTheTop() {
        var model = pulled()
        let release = model.touchUp(t: 66)
        // Pull = rubber band of 100 pt = 51.4620 pt (≥ 50: enough for a Refresh).
        #expect(abs(release.pullDistance - 51.46198830409361) < 1e-9)
        #expect(release.velocity == .zero)
        #expect(release.targetOffset.y == 0)
        #expect(model.isBouncing && model.isDecelerating)
        model.step(to: 166)
        // Spring on the finger distance: ω = 2π/0.5 s = 12.566/s, x₀ = 100, v₀ = 0;
        // x(0.1 s) = 100·(1 + 1.2566)·e^(−1.2566) = 64.226; shown = (1 − 1/(64.226·0.55/800 + 1))·800 = 33.831.
        #expect(abs(model.offset - -33.83052389361998) < 1e-6)
        let offsets = ScrollFixture.runToRest(&model)
        #expect(model.offset == 0)
        #expect(!model.isDecelerating)
        // Critically damped from rest: never past the edge into the content, never away from it.
        #expect(offsets.allSatisfy { $0 <= 0 })
        #expect(zip(offsets, offsets.dropFirst()).allSatisfy { $0 <= $1 })
        // Settles when the finger distance is under 0.25 pt: (1 + ωτ)e^(−ωτ) = 0.0025 → ωτ ≈ 8.4, τ ≈ 0.67 s.
        #expect(offsets.count > 30 && offsets.count < 50)
    }

    @Test func aFlingIntoTheTopCrossesAtTheSolvedTimeThenBouncesBack() {
        var model = ScrollFixture.feed(offset: 316)
        ScrollFixture.drag(&model, fingerVelocity: 3000)  // finger down: content toward the top
        // 316 − 216 = 100 pt from the top, moving at −3000 pt/s.
        #expect(abs(model.offset - 100) < 1e-9)
        model.touchUp(t: 72)
        // It reaches the edge when 1497·(1 − 0.998^t) = 100: t = ln(1 − 100/1497)/ln 0.998 = 34.53 ms.
        model.step(to: 72 + 34.5)
        #expect(model.offset > 0 && !model.isBouncing)
        model.step(to: 72 + 34.6)
        #expect(model.offset < 0 && model.isBouncing)
        let offsets = ScrollFixture.runToRest(&model)
        let deepest = offsets.min() ?? 0
        // Speed at the edge 3000·0.998^34.53 = 2799.6 pt/s; in finger space ÷ 0.55 = 5090 pt/s;
        // a critically damped spring from 0 peaks at v/(ω·e) = 5090/(12.566·2.71828) = 149.0 pt,
        // shown as (1 − 1/(149.0·0.55/800 + 1))·800 = 74.3 pt (60 Hz frames sample it within 1 pt).
        #expect(abs(deepest - -74.34) < 1)
        #expect(model.offset == 0)
        #expect(!model.isDecelerating)
    }

    @Test func refreshInsetHoldsThePullAtFiftyPointsThenReleasesIt() {
        var model = pulled()
        model.touchMove(to: Point(x: 200, y: 300), t: 32)  // 200 pt of finger: 96.70 pt shown
        model.touchUp(t: 82)
        // The controller starts a Refresh: the refresh control's 50 pt inset appears.
        model.setContentInset(EdgeInsets(top: 50, left: 0, bottom: 0, right: 0))
        #expect(model.minOffset == -50)
        ScrollFixture.runToRest(&model)
        #expect(model.offset == -50)
        #expect(model.pullDistance == 0)
        // Refresh done: the inset goes, the content springs back to 0.
        model.setContentInset(.zero)
        #expect(model.isBouncing)
        ScrollFixture.runToRest(&model)
        #expect(model.offset == 0)
    }

    @Test func withoutBouncesAFlingStopsAtTheEdge() {
        var config = ScrollFixture.uikitWithoutSlop
        config.bounces = false
        var model = ScrollFixture.feed(offset: 316, configuration: config)
        ScrollFixture.drag(&model, fingerVelocity: 3000)
        model.touchUp(t: 72)
        let offsets = ScrollFixture.runToRest(&model)
        #expect(offsets.allSatisfy { $0 >= 0 })
        #expect(model.offset == 0)
    }

    @Test func catchingABounceDoesNotJump() {
        var model = pulled()
        model.touchUp(t: 66)
        model.step(to: 166)
        let caught = model.offset
        model.touchDown(at: Point(x: 200, y: 400), t: 166)
        #expect(model.offset == caught)
        model.touchMove(to: Point(x: 200, y: 400), t: 182)
        #expect(abs(model.offset - caught) < 1e-9)
        // 10 pt further down: finger distance 64.226 + 10 = 74.226 → (1 − 1/(74.226·0.55/800 + 1))·800 = 38.842.
        model.touchMove(to: Point(x: 200, y: 410), t: 198)
        #expect(abs(model.offset - -38.8422) < 1e-3)
    }
}
