import Foundation
import Testing

@testable import FeedLoad

/// The ramp as pure functions of time, against values computed by hand from k6's rules:
/// `ramping-vus` (`getRawExecutionSteps`: from a to b over d, the k-th session of the change
/// starts, or stops, at `k·d/|b − a|` into the stage) and `ramping-arrival-rate` (`cal`: the n-th
/// iteration when the area under the rate curve reaches n).
@Suite struct LoadStagesTests {
    /// `10s:10,10s:10,10s:0`: up 0→10 over 10 s, hold, down 10→0 over 10 s.
    let upHoldDown = LoadStages([
        LoadStage(durationSeconds: 10, target: 10), LoadStage(durationSeconds: 10, target: 10),
        LoadStage(durationSeconds: 10, target: 0),
    ])

    @Test(arguments: [
        // Up: one more session every 10 s / 10 = 1 s, the k-th at k s.
        (0.0, 0), (0.999, 0), (1.0, 1), (2.5, 2), (9.99, 9), (10.0, 10),
        // Hold.
        (15.0, 10), (19.999, 10),
        // Down: one fewer every second, 9 at 21 s (k6 stops the k-th at k·d/|b − a| into the stage).
        (20.0, 10), (20.5, 10), (21.0, 9), (25.25, 5), (29.9, 1), (30.0, 0), (45.0, 0),
    ])
    func sessionsFollowK6sRampingVUsSteps(t: Double, sessions: Int) {
        #expect(upHoldDown.sessions(atSeconds: t) == sessions, "t = \(t)")
    }

    @Test func theExactTargetIsLinearWithinEachStage() {
        #expect(upHoldDown.target(atSeconds: 2.5) == 2.5)
        #expect(upHoldDown.target(atSeconds: 12) == 10)
        #expect(upHoldDown.target(atSeconds: 27.5) == 2.5)
        #expect(upHoldDown.totalSeconds == 30)
        #expect(upHoldDown.peak == 10)
        // 30s:10,1m:50: at 60 s, halfway through the second stage: 10 + (50 − 10) / 2 = 30.
        let ramp = LoadStages([LoadStage(durationSeconds: 30, target: 10), LoadStage(durationSeconds: 60, target: 50)])
        #expect(ramp.target(atSeconds: 60) == 30)
        #expect(ramp.sessions(atSeconds: 60) == 30)
        // 30 s into 40 more over 60 s: 10 + floor(40 × 29.9 / 60) = 10 + 19 = 29 at 59.9 s.
        #expect(ramp.sessions(atSeconds: 59.9) == 29)
    }

    @Test func aStageOfZeroSecondsJumpsToItsTarget() {
        let jump = LoadStages([LoadStage(durationSeconds: 0, target: 5), LoadStage(durationSeconds: 10, target: 5)])
        #expect(jump.sessions(atSeconds: 0) == 5)
        #expect(jump.sessions(atSeconds: 9.9) == 5)
        #expect(jump.stageIndex(atSeconds: 0) == 1, "a 0-s stage is never the one running")
        #expect(jump.arrivalTime(1) == 0.2, "5/s from the start: the first arrival when the area is 1, at 0.2 s")
    }

    /// Rates `10s:10,10s:10,10s:0` per second. Up: area t²/2, so arrival n at √(2n) s (50 by 10 s);
    /// hold: 10 a second, arrival 50 + k at 10 + k/10 s (150 by 20 s); down: area 10x − x²/2 after
    /// 20 s, so arrival 150 + 18 when x² − 20x + 36 = 0, x = 2: at 22 s; 50 + 100 + 50 = 200 in all.
    @Test(arguments: [
        (1, 1.4142135623730951), (2, 2.0), (8, 4.0), (50, 10.0), (51, 10.1), (100, 15.0), (150, 20.0), (168, 22.0),
        (200, 30.0),
    ])
    func arrivalsComeWhenTheAreaUnderTheRateReachesTheirNumber(n: Int, seconds: Double) throws {
        let t = try #require(upHoldDown.arrivalTime(n))
        #expect(abs(t - seconds) < 1e-9, "arrival \(n) at \(t)")
        #expect(abs(upHoldDown.arrivals(throughSeconds: seconds) - Double(n)) < 1e-9)
    }

