import Foundation

/// A sweep's rows with the Pareto frontier marked per trace, and their text, JSON, CSV and HTML
/// forms (same rows ⇒ same bytes).
public struct SweepReport: Sendable {
    public var axes: [Sweep.Axis]
    public var rows: [SweepRow]
    public var cost: SweepCost
    public var harm: SweepHarm

    /// Marks each trace's frontier on `rows` (rows of different traces are not compared).
    public init(axes: [Sweep.Axis], rows: [SweepRow], cost: SweepCost, harm: SweepHarm) {
        self.axes = axes
        self.cost = cost
        self.harm = harm
        var rows = rows
        for trace in Set(rows.map(\.trace)) {
            let indices = rows.indices.filter { rows[$0].trace == trace }
            let frontier = Sweep.paretoFrontier(indices.map { (rows[$0].cost(cost), rows[$0].harm(harm)) })
            for (k, i) in indices.enumerated() { rows[i].onFrontier = frontier.contains(k) }
        }
        self.rows = rows
    }

    static let figureColumns = [
        "requests", "rows_fetched", "blank_mean", "blank_p95", "hitch_ratio_ms_per_s", "ttfc_ms", "frontier", "current",
    ]

    private func values(_ row: SweepRow) -> [String] {
        let f = row.figures
        return [
            String(f.requests), String(f.rowsFetched), num(f.blankMean, 6), num(f.blankP95, 6), f.hitchRatio.map { num($0, 6) } ?? "",
            f.timeToFirstContentMs.map { num($0, 3) } ?? "", row.onFrontier ? "1" : "0", row.isCurrent ? "1" : "0",
        ]
    }

    private var header: [String] { ["trace"] + axes.map(\.option) + Self.figureColumns }

    /// CSV with a header row (RFC 4180 quoting where a field holds a comma or quote).
    public var csv: String {
        func field(_ s: String) -> String {
            s.contains(",") || s.contains("\"") || s.contains("\n")
                ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
        }
        let lines = [header] + rows.map { [$0.trace] + $0.settings + values($0) }
        return lines.map { $0.map(field).joined(separator: ",") }.joined(separator: "\n") + "\n"
    }

    /// JSON: `cost`, `harm`, `axes`, `rows` (sorted keys; a row's varied options under `settings`).
    public var json: String {
        typealias P = PerfettoTrace
        let axesJSON = axes.map {
            P.object([
                ("option", P.string($0.option)), ("values", "[" + $0.values.map(P.string).joined(separator: ",") + "]"),
            ])
        }
        let rowsJSON = rows.map { row -> String in
            let f = row.figures
            let settings = P.object(zip(axes, row.settings).map { ($0.option, P.string($1)) })
            return P.object([
                ("trace", P.string(row.trace)), ("settings", settings), ("requests", String(f.requests)),
                ("rows_fetched", String(f.rowsFetched)), ("blank_mean", num(f.blankMean, 6)),
                ("blank_p95", num(f.blankP95, 6)),
                ("hitch_ratio_ms_per_s", f.hitchRatio.map { num($0, 6) } ?? "null"),
                ("ttfc_ms", f.timeToFirstContentMs.map { num($0, 3) } ?? "null"),
                ("frontier", row.onFrontier ? "true" : "false"), ("current", row.isCurrent ? "true" : "false"),
            ])
        }
        return P.object([
            ("cost", P.string(cost.rawValue)), ("harm", P.string(harm.rawValue)),
            ("axes", "[" + axesJSON.joined(separator: ",") + "]"),
            ("rows", "[\n" + rowsJSON.joined(separator: ",\n") + "\n]"),
        ]) + "\n"
    }

    /// An aligned table for the terminal; `*` marks the frontier, `>` the current settings.
    public var text: String {
        let table =
            [[""] + header.dropLast(2)]
            + rows.map {
                [($0.isCurrent ? ">" : " ") + ($0.onFrontier ? "*" : " "), $0.trace] + $0.settings
                    + values($0).dropLast(2)
            }
        let widths = table[0].indices.map { c in table.map { $0[c].count }.max() ?? 0 }
        var lines = table.map { row in
            var line = row.enumerated().map { c, v in v.padding(toLength: widths[c], withPad: " ", startingAt: 0) }
                .joined(separator: "  ")
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }
        lines.append(
            "* on the Pareto frontier of \(cost.rawValue) against \(harm.rawValue) (per trace); > the current settings")
        return lines.joined(separator: "\n") + "\n"
    }

