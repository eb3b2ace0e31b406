import Foundation
import Testing

@testable import FeedLoad
@testable import FeedReport

/// `load --html` for a ramped run with thresholds: the stage boundaries on every time plot, one
/// row per stage, each threshold with its mark and measured value.
@Suite struct LoadHTMLReportTests {
    /// A report of a 3-stage ramp (1 s each) with two thresholds, built from hand-written snapshots.
    private func report() throws -> LoadReport {
        var configuration = LoadConfiguration(path: "f.sqlite", feedName: "home", model: .closed(sessions: 4), workers: 1)
        configuration.stages = LoadStages([
            LoadStage(durationSeconds: 1, target: 4), LoadStage(durationSeconds: 1, target: 4),
            LoadStage(durationSeconds: 1, target: 0),
        ])
        configuration.thresholds = [try LoadThreshold.parse("after.p99<50ms"), try LoadThreshold.parse("pages.count<5")]
        var samples: [TimelineSampler.Sample] = []
        for second in 0...3 {
            var metrics = LoadMetrics()
            metrics.pages = second * 10
            for _ in 0..<(second * 10) { metrics.record(.after, nanoseconds: 2_000_000) }
            var counts = SessionCounts()
            counts.started = min(second * 2, 4)
            samples.append((SchedulerResult(counts: counts, metrics: metrics, elapsed: .seconds(second)), nil))
        }
        let last = samples[3].0
        var report = LoadReport(
            configuration: configuration, counts: last.counts, metrics: last.metrics, elapsed: last.elapsed,
            stoppedEarly: false)
        report.timeline = zip(samples, samples.dropFirst()).map { a, b in
            LoadSecond(from: a.0, to: b.0, writersA: nil, writersB: nil, stage: nil)
        }
        report.stages = LoadStageReport.stages(samples: samples, stages: configuration.stages, perSecond: false)
        return report
    }

    @Test func stageBoundariesAreDrawnOnEveryTimePlotAndEachStageHasARow() throws {
        let html = try LoadHTMLReport.html(report: try report(), title: "t")
        let plots = html.components(separatedBy: "<svg class=\"plot\"").dropFirst()
        #expect(plots.count >= 6)
        for plot in plots {
            let svg = plot.components(separatedBy: "</svg>")[0]
            // Boundaries at 1 s and 2 s (the last stage's end is the run's end): x = 64 + t / 3 × 880.
            #expect(svg.contains("<line class=\"stage-boundary\" data-t=\"1000\" x1=\"357.33\""), "\(svg.prefix(200))")
            #expect(svg.contains("<line class=\"stage-boundary\" data-t=\"2000\" x1=\"650.67\""))
            #expect(svg.components(separatedBy: "stage-boundary").count - 1 == 2)
        }
        let stages = try #require(html.components(separatedBy: "<table id=\"stages\">").dropFirst().first)
        // 10 pages a second in each stage; sessions started 2, 2, 0.
        #expect(stages.contains("<tr><td>1: 0→4</td><td>0–1 s</td><td>2</td><td>0</td><td>10</td>"), "\(stages.prefix(600))")
        #expect(stages.contains("<tr><td>2: 4→4</td><td>1–2 s</td><td>2</td>"))
        #expect(stages.contains("<tr><td>3: 4→0</td><td>2–3 s</td><td>0</td>"))
    }

    @Test func thresholdsAreListedWithTheirMarkAndValue() throws {
        let html = try LoadHTMLReport.html(report: try report(), title: "t")
        // 30 after queries of 2 ms (within the histogram's 1/256: 2.000 ms printed); 30 pages, not < 5.
        #expect(html.contains("<tr><td>✓</td><td>after.p99&lt;50ms</td><td>2.000 ms</td></tr>"))
        #expect(html.contains("<tr><td>✗</td><td>pages.count&lt;5</td><td>30</td></tr>"))
    }
}