    @Test func noArrivalIsDueAfterTheLastStage() {
        #expect(upHoldDown.arrivalTime(201) == nil)
        #expect(upHoldDown.arrivals(throughSeconds: 99) == 200)
    }

    @Test func stagesHaveBoundsStartTargetsAndLabels() {
        #expect(upHoldDown.bounds(ofStage: 1) == (10, 20))
        #expect(upHoldDown.startTarget(ofStage: 2) == 10)
        #expect(upHoldDown.label(ofStage: 0, perSecond: false) == "1: 0→10")
        #expect(upHoldDown.label(ofStage: 2, perSecond: true) == "3: 10→0/s")
        #expect(upHoldDown.stageIndex(atSeconds: 10) == 1)
        #expect(upHoldDown.stageIndex(atSeconds: 30) == 2)
        #expect(upHoldDown.description(perSecond: false) == "10s:10,10s:10,10s:0")
    }

    @Test(arguments: [
        ("30s:10,1m:50,30s:0", false, [(30.0, 10.0), (60, 50), (30, 0)]),
        ("1m30s:3", false, [(90, 3)]),
        ("500ms:2, 1h:1", false, [(0.5, 2), (3600, 1)]),
        ("0s:1,10s:5", false, [(0, 1), (10, 5)]),
        ("30s:5,1m:20/s", true, [(30, 5), (60, 20)]),
        ("1m:120/m,1m:3600/h", true, [(60, 2), (60, 1)]),
        ("10s:0.5", true, [(10, 0.5)]),
        ("12h:5,12h:0", false, [(43_200, 5), (43_200, 0)]),
        ("1s:1000000/s", true, [(1, 1_000_000)]),
    ] as [(String, Bool, [(Double, Double)])])
    func rampsParseFromDurationTargetPairs(text: String, perSecond: Bool, expected: [(Double, Double)]) throws {
        let stages = try LoadStages.parse(text, perSecond: perSecond).stages
        #expect(stages.map(\.durationSeconds) == expected.map(\.0))
        #expect(stages.map(\.target) == expected.map(\.1))
    }

    @Test(arguments: [
        ("30:10", false, "stage 1 of '30:10': '30' is not a duration"),
        ("30s", false, "stage 1 of '30s': '30s' is not DURATION:TARGET"),
        ("30s:10,", false, "stage 2 of '30s:10,': '' is not DURATION:TARGET"),
        ("30s:x", false, "stage 1 of '30s:x': 'x' is not a whole number of sessions"),
        ("30s:-1", false, "'-1' is not a whole number of sessions"),
        ("30s:2.5", false, "'2.5' is not a whole number of sessions"),
        ("10s:5/s", false, "'5/s' is not a whole number of sessions"),
        ("10s:fast", true, "'fast' is not a rate"),
        ("10s:-5/s", true, "'-5/s' is not a rate"),
        ("-10s:5", false, "'-10s' is not a duration"),
        ("10d:5", false, "'10d' is not a duration"),
        ("0s:10", false, "'0s:10': the stages last 0 s"),
        ("10s:0,5s:0", false, "'10s:0,5s:0': every target is 0: nothing would run"),
        // A day in all at most, as --duration; 24 h exactly is accepted (below).
        ("12h:5,12h:5,1s:0", false, "the stages last more than 86400 s in all"),
        ("10s:1000001/s", true, "stage 1 of '10s:1000001/s': '1000001/s' is above 1000000 arrivals per second"),
    ])
    func aMalformedRampIsAnErrorNamingTheStage(text: String, perSecond: Bool, message: String) {
        do {
            _ = try LoadStages.parse(text, perSecond: perSecond)
            Issue.record("'\(text)' parsed")
        } catch {
            #expect("\(error)".contains(message), "\(error)")
        }
    }
}
