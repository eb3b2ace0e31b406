import Foundation
import Synchronization
import Testing

@testable import FeedLoad

/// A session that never ends by itself: a step every millisecond, a page each.
private final class EndlessSession: LoadSession {
    let counter: LiveSessions

    init(counter: LiveSessions) {
        self.counter = counter
        counter.enter()
    }

    func step(_ metrics: inout LoadMetrics) throws -> Duration? {
        metrics.pages += 1
        return .milliseconds(1)
    }

    func finish(interrupted: Bool, _ metrics: inout LoadMetrics) throws {
        counter.leave()
    }
}

private final class LiveSessions: Sendable {
    private let state = Mutex((now: 0, most: 0))
    func enter() { state.withLock { $0.now += 1; $0.most = max($0.most, $0.now) } }
    func leave() { state.withLock { $0.now -= 1 } }
    var most: Int { state.withLock { $0.most } }
    var now: Int { state.withLock { $0.now } }
}

/// The scheduler under a ramp, on real threads. Counts that depend on timing are checked loosely;
/// the open-model count is exact by construction (every arrival is due well before the end).
@Suite struct SessionSchedulerRampTests {
    @Test func arrivalsThatFindTheOnlySlotTakenAreCountedAsDroppedIterations() {
        let live = LiveSessions()
        // 100 arrivals/s from the start for 0.3 s: arrivals at 0.01, 0.02, …, 0.30 s (the n-th when
        // the area 100·t reaches n): 30 in all. Then 0.3 s at rate 0: nothing more arrives, and the
        // last arrival is due 0.3 s before the end. One slot, held by a session that never ends:
        // the first arrival starts it, the other 29 are dropped.
        let stages = LoadStages([
            LoadStage(durationSeconds: 0, target: 100), LoadStage(durationSeconds: 0.3, target: 100),
            LoadStage(durationSeconds: 0, target: 0), LoadStage(durationSeconds: 0.3, target: 0),
        ])
        #expect(stages.arrivalTime(30).map { abs($0 - 0.3) < 1e-9 } == true)
        #expect(stages.arrivalTime(31) == nil)
        let scheduler = SessionScheduler(
            model: .open(ratePerSecond: 100, slots: 1), workers: 2, duration: .milliseconds(600), stop: StopSignal(),
            stages: stages
        ) { _ in EndlessSession(counter: live) }
        let result = scheduler.run()
        #expect(result.counts.started == 1)
        #expect(result.counts.dropped == 29)
        #expect(result.counts.interrupted == 1, "the run's end interrupts the one session")
        #expect(live.most == 1 && live.now == 0)
    }

    @Test func aSegmentOfAnOpenRampTakesEveryNthArrivalOfTheWholeRun() {
        // The 30 arrivals of the test above (at 0.01 n s), cut in 3: segment 2/3 takes arrivals
        // 2, 5, …, 29 of the whole run, 10 in all. With 20 slots none is dropped; with 1 slot
        // (held by a session that never ends) the first starts it and the other 9 are dropped.
        let stages = LoadStages([
            LoadStage(durationSeconds: 0, target: 100), LoadStage(durationSeconds: 0.3, target: 100),
            LoadStage(durationSeconds: 0, target: 0), LoadStage(durationSeconds: 0.3, target: 0),
        ])
        let numbers = Mutex<[Int]>([])
        for (slots, started, dropped) in [(20, 10, 0), (1, 1, 9)] {
            let live = LiveSessions()
            numbers.withLock { $0 = [] }
            let scheduler = SessionScheduler(
                model: .open(ratePerSecond: 100, slots: slots), workers: 2, duration: .milliseconds(600),
                share: SessionShare(first: 1, stride: 3, limit: nil, firstArrival: .zero), stop: StopSignal(),
                stages: stages
            ) { index in
                numbers.withLock { $0.append(index) }
                return EndlessSession(counter: live)
            }
            let result = scheduler.run()
            #expect(result.counts.started == started && result.counts.dropped == dropped, "\(slots) slot(s)")
            #expect(live.most == started && live.now == 0)
            #expect(numbers.withLock { $0.sorted() } == Array(stride(from: 1, to: 3 * started, by: 3)))
        }
    }

    @Test func theSegmentsOfAClosedRampRunTheirDealtPartOfItsTarget() {
        // Up to 3 sessions in 0.2 s, hold 0.3 s, down to 0 in 0.2 s, in 3 segments: rank r of the
        // target is segment r mod 3 + 1's, so each segment runs at most 1 session, and all of them together 3.
        let stages = LoadStages([
            LoadStage(durationSeconds: 0.2, target: 3), LoadStage(durationSeconds: 0.3, target: 3),
            LoadStage(durationSeconds: 0.2, target: 0),
        ])
        for index in 1...3 {
            let live = LiveSessions()
            let scheduler = SessionScheduler(
                model: .closed(sessions: 1), workers: 2, duration: .milliseconds(700),
                share: SessionShare(first: index - 1, stride: 3, limit: nil, firstArrival: .zero), stop: StopSignal(),
                stages: stages
            ) { _ in EndlessSession(counter: live) }
            let result = scheduler.run()
            #expect(live.most == 1, "segment \(index)/3")
            #expect(result.counts.started >= 1 && result.counts.interrupted == result.counts.started)
            #expect(live.now == 0)
        }
    }

    @Test func aClosedRampStartsSessionsUpToTheTargetAndRetiresThemWhenItFalls() {
        let live = LiveSessions()
        // Up to 3 in 0.2 s, hold 0.3 s, down to 0 in 0.2 s: never more than 3 at once, at least 3
        // started, and all ended by the ramp down or the end of the run.
        let stages = LoadStages([
            LoadStage(durationSeconds: 0.2, target: 3), LoadStage(durationSeconds: 0.3, target: 3),
            LoadStage(durationSeconds: 0.2, target: 0),
        ])
        let scheduler = SessionScheduler(
            model: .closed(sessions: 3), workers: 2, duration: .milliseconds(700), stop: StopSignal(), stages: stages
        ) { _ in EndlessSession(counter: live) }
        let result = scheduler.run()
        #expect(live.most == 3)
        #expect(result.counts.started >= 3)
        #expect(result.counts.interrupted == result.counts.started, "endless sessions end only by the ramp or the end")
        #expect(result.counts.dropped == 0 && result.counts.failed == 0)
        #expect(live.now == 0)
        #expect(result.elapsed >= .milliseconds(700))
    }
}