    /// HTML: per trace, a scatter of cost against harm (frontier points red and joined, current
    /// settings ringed), and the table.
    public var html: String {
        var body =
            "<p>Cost: <b>\(cost.rawValue)</b>; harm: <b>\(harm.rawValue)</b>. Red points are on the Pareto frontier "
        body += "(no other combination is cheaper and less harmful); the ringed point is the current settings.</p>\n"
        let traces = rows.map(\.trace).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        for (n, trace) in traces.enumerated() {
            body +=
                "<h2>\(HTMLPage.escape(trace))</h2>\n" + scatter(rows.filter { $0.trace == trace }, id: "scatter-\(n)")
        }
        body += "<h2>All runs</h2>\n"
        body += HTMLPage.table(
            header: header, rows: rows.map { [$0.trace] + $0.settings + values($0) }, id: "sweep",
            rowClasses: rows.map { $0.onFrontier ? "frontier" : nil })
        return HTMLPage.document(title: "FeedSim sweep", body: body)
    }

    private func scatter(_ rows: [SweepRow], id: String) -> String {
        let w = 640.0
        let h = 360.0
        let l = 70.0
        let r = 20.0
        let t = 12.0
        let b = 40.0
        let xs = rows.map { $0.cost(cost) }
        let ys = rows.map { $0.harm(harm) }
        let x0 = min(0, xs.min() ?? 0)
        let x1 = max((xs.max() ?? 1) * 1.05, x0 + 1)
        let y0 = min(0, ys.min() ?? 0)
        let y1 = max((ys.max() ?? 1) * 1.05, y0 + 1e-6)
        func px(_ v: Double) -> Double { l + (v - x0) / (x1 - x0) * (w - l - r) }
        func py(_ v: Double) -> Double { t + (h - t - b) - (v - y0) / (y1 - y0) * (h - t - b) }
        var svg =
            "<svg class=\"scatter\" id=\"\(id)\" width=\"\(num(w))\" height=\"\(num(h))\" viewBox=\"0 0 \(num(w)) \(num(h))\" data-points=\"\(rows.count)\">\n"
        svg += "<line class=\"axis\" x1=\"\(num(l))\" y1=\"\(num(h - b))\" x2=\"\(num(w - r))\" y2=\"\(num(h - b))\"/>"
        svg += "<line class=\"axis\" x1=\"\(num(l))\" y1=\"\(num(t))\" x2=\"\(num(l))\" y2=\"\(num(h - b))\"/>\n"
        svg +=
            "<text x=\"\(num((l + w - r) / 2))\" y=\"\(num(h - 8))\" text-anchor=\"middle\">\(cost.rawValue)</text>\n"
        svg += "<text x=\"\(num(l - 6))\" y=\"\(num(t + 10))\" text-anchor=\"end\">\(num(y1, 3))</text>"
        svg += "<text x=\"\(num(l - 6))\" y=\"\(num(h - b))\" text-anchor=\"end\">\(num(y0, 3))</text>"
        svg += "<text x=\"\(num(l - 6))\" y=\"\(num((t + h - b) / 2))\" text-anchor=\"end\">\(harm.rawValue)</text>\n"
        svg += "<text x=\"\(num(l))\" y=\"\(num(h - b + 14))\" text-anchor=\"middle\">\(num(x0, 1))</text>"
        svg += "<text x=\"\(num(w - r))\" y=\"\(num(h - b + 14))\" text-anchor=\"end\">\(num(x1, 1))</text>\n"
        let frontier = rows.filter(\.onFrontier).sorted {
            ($0.cost(cost), $0.harm(harm)) < ($1.cost(cost), $1.harm(harm))
        }
        if frontier.count > 1 {
            let pts = frontier.map { "\(num(px($0.cost(cost)), 2)),\(num(py($0.harm(harm)), 2))" }.joined(
                separator: " ")
            svg +=
                "<polyline class=\"series s3\" data-series=\"frontier\" data-points=\"\(frontier.count)\" points=\"\(pts)\"/>\n"
        }
        for row in rows {
            let label = zip(axes, row.settings).map { "\($0.option)=\($1)" }.joined(separator: " ")
            var cls = "point"
            if row.onFrontier { cls += " frontier" }
            if row.isCurrent { cls += " current" }
            svg +=
                "<circle class=\"\(cls)\" cx=\"\(num(px(row.cost(cost)), 2))\" cy=\"\(num(py(row.harm(harm)), 2))\" r=\"\(row.isCurrent ? 7 : 5)\">"
            svg +=
                "<title>\(HTMLPage.escape(label)): \(cost.rawValue) \(num(row.cost(cost))), \(harm.rawValue) \(num(row.harm(harm), 4))</title></circle>\n"
        }
        return svg + "</svg>\n"
    }
}
