import FeedEngine
import FeedLayout
import FeedModel
import Testing

@Suite struct ScrollPropertyTests {
    /// Random flicks (seeded): the path does not depend on the frame rate, the content never
    /// goes further past an edge than the viewport, and every motion comes to rest inside the edges.
    @Test(arguments: [ScrollModel.Configuration.uikit, .android])
    func randomFlicksAreFrameRateIndependentAndComeToRestInsideTheEdges(configuration: ScrollModel.Configuration) {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<60 {
            let contentHeight = 400 + rng.nextUnit() * 8000
            let maxOffset = max(0, contentHeight - 800)
            var model = ScrollFixture.feed(offset: rng.nextUnit() * maxOffset, contentHeight: contentHeight,
                                           configuration: configuration)
            let fingerVelocity = (rng.nextUnit() - 0.5) * 12_000
            ScrollFixture.drag(&model, from: 400, fingerVelocity: fingerVelocity)
            model.touchUp(t: 72)
            var at60 = model
            var at120 = model
            var frame = 0.0
            while (at60.isDecelerating || at120.isDecelerating) && frame < 600 {
                frame += 1
                let t = 72 + frame * 1000 / 60
                at60.step(to: t)
                at120.step(to: t - 500 / 60)
                at120.step(to: t)
                #expect(abs(at60.offset - at120.offset) < 1e-6, "frame \(frame): \(at60.offset) vs \(at120.offset)")
                #expect(at60.offset.isFinite)
                #expect(at60.offset > at60.minOffset - 800 && at60.offset < at60.maxOffset + 800)
            }
            #expect(!at60.isDecelerating, "a flick at \(fingerVelocity) pt/s did not end in 10 s")
            #expect(at60.offset >= at60.minOffset && at60.offset <= at60.maxOffset)
        }
    }
}
