import Foundation
import Synchronization
import Testing

@testable import FeedLoad

/// A session of `steps` steps with no pause that records nothing but a page per step.
private final class QuickSession: LoadSession {
    let steps: Int
    var taken = 0
    init(steps: Int) { self.steps = steps }
    func step(_ metrics: inout LoadMetrics) throws -> Duration? {
        taken += 1
        metrics.pages += 1
        return taken < steps ? .zero : nil
    }
    func finish(interrupted: Bool, _ metrics: inout LoadMetrics) throws {}
}

/// The scheduler under `--iterations` and `--segment`: which session numbers it starts, and that
/// it stops when the last one has ended.
@Suite struct SessionShareTests {
    private func run(model: ArrivalModel, share: SessionShare, steps: Int = 3) -> (indices: [Int], SchedulerResult) {
        let indices = Mutex<[Int]>([])
        let scheduler = SessionScheduler(
            model: model, workers: 2, duration: .seconds(60), share: share, stop: StopSignal()
        ) { index in
            indices.withLock { $0.append(index) }
            return QuickSession(steps: steps)
        }
        let result = scheduler.run()
        return (indices.withLock { $0 }.sorted(), result)
    }

    @Test func iterationsRunExactlyThatManySessionsAndEndTheRunLongBeforeItsDuration() {
        let (indices, result) = run(model: .closed(sessions: 4), share: .all(limit: 10))
        #expect(indices == Array(0..<10))
        #expect(result.counts.started == 10 && result.counts.completed == 10 && result.counts.interrupted == 0)
        #expect(result.metrics.pages == 30, "10 sessions × 3 steps")
        #expect(result.elapsed < .seconds(30), "the run ended with its last session, not at its 60 s duration")
    }

    @Test func aSegmentStartsEveryNthSessionNumberOfTheSingleRun() {
        // --iterations 10 --segment 2/3: sessions 1, 4, 7.
        let segment = LoadSegment(index: 2, count: 3)
        let share = SessionShare(
            first: 1, stride: 3, limit: segment.sessions(ofIterations: 10), firstArrival: .zero)
        let (indices, result) = run(model: .closed(sessions: 2), share: share)
        #expect(indices == [1, 4, 7])
        #expect(result.counts.completed == 3)
    }

    @Test func theRunnersSegmentsTogetherStartEverySessionOnce() {
        var all: [Int] = []
        for index in 1...3 {
            var configuration = LoadConfiguration(path: "x", feedName: "home", model: .closed(sessions: 8), workers: 2)
            configuration.iterations = 20
            configuration.segment = LoadSegment(index: index, count: 3)
            let (model, share) = LoadRunner.share(of: configuration)
            // Concurrency 8 cut in 3: 2, 3, 3.
            #expect(model == .closed(sessions: [2, 3, 3][index - 1]))
            all += run(model: model, share: share, steps: 1).indices
        }
        #expect(all.sorted() == Array(0..<20))
    }

    @Test func anOpenModelSegmentArrivesAtItsPlaceInTheSingleRunsSequence() {
        var configuration = LoadConfiguration(
            path: "x", feedName: "home", model: .open(ratePerSecond: 100, slots: 9), workers: 2)
        configuration.segment = LoadSegment(index: 3, count: 4)
        let (model, share) = LoadRunner.share(of: configuration)
        // 100 arrivals/s cut in 4: 25/s each; segment 3's first is the run's arrival 2, at 20 ms.
        #expect(model == .open(ratePerSecond: 25, slots: 2))
        #expect(share.firstArrival == .milliseconds(20) && share.first == 2 && share.stride == 4 && share.limit == nil)
    }

    @Test func aSegmentWithNoSessionOfTheIterationsEndsAtOnce() {
        let (indices, result) = run(
            model: .closed(sessions: 1), share: SessionShare(first: 3, stride: 4, limit: 0, firstArrival: .zero))
        #expect(indices.isEmpty && result.counts.started == 0)
        #expect(result.elapsed < .seconds(30))
    }
}
