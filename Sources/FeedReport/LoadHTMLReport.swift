import FeedLoad
import Foundation

/// `feedsim load --html`: one self-contained page for a load run — the summary table, then over
/// the run's wall time: throughput, p50 / p99 per query kind, sessions, errors, and the replays'
/// blank area and time to first content; and per stage (``LoadStageReport``: one stage, `all`,
/// while a load has no stages) pages/s, page p99, blank area and time to first content, with the
/// stage boundaries drawn on every time plot; the thresholds with their measured values.
///
/// Same report ⇒ same bytes.
public enum LoadHTMLReport {
    /// - Throws: when the report cannot be encoded as JSON (it always can).
    public static func html(report: LoadReport, title: String) throws -> String {
        let metrics = try ReportMetrics(json: Data(try report.json().utf8), file: "report")
        var body =
            "<p class=\"note\">\(report.settings.sessions) sessions (\(HTMLPage.escape(report.settings.model)) model), "
        body +=
            "\(HTMLPage.escape(report.settings.pagination.rawValue)) pagination, \(num(report.elapsedSeconds, 2)) s of wall time; "
        body +=
            "time axis in wall seconds from the start. Latencies are wall milliseconds; blank area and time to first "
        body += "content are the replays' own (virtual time).</p>\n"
        body += "<h2>Summary</h2>\n<div id=\"summary-wrap\">" + ReplayHTMLReport.summaryTable(metrics) + "</div>\n"
        body += "<details><summary>Settings</summary>\n"
        body += HTMLPage.table(
            header: ["setting", "value"], rows: metrics.settings.sorted { $0.key < $1.key }.map { [$0.key, $0.value] },
            id: "settings")
        body += "</details>\n"
        if !report.thresholds.isEmpty {
            body += "<h2>Thresholds</h2>\n" + thresholdTable(report)
        }
        body += plots(report).map { $0.render() }.joined()
        body += "<h2>Per stage</h2>\n" + stageTable(report)
        return HTMLPage.document(title: title, body: body)
    }

    static func plots(_ report: LoadReport) -> [TimePlot] {
        let timeline = report.timeline
        let tMax = max(report.elapsedSeconds, timeline.last?.endS ?? 0) * 1000
        func at(_ s: LoadSecond) -> Double { s.endS * 1000 }
        var throughput = TimePlot(id: "plot-throughput", title: "Throughput (per second)", tMax: tMax, yLabel: "/s")
        throughput.addSeries("pages", label: "pages/s", points: timeline.map { (at($0), $0.pagesPerSecond) })
        throughput.addSeries("rows", label: "rows/s", points: timeline.map { (at($0), $0.rowsPerSecond) })
        var plots = [throughput]
        for kind in report.latency.keys.sorted() {
            var plot = TimePlot(
                id: "plot-latency-\(kind)", title: "Latency of \(kind) queries (ms)", tMax: tMax, yLabel: "ms")
            let seconds = timeline.filter { $0.latency[kind] != nil }
            plot.addSeries("p50", label: "p50", points: seconds.map { (at($0), $0.latency[kind]!.p50) })
            plot.addSeries("p99", label: "p99", points: seconds.map { (at($0), $0.latency[kind]!.p99) })
            plots.append(plot)
        }
        var sessions = TimePlot(
            id: "plot-sessions", title: "Sessions: running, and started / completed / failed per interval", tMax: tMax,
            yLabel: "sessions")
        sessions.addSeries("active", label: "running", points: timeline.map { (at($0), Double($0.sessionsActive)) })
        sessions.addSeries("started", label: "started", points: timeline.map { (at($0), Double($0.sessionsStarted)) })
        sessions.addSeries(
            "completed", label: "completed", points: timeline.map { (at($0), Double($0.sessionsCompleted)) })
        sessions.addSeries("failed", label: "failed", points: timeline.map { (at($0), Double($0.sessionsFailed)) })
        var errors = TimePlot(id: "plot-errors", title: "Failed queries per interval", tMax: tMax, yLabel: "errors")
        errors.addSeries("errors", label: "errors", points: timeline.map { (at($0), Double($0.errors)) })
        var blank = TimePlot(
            id: "plot-blank", title: "Blank area of the replays finished in each interval (mean fraction)", tMax: tMax,
            yLabel: "share", yRange: 0...1)
        let withBlank = timeline.filter { $0.blankMeanFraction != nil }
        blank.addSeries(
            "blank-mean", label: "mean blank fraction", points: withBlank.map { (at($0), $0.blankMeanFraction!) })
        var ttfc = TimePlot(
            id: "plot-ttfc", title: "Time to first content of the replays finished in each interval (p50, ms)",
            tMax: tMax, yLabel: "ms")
        let withTTFC = timeline.filter { $0.timeToFirstContentP50Ms != nil }
        ttfc.addSeries("ttfc-p50", label: "p50", points: withTTFC.map { (at($0), $0.timeToFirstContentP50Ms!) })
        plots += [sessions, errors, blank, ttfc]
        // Stage boundaries (the planned ends of all but the last stage) on every plot.
        let boundaries = report.stages.dropLast().compactMap { stage in stage.plannedEndS.map { ($0, stage.name) } }
        for index in plots.indices {
            for (end, name) in boundaries {
                plots[index].addVerticalLine(t: end * 1000, cls: "stage-boundary", label: "end of stage \(name)")
            }
        }
        return plots
    }

    /// Each threshold, ✓ or ✗, with its measured value; a run stopped by `--abort-on-fail` says so.
    static func thresholdTable(_ report: LoadReport) -> String {
        var html = ""
        if let aborted = report.aborted {
            html += "<p class=\"note\">Aborted (--abort-on-fail): \(HTMLPage.escape(aborted.threshold)) breached at "
            html += "\(num(aborted.atS, 1)) s.</p>\n"
        }
        let rows = report.thresholds.map { result -> [String] in
            [
                result.passed ? "✓" : "✗", result.expression,
                result.value.map { ThresholdResult.format($0, unit: result.unit) } ?? "no samples",
            ]
        }
        return html + HTMLPage.table(header: ["", "threshold", "measured"], rows: rows, id: "thresholds")
    }

    /// Per stage: sessions, dropped arrivals, pages/s, page p99, blank area and time to first content.
    static func stageTable(_ report: LoadReport) -> String {
        func cell(_ value: Double?, _ format: (Double) -> String) -> String { value.map(format) ?? "—" }
        let rows = report.stages.map { s -> [String] in
            [
                s.name, "\(num(s.startS, 1))–\(num(s.endS, 1)) s", String(s.sessionsStarted), String(s.droppedIterations),
                num(s.pagesPerSecond, 1), cell(s.pageP99Ms) { num($0, 3) + " ms" }, String(s.replaysFinished),
                cell(s.blankMeanFraction) { ReportMetrics.format($0, unit: "%") },
                cell(s.blankP95Fraction) { ReportMetrics.format($0, unit: "%") },
                cell(s.timeToFirstContentP50Ms) { num($0) + " ms" }, cell(s.timeToFirstContentP95Ms) { num($0) + " ms" },
            ]
        }
        return HTMLPage.table(
            header: [
                "stage", "wall time", "sessions started", "dropped", "pages/s", "page p99", "replays finished",
                "blank (mean)", "blank (p95)", "time to first content (p50)", "(p95)",
            ], rows: rows, id: "stages")
    }
}
