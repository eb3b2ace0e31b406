import Foundation
import Synchronization
import Testing

@testable import FeedLoad

/// A session that takes `steps` steps `pause` apart, recording a page per step, and throws at
/// step `failAt` when set. It tracks how many sessions are live at once in a shared counter.
private final class CountingSession: LoadSession {
    let steps: Int
    let pause: Duration
    let failAt: Int?
    /// Whether the failure is a query the session counts itself (as a backend's failed query is).
    let countsFailure: Bool
    let live: LiveCounter
    var taken = 0

    init(steps: Int, pause: Duration, failAt: Int? = nil, countsFailure: Bool = false, live: LiveCounter) {
        self.steps = steps
        self.pause = pause
        self.failAt = failAt
        self.countsFailure = countsFailure
        self.live = live
        live.enter()
    }

    func hasCounted(_ error: any Error) -> Bool { countsFailure && error is Failure }

    struct Failure: Error, CustomStringConvertible {
        var description: String { "session failed on purpose" }
    }

    func step(_ metrics: inout LoadMetrics) throws -> Duration? {
        taken += 1
        if taken == failAt {
            if countsFailure { metrics.recordError(Failure()) }
            throw Failure()
        }
        metrics.pages += 1
        return taken < steps ? pause : nil
    }

    func finish(interrupted: Bool, _ metrics: inout LoadMetrics) throws {
        live.leave()
        metrics.recordSession(
            SessionOutcome(session: 0, consistency: ConsistencyCount(), itemsLoaded: taken, error: nil))
    }
}

/// Counts live sessions and remembers the most at once.
private final class LiveCounter: Sendable {
    private let state = Mutex((live: 0, most: 0))
    func enter() { state.withLock { $0.live += 1; $0.most = max($0.most, $0.live) } }
    func leave() { state.withLock { $0.live -= 1 } }
    var most: Int { state.withLock { $0.most } }
    var live: Int { state.withLock { $0.live } }
}

@Suite struct SessionSchedulerTests {
    @Test func theClosedModelKeepsExactlyNSessionsRunningAndReplacesFinishedOnes() {
        let live = LiveCounter()
        let scheduler = SessionScheduler(
            model: .closed(sessions: 3), workers: 2, duration: .milliseconds(300), stop: StopSignal()
        ) { _ in CountingSession(steps: 4, pause: .milliseconds(5), live: live) }
        let result = scheduler.run()
        // Each session needs ≥ 3 pauses of 5 ms = 15 ms, so 300 ms hold at most 3 × 300 / 15 = 60 of them.
        #expect(live.most == 3)
        #expect(live.live == 0, "every session was finished")
        #expect(result.counts.started > 3, "finished sessions were replaced")
        #expect(result.counts.started <= 3 * 300 / 15 + 3)
        #expect(result.counts.started == result.counts.completed + result.counts.interrupted)
        #expect(result.counts.failed == 0 && result.counts.dropped == 0)
        #expect(result.metrics.sessionsChecked == result.counts.started)
        #expect(result.elapsed >= .milliseconds(300))
    }

    @Test func aFailingSessionIsReportedAndTheOthersRunOn() {
        let live = LiveCounter()
        let scheduler = SessionScheduler(
            model: .closed(sessions: 2), workers: 2, duration: .milliseconds(200), stop: StopSignal()
        ) { index in
            CountingSession(steps: 3, pause: .milliseconds(2), failAt: index == 0 ? 2 : nil, live: live)
        }
        let result = scheduler.run()
        #expect(result.counts.failed == 1)
        #expect(result.counts.completed > 1)
        #expect(result.metrics.errors == ["other": 1])
        #expect(result.metrics.notableSessions.map(\.error) == ["session failed on purpose"])
        #expect(result.metrics.notableSessions.map(\.session) == [0])
    }

    /// A session that ends on a failed query its backend counted already (a row fetch's HTTP 500)
    /// is one failed session and one error, not two errors.
    @Test func aFailureTheSessionCountedIsNotCountedAgain() {
        let live = LiveCounter()
        let scheduler = SessionScheduler(
            model: .closed(sessions: 2), workers: 2, duration: .milliseconds(200), stop: StopSignal()
        ) { index in
            CountingSession(steps: 3, pause: .milliseconds(2), failAt: index == 0 ? 2 : nil, countsFailure: true, live: live)
        }
        let result = scheduler.run()
        #expect(result.counts.failed == 1)
        #expect(result.metrics.errors == ["other": 1])
        #expect(result.metrics.notableSessions.map(\.error) == ["session failed on purpose"])
    }

    @Test func theOpenModelDropsArrivalsThatFindNoFreeSlot() {
        let live = LiveCounter()
        // 200 arrivals/s for 250 ms ≈ 50 arrivals; one slot, and a session lasts ≥ 2 × 40 ms = 80 ms,
        // so at most ceil(250 / 80) = 4 start and the rest (≥ 40) are dropped.
        let scheduler = SessionScheduler(
            model: .open(ratePerSecond: 200, slots: 1), workers: 2, duration: .milliseconds(250), stop: StopSignal()
        ) { _ in CountingSession(steps: 3, pause: .milliseconds(40), live: live) }
        let result = scheduler.run()
        #expect(live.most == 1)
        #expect((1...4).contains(result.counts.started))
        #expect(result.counts.dropped >= 40)
        #expect(result.counts.started + result.counts.dropped <= 51)  // arrivals at 0, 5, …, 250 ms
    }

    @Test func aStopEndsTheRunEarlyAndStillFinishesEverySession() {
        let live = LiveCounter()
        let stop = StopSignal()
        let scheduler = SessionScheduler(
            model: .closed(sessions: 4), workers: 2, duration: .seconds(30), stop: stop
        ) { _ in CountingSession(steps: 1_000_000, pause: .milliseconds(1), live: live) }
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 0.1)
            stop.set()
        }
        let result = scheduler.run()
        #expect(result.elapsed < .seconds(5))
        #expect(result.counts.started == 4)
        #expect(result.counts.interrupted == 4)
        #expect(live.live == 0)
        #expect(result.metrics.pages > 4)
    }
}
