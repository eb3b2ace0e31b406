import FeedEngine
import FeedLayout
import Foundation
import Testing

@Suite struct ScrollDecelerationTests {
    @Test func uikitProjectionMatchesTheClosedForm() {
        // v/1000 · rate/(1 − rate): 3000 pt/s at 0.998 → 3 · 0.998 / 0.002 = 1497 pt.
        #expect(abs(DecelerationModel.uikitNormal.projection(velocity: 3000) - 1497) < 1e-9)
        // At 0.99 ('fast'): 3 · 0.99 / 0.01 = 297 pt; the sign follows the velocity.
        #expect(abs(DecelerationModel.uikitFast.projection(velocity: -3000) - -297) < 1e-9)
    }

    @Test func uikitClosedFormEqualsTheSumOfPerMillisecondSteps() {
        // Brute-force oracle: v ← v·0.998 then move v/1000, each ms, for 2000 ms.
        var v = 3000.0
        var travelled = 0.0
        for _ in 0..<2000 {
            v *= 0.998
            travelled += v / 1000
        }
        #expect(abs(UIKitDecay.distance(velocity: 3000, rate: 0.998, t: 2000) - travelled) < 1e-9)
        #expect(abs(UIKitDecay.velocity(initial: 3000, rate: 0.998, t: 2000) - v) < 1e-9)
    }

    @Test(arguments: [60.0, 120.0])
    func aFlingSteppedFrameByFrameEndsWithinOnePointOfTheProjection(hz: Double) {
        var model = ScrollFixture.feed(offset: 1000, contentHeight: 100_000)
        ScrollFixture.drag(&model, fingerVelocity: -3000)
        let release = model.touchUp(t: 72)
        #expect(abs(release.velocity.y - 3000) < 1e-6)
        // Released at 1000 + 216 = 1216; the closed form ends at 1216 + 1497 = 2713.
        #expect(abs(release.projectedOffset.y - 2713) < 1e-6)
        #expect(model.isDecelerating)
        let offsets = ScrollFixture.runToRest(&model, hz: hz)
        #expect(!model.isDecelerating)
        #expect(abs(model.offset - 2713) < 1)
        // Every frame lies on s(t) = 1497·(1 − 0.998^t) until the stop; the stop comes when the
        // rest of the way is under 0.5 pt: v < 0.5·1000·0.002/0.998 = 1.002 pt/s, at
        // t = ln(1.002/3000)/ln(0.998) = 3998.2 ms.
        for (i, offset) in offsets.dropLast().enumerated() {
            let t = Double(i + 1) * 1000 / hz
            #expect(abs(offset - (1216 + 1497 * (1 - pow(0.998, t)))) < 1e-6)
        }
        let duration = Double(offsets.count) * 1000 / hz
        #expect(duration >= 3998.18 && duration < 3998.18 + 1000 / hz)
    }

    @Test func fastDecelerationTravelsAFifthAsFar() {
        var config = ScrollFixture.uikitWithoutSlop
        config.deceleration = .uikitFast
        var model = ScrollFixture.feed(offset: 1000, contentHeight: 100_000, configuration: config)
        ScrollFixture.drag(&model, fingerVelocity: -3000)
        model.touchUp(t: 72)
        ScrollFixture.runToRest(&model)
        // 1216 + 297.
        #expect(abs(model.offset - 1513) < 1)
    }

    @Test func androidSplineDistanceAndDurationMatchHandComputation() {
        // PHYSICAL_COEF = 9.80665 · 39.37 · 160 · 0.84 = 51890.20; × friction 0.015 = 778.353.
        #expect(abs(SplineFling.physicalCoefficient(pixelsPerInch: 160) - 51890.2017312) < 1e-6)
        // v = 1000: l = ln(0.35·1000/778.353) = −0.799247; DECELERATION_RATE = ln 0.78/ln 0.9 = 2.358202;
        // duration = 1000·e^(l/1.358202) = 555.182 ms; distance = 778.353·e^(2.358202/1.358202·l) = 194.314 pt.
        let fling = SplineFling(velocity: 1000)
        #expect(abs(fling.duration - 555.1818) < 1e-3)
        #expect(abs(fling.distance - 194.3136) < 1e-3)
        #expect(abs(SplineFling(velocity: -1000).distance - -194.3136) < 1e-3)
        #expect(fling.displacement(at: 0) == 0)
        #expect(abs(fling.displacement(at: 555.1818) - 194.3136) < 1e-3)
        // The inverse lands on a requested distance exactly.
        #expect(abs(SplineFling.velocity(forDistance: 194.31362127989584, friction: 0.015, pixelsPerInch: 160) - 1000) < 1e-6)
    }

    @Test func androidSplineTableRisesFromZeroToOne() {
        let table = SplineFling.positionTable
        #expect(table.count == 101)
        #expect(table[0] == 0 && table[100] == 1)
        #expect(zip(table, table.dropFirst()).allSatisfy { $0 < $1 })
        // The curve starts steep: at 10 % of the time more than 10 % of the distance is covered
        // (its initial slope is 1/START_TENSION·… > 1, a decelerating curve).
        #expect(table[10] > 0.1)
    }

    @Test func androidFlingSteppedAt60HzEndsOnTheSplineDistance() {
        var model = ScrollFixture.feed(offset: 1000, contentHeight: 100_000, configuration: .android)
        ScrollFixture.drag(&model, fingerVelocity: -4000)
        // Android: slop 8 pt, so the content moved 4 · 72 − 8 = 280 pt.
        #expect(abs(model.offset - 1280) < 1e-9)
        let release = model.touchUp(t: 72)
        #expect(abs(release.velocity.y - 4000) < 1e-6)
        // v = 4000: l = ln(1400/778.353) = 0.587046; distance = 778.353·e^(1.736268·0.587046) = 2156.95 pt,
        // duration = 1000·e^(0.587046/1.358202) = 1540.68 ms.
        let frames = ScrollFixture.runToRest(&model)
        #expect(abs(model.offset - (1280 + 2156.952)) < 1e-3)
        #expect(frames.count == Int((1540.68 * 60 / 1000).rounded(.up)))
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $0 <= $1 })
    }

    @Test func androidCapsTheFlingVelocityAt8000() {
        var model = ScrollFixture.feed(offset: 1000, contentHeight: 1_000_000, configuration: .android)
        ScrollFixture.drag(&model, fingerVelocity: -20_000)
        let release = model.touchUp(t: 72)
        #expect(release.velocity.y == 8000)
    }
}
