import FeedEngine
import FeedLayout
import Testing

/// Shared helpers for the scroll model tests (named to match the Scroll*Tests.swift files).
enum ScrollFixture {
    /// UIKit's physics with the drag starting at touch-down: these fixtures measure what follows
    /// a drag (rubber band, deceleration, bounce) from the finger's own travel. UIKit's 10 pt pan
    /// slop is tested on its own in `ScrollDragTests`.
    static let uikitWithoutSlop: ScrollModel.Configuration = {
        var configuration = ScrollModel.Configuration.uikit
        configuration.touchSlop = 0
        return configuration
    }()

    /// A 400 × 800 pt viewport over 400 × 5000 pt of content (maxOffset = 5000 − 800 = 4200).
    static func feed(
        offset: Double = 0, contentHeight: Double = 5000, configuration: ScrollModel.Configuration = uikitWithoutSlop
    ) -> ScrollModel {
        ScrollModel(viewport: Size(width: 400, height: 800), contentSize: Size(width: 400, height: contentHeight),
                    contentOffset: Point(x: 0, y: offset), configuration: configuration)
    }

    /// Drags with the finger moving at a constant `fingerVelocity` (points per second, y axis)
    /// from y = `from`: 10 samples 8 ms apart (t = t0 … t0 + 72 ms), so the finger travels
    /// `fingerVelocity · 0.072` points. A least-squares tracker recovers the velocity exactly
    /// (the samples lie on a line). Does not lift the finger.
    static func drag(_ model: inout ScrollModel, from: Double = 700, fingerVelocity: Double, t0: Double = 0) {
        model.touchDown(at: Point(x: 200, y: from), t: t0)
        for i in 1...9 {
            let t = t0 + Double(i) * 8
            model.touchMove(to: Point(x: 200, y: from + fingerVelocity * (t - t0) / 1000), t: t)
        }
    }

    /// Steps at `hz` frames per second until the model is idle; returns the offsets after each frame.
    @discardableResult
    static func runToRest(_ model: inout ScrollModel, hz: Double = 60, limit: Double = 20_000) -> [Double] {
        var offsets: [Double] = []
        var frame = 1.0
        let start = model.now
        while model.isDecelerating && frame * 1000 / hz < limit {
            model.step(to: start + frame * 1000 / hz)
            offsets.append(model.offset)
            frame += 1
        }
        return offsets
    }
}

@Suite struct ScrollFixtureTests {
    @Test func aLinearDragGivesTheFingerVelocityToTheContent() {
        var model = ScrollFixture.feed(offset: 1000)
        ScrollFixture.drag(&model, fingerVelocity: -3000)
        // The finger moved up 3 pt/ms × 72 ms = 216 pt, so the content moved 216 pt down the feed.
        #expect(abs(model.offset - 1216) < 1e-9)
        #expect(abs(model.velocity.y - 3000) < 1e-6)
        #expect(model.isDragging)
    }
}
