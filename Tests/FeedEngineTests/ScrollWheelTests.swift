import FeedEngine
import FeedLayout
import Testing

@Suite struct ScrollWheelTests {
    @Test func wheelDeltasMoveTheOffsetAndClampAtTheEdges() {
        var model = ScrollFixture.feed()
        model.wheel(delta: 120, t: 0)
        #expect(model.offset == 120)
        model.wheel(delta: -500, t: 16)
        // 120 − 500 = −380, clamped to the top: 0 (wheels do not rubber-band).
        #expect(model.offset == 0)
        model.wheel(delta: 10_000, t: 32)
        // maxOffset = 5000 − 800 = 4200.
        #expect(model.offset == 4200)
    }

    @Test func aWheelStopsAFling() {
        var model = ScrollFixture.feed(offset: 1000)
        ScrollFixture.drag(&model, fingerVelocity: -3000)
        model.touchUp(t: 72)
        model.wheel(delta: 40, t: 172)
        // At 172 ms the fling was at 1216 + 1497·(1 − 0.998^100) = 1487.605; + 40.
        #expect(abs(model.offset - 1527.605) < 1e-3)
        #expect(!model.isDecelerating)
    }

    @Test func aWheelDoesNothingOnContentThatFits() {
        var model = ScrollFixture.feed(contentHeight: 300)
        model.wheel(delta: 50, t: 0)
        #expect(model.offset == 0)
    }

    @Test func shrinkingContentAtRestClampsTheOffset() {
        var model = ScrollFixture.feed(offset: 4200)
        model.setContentSize(Size(width: 400, height: 3000))
        // New maxOffset = 3000 − 800 = 2200.
        #expect(model.offset == 2200)
        #expect(!model.isDecelerating)
    }
}
