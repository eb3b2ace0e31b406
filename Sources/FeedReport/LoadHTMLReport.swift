import FeedLoad
import Foundation

/// `feedsim load --html`: one self-contained page for a load run — the summary table, then over
/// the run's wall time: throughput, p50 / p99 per query kind, sessions, errors, and the replays'
/// blank area and time to first content; and those two per stage (one stage, `all`, while a load
/// has no stages; a stage's name in the timeline becomes a row of its own).
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
        return plots + [sessions, errors, blank, ttfc]
    }

    /// Blank area and time to first content per stage, in order of first appearance.
    static func stageTable(_ report: LoadReport) -> String {
        var order: [String] = []
        var finished: [String: Int] = [:]
        var blankSum: [String: Double] = [:]
        var pages: [String: Double] = [:]
        for s in report.timeline {
            let stage = s.stage ?? "all"
            if finished[stage] == nil { order.append(stage) }
            finished[stage, default: 0] += s.replaysFinished
            blankSum[stage, default: 0] += (s.blankMeanFraction ?? 0) * Double(s.replaysFinished)
            pages[stage, default: 0] += s.pagesPerSecond * (s.endS - s.startS)
        }
        let rows = order.map { stage -> [String] in
            let n = finished[stage] ?? 0
            let blank = n > 0 ? ReportMetrics.format(blankSum[stage]! / Double(n), unit: "%") : "—"
            let ttfc = stage == "all" ? report.replays.timeToFirstContent.map { num($0.p50) + " ms" } ?? "—" : "—"
            return [stage, String(n), blank, ttfc, num(pages[stage] ?? 0, 0)]
        }
        return HTMLPage.table(
            header: ["stage", "replays finished", "blank (mean)", "time to first content (p50)", "pages"], rows: rows,
            id: "stages")
    }
}
