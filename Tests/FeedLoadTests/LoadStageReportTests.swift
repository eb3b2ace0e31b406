import Foundation
import Testing

@testable import FeedLoad

/// Per-stage figures are differences of cumulative snapshots taken at the stage boundaries;
/// here the snapshots are written by hand, so every figure is checked against arithmetic.
@Suite struct LoadStageReportTests {
    /// A cumulative snapshot at `seconds`.
    private func snapshot(
        _ seconds: Double, started: Int, completed: Int, dropped: Int, pages: Int, afterMs: [Int],
        blank: [Double], ttfcMs: [Double]
    ) -> TimelineSampler.Sample {
        var metrics = LoadMetrics()
        metrics.pages = pages
        for ms in afterMs { metrics.record(.after, nanoseconds: UInt64(ms) * 1_000_000) }
        for (fraction, ttfc) in zip(blank, ttfcMs) { metrics.recordReplay(blankMeanFraction: fraction, timeToFirstContentMs: ttfc) }
        var counts = SessionCounts()
        counts.started = started
        counts.completed = completed
        counts.dropped = dropped
        return (SchedulerResult(counts: counts, metrics: metrics, elapsed: .milliseconds(Int64(seconds * 1000))), nil)
    }

    @Test func eachStageIsTheDifferenceOfTheSnapshotsAtItsEnds() throws {
        // Stages 2s:4 then 2s:0. Snapshots at 0, 1, 2 (the boundary), 3, 4 s.
        let stages = LoadStages([LoadStage(durationSeconds: 2, target: 4), LoadStage(durationSeconds: 2, target: 0)])
        let samples = [
            snapshot(0, started: 0, completed: 0, dropped: 0, pages: 0, afterMs: [], blank: [], ttfcMs: []),
            snapshot(1, started: 2, completed: 0, dropped: 0, pages: 10, afterMs: [1, 2], blank: [], ttfcMs: []),
            // By 2 s: 4 started, 1 finished replay (blank 0.10, first content at 300 ms), 40 pages, after 1…4 ms.
            snapshot(2, started: 4, completed: 1, dropped: 1, pages: 40, afterMs: [1, 2, 3, 4], blank: [0.10], ttfcMs: [300]),
            snapshot(3, started: 4, completed: 2, dropped: 1, pages: 60, afterMs: [1, 2, 3, 4, 5], blank: [0.10, 0.30], ttfcMs: [300, 500]),
            // By 4 s: 3 more replays finished (0.30, 0.50, 0.70 blank), 70 pages, after 1…6 ms.
            snapshot(
                4, started: 4, completed: 4, dropped: 3, pages: 70, afterMs: [1, 2, 3, 4, 5, 6],
                blank: [0.10, 0.30, 0.50, 0.70], ttfcMs: [300, 500, 700, 900]),
        ]
        let report = LoadStageReport.stages(samples: samples, stages: stages, perSecond: false)
        #expect(report.map(\.name) == ["1: 0→4", "2: 4→0"])
        let (first, second) = (report[0], report[1])
        #expect(first.startS == 0 && first.endS == 2 && second.startS == 2 && second.endS == 4)
        #expect(first.plannedEndS == 2 && second.targetFrom == 4 && second.targetTo == 0)
        // Stage 1: 40 pages in 2 s = 20/s; 4 started, 1 completed, 1 dropped; 4 after queries 1…4 ms:
        // p99 = rank 4 → 4 ms (values under 128 ns are exact; in ms, within 1/256).
        #expect(first.pages == 40 && first.pagesPerSecond == 20)
        #expect(first.sessionsStarted == 4 && first.sessionsCompleted == 1 && first.droppedIterations == 1)
        #expect(first.sessionsActiveAtEnd == 3)
        #expect(first.latency["after"]?.count == 4)
        #expect(abs((first.pageP99Ms ?? 0) - 4) <= 4 / 256)
        #expect(first.replaysFinished == 1 && first.blankMeanFraction == 0.1)
        #expect(first.timeToFirstContentP50Ms.map { abs($0 - 300) <= 300 / 256 } == true)
        // Stage 2: 30 pages in 2 s = 15/s; 0 started, 3 completed, 2 dropped; 3 replays finished with
        // blank 0.30, 0.50, 0.70: mean 0.5; p95 = rank 3 → 0.70; first content 500, 700, 900 ms: p50 = rank 2 → 700.
        #expect(second.pages == 30 && second.pagesPerSecond == 15)
        #expect(second.sessionsStarted == 0 && second.sessionsCompleted == 3 && second.droppedIterations == 2)
        #expect(second.latency["after"]?.count == 2)
        #expect(second.replaysFinished == 3)
        #expect(second.blankMeanFraction.map { abs($0 - 0.5) < 1e-9 } == true)
        #expect(second.blankP95Fraction.map { abs($0 - 0.7) <= 0.7 / 256 } == true)
        #expect(second.timeToFirstContentP50Ms.map { abs($0 - 700) <= 700 / 256 } == true)
        #expect(second.timeToFirstContentP95Ms.map { abs($0 - 900) <= 900 / 256 } == true)
    }

