import FeedEngine
import FeedLayout
import FeedModel
import Foundation
import Testing

@Suite struct VelocityTrackerTests {
    func track(_ configuration: VelocityTracker.Configuration, _ samples: [(t: Double, y: Double)]) -> VelocityTracker {
        var tracker = VelocityTracker(configuration)
        for sample in samples { tracker.addSample(Point(x: 0, y: sample.y), t: sample.t) }
        return tracker
    }

    @Test func leastSquaresRecoversTheSlopeOfAQuadraticAtTheNewestSample() {
        // y = 2 + 3t + 0.01t² (t in ms) → dy/dt at t = 80 is 3 + 0.02·80 = 4.6 pt/ms = 4600 pt/s.
        let samples = stride(from: 0.0, through: 80, by: 8).map { (t: $0, y: 2 + 3 * $0 + 0.01 * $0 * $0) }
        let v = track(.androidLSQ2, samples).velocity()
        #expect(abs(v.y - 4600) < 1e-6)
        #expect(v.x == 0)
    }

    @Test func impulseOfTwoSamplesIsTheirSlope() {
        // 30 pt in 10 ms = 3000 pt/s.
        #expect(abs(track(.androidImpulse, [(0, 0), (10, 30)]).velocity().y - 3000) < 1e-9)
    }

    @Test func impulseOfThreeSamplesMatchesHandComputedWork() {
        // Segments: 10 pt / 10 ms = 1000 pt/s, then 20 pt / 10 ms = 2000 pt/s.
        // W = ½·1000·|1000| = 500 000; v_prev = √(2W) = 1000; W += (2000 − 1000)·2000 → 2 500 000;
        // v = √(2·2 500 000) = 2236.068 pt/s.
        let v = track(.androidImpulse, [(0, 0), (10, 10), (20, 30)]).velocity()
        #expect(abs(v.y - 5_000_000.0.squareRoot()) < 1e-6)
    }

    @Test func samplesOlderThanTheHorizonAreDropped() {
        // Moving at 1 pt/ms until 100 ms, then 5 pt/ms. Samples every 10 ms up to 300 ms: at the
        // end only 200…300 ms remain (age ≤ 100), all on the fast line → exactly 5000 pt/s.
        var samples: [(t: Double, y: Double)] = []
        for t in stride(from: 0.0, through: 300, by: 10) {
            samples.append((t, t <= 100 ? t : 100 + 5 * (t - 100)))
        }
        let tracker = track(.androidLSQ2, samples)
        #expect(tracker.samples.count == 11)
        #expect(abs(tracker.velocity().y - 5000) < 1e-6)
    }

    @Test func historyKeepsAtMostTwentySamples() {
        let samples = (0..<50).map { (t: Double($0), y: Double($0)) }
        #expect(track(.androidLSQ2, samples).samples.count == 20)
    }

    @Test func aGapLongerThanFortyMillisecondsForgetsTheOlderSamples() {
        // Fast movement, a 41 ms pause, then one slow step: only 2 samples after the gap.
        let tracker = track(.androidLSQ2, [(0, 0), (8, 40), (16, 80), (57, 81), (65, 82)])
        #expect(tracker.samples.count == 2)
        // 1 pt in 8 ms = 125 pt/s.
        #expect(abs(tracker.velocity().y - 125) < 1e-9)
    }

    @Test func liftingLongAfterTheLastSampleReportsZero() {
        let tracker = track(.androidLSQ2, [(0, 0), (8, 40), (16, 80)])
        #expect(abs(tracker.velocity(atLiftOff: 56).y - 5000) < 1e-6)  // 40 ms: still moving
        #expect(tracker.velocity(atLiftOff: 57) == .zero)  // 41 ms: it had stopped
    }

    @Test func flutterNeedsThreeSamplesAndAndroidTwo() {
        let two: [(t: Double, y: Double)] = [(0, 0), (8, 8)]
        #expect(track(.flutter, two).velocity() == .zero)
        // Android reduces the degree to n − 1 = 1: the slope, 1 pt/ms.
        #expect(abs(track(.androidLSQ2, two).velocity().y - 1000) < 1e-9)
    }

    @Test func aSampleWithTheSameTimeReplacesTheNewest() {
        let tracker = track(.androidLSQ2, [(0, 0), (8, 8), (8, 16)])
        #expect(tracker.samples.count == 2)
        #expect(abs(tracker.velocity().y - 2000) < 1e-9)
    }

    @Test func leastSquaresMatchesABruteForceNormalEquationsOracleOnRandomDrags() {
        var rng = SplitMix64(seed: 42)
        for _ in 0..<200 {
            var t = 0.0
            var y = 0.0
            var samples: [(t: Double, y: Double)] = []
            for _ in 0..<(3 + Int(rng.nextUnit() * 10)) {
                t += 4 + (rng.nextUnit() * 8).rounded()
                y += (rng.nextUnit() - 0.5) * 60
                samples.append((t, y))
            }
            let measured = track(.androidLSQ2, samples).velocity().y
            let oracle = normalEquationsSlope(samples.filter { samples.last!.t - $0.t <= 100 })
            #expect(abs(measured - oracle) <= 1e-6 * max(1, abs(oracle)))
        }
    }

    /// Oracle: quadratic fit by the 3×3 normal equations (Cramer's rule), time in seconds
    /// relative to the newest sample; returns the linear coefficient.
    func normalEquationsSlope(_ samples: [(t: Double, y: Double)]) -> Double {
        let newest = samples.last!.t
        var s = [Double](repeating: 0, count: 5)
        var b = [Double](repeating: 0, count: 3)
        for sample in samples {
            let x = (sample.t - newest) / 1000
            for k in 0..<5 { s[k] += pow(x, Double(k)) }
            for k in 0..<3 { b[k] += sample.y * pow(x, Double(k)) }
        }
        func det(_ m: [[Double]]) -> Double {
            m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
        }
        let a = [[s[0], s[1], s[2]], [s[1], s[2], s[3]], [s[2], s[3], s[4]]]
        var a1 = a
        for r in 0..<3 { a1[r][1] = b[r] }
        return det(a1) / det(a)
    }
}