    @Test func aFullyBlankSessionGivesABlankP95OfExactlyOne() {
        // Before: one replay at 0.5; after: another at 1.0 (never showed content). The difference of
        // the histograms bounds the top by its bucket, [999 424, 1 003 520) ppm: capped at 1.
        let samples = [
            snapshot(0, started: 1, completed: 0, dropped: 0, pages: 0, afterMs: [], blank: [0.5], ttfcMs: [100]),
            snapshot(1, started: 2, completed: 2, dropped: 0, pages: 0, afterMs: [], blank: [0.5, 1.0], ttfcMs: [100, 100]),
        ]
        let report = LoadStageReport.stages(samples: samples, stages: nil, perSecond: false)
        #expect(report[0].blankP95Fraction == 1)
        #expect(report[0].blankMeanFraction == 1)
    }

    @Test func aRunWithoutStagesHasOneStageForTheWholeRun() {
        let samples = [
            snapshot(0, started: 0, completed: 0, dropped: 0, pages: 0, afterMs: [], blank: [], ttfcMs: []),
            snapshot(2.5, started: 5, completed: 5, dropped: 0, pages: 50, afterMs: [3], blank: [0.2], ttfcMs: [100]),
        ]
        let report = LoadStageReport.stages(samples: samples, stages: nil, perSecond: false)
        #expect(report.count == 1)
        #expect(report[0].name == "all" && report[0].plannedStartS == nil)
        #expect(report[0].pagesPerSecond == 20)  // 50 pages / 2.5 s
    }

    @Test func aStageTheRunNeverReachedIsLeftOut() {
        // Stopped at 1.5 s (an abort), halfway through the second of three 1-s stages.
        let stages = LoadStages([
            LoadStage(durationSeconds: 1, target: 2), LoadStage(durationSeconds: 1, target: 2),
            LoadStage(durationSeconds: 1, target: 0),
        ])
        let samples = [
            snapshot(0, started: 0, completed: 0, dropped: 0, pages: 0, afterMs: [], blank: [], ttfcMs: []),
            snapshot(1, started: 2, completed: 0, dropped: 0, pages: 8, afterMs: [], blank: [], ttfcMs: []),
            snapshot(1.5, started: 2, completed: 0, dropped: 0, pages: 12, afterMs: [], blank: [], ttfcMs: []),
        ]
        let report = LoadStageReport.stages(samples: samples, stages: stages, perSecond: false)
        #expect(report.map(\.name) == ["1: 0→2", "2: 2→2"])
        #expect(report[1].endS == 1.5 && report[1].pages == 4 && report[1].pagesPerSecond == 8)
    }
}
