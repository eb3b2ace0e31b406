import Foundation

/// `feedsim compare A.json B.json`: every figure of two replay reports (or two load reports) side
/// by side, with B − A, the change in percent of A, and a verdict where "better" is unambiguous;
/// the settings that differ come first.
public struct ReportComparison: Sendable {
    /// Which way a figure is better, when that is unambiguous.
    public enum Direction: String, Sendable {
        case lowerIsBetter = "lower"
        case higherIsBetter = "higher"
    }

    public enum Verdict: String, Sendable {
        case better, worse, same
    }

    public struct Setting: Sendable, Equatable {
        public var key: String
        public var a: String?
        public var b: String?
        public var differs: Bool { a != b }
    }

    public struct Row: Sendable, Equatable {
        public var key: String
        public var unit: String
        public var a: Double?
        public var b: Double?
        /// b − a, when both exist.
        public var difference: Double?
        /// (b − a) / |a| × 100; `nil` when a is 0 or missing.
        public var percent: Double?
        /// B's verdict against A, `nil` where better is not unambiguous (or a value is missing).
        public var verdict: Verdict?
    }

    public var kind: ReportMetrics.Kind
    public var fileA: String
    public var fileB: String
    /// Differing settings first, then the rest, each sorted by key.
    public var settings: [Setting]
    /// Sorted by key.
    public var rows: [Row]

    /// - Throws: ``ReportInputError`` when the two reports are not of the same kind.
    public init(a: ReportMetrics, b: ReportMetrics, fileA: String, fileB: String) throws {
        guard a.kind == b.kind else {
            throw ReportInputError(
                file: fileB,
                reason: "a \(b.kind.rawValue) report cannot be compared with \(fileA), a \(a.kind.rawValue) report")
        }
        kind = a.kind
        self.fileA = fileA
        self.fileB = fileB
        let sa = a.settings
        let sb = b.settings
        let settingKeys = Set(sa.keys).union(sb.keys).sorted()
        let all = settingKeys.map { Setting(key: $0, a: sa[$0], b: sb[$0]) }
        settings = all.filter(\.differs) + all.filter { !$0.differs }
        let fa = Dictionary(uniqueKeysWithValues: a.figures.map { ($0.key, $0.value) })
        let fb = Dictionary(uniqueKeysWithValues: b.figures.map { ($0.key, $0.value) })
        rows = Set(fa.keys).union(fb.keys).sorted().map { key in
            let x = fa[key]
            let y = fb[key]
            var row = Row(key: key, unit: ReportMetrics.unit(of: key), a: x, b: y)
            if let x, let y {
                row.difference = y - x
                row.percent = x != 0 ? (y - x) / abs(x) * 100 : nil
                if let direction = Self.direction(of: key, kind: a.kind) {
                    if abs(y - x) <= 1e-12 * max(1, abs(x)) {
                        row.verdict = .same
                    } else {
                        row.verdict = (y < x) == (direction == .lowerIsBetter) ? .better : .worse
                    }
                }
            }
            return row
        }
    }

    /// Which way `key` is better, or `nil` when it depends on what was asked (the distance
    /// scrolled, frames, Init pages, items loaded, options).
    ///
    /// Replay: less blank, fewer hitches and less hitch time, earlier first content, less time
    /// failed, less anchor drift, fewer violations, fewer failures / retries / stale answers,
    /// fewer More and prepend requests, fewer rows fetched and batches, less over-fetch.
    /// Load: lower latency, fewer errors, duplicates, skips, busy waits and failed sessions;
    /// higher pages and rows per second.
    public static func direction(of key: String, kind: ReportMetrics.Kind) -> Direction? {
        switch kind {
        case .replay:
            let lower = [
                "blank.", "hitches.count", "hitches.time_ratio_ms_per_s", "time_to_first_content_ms",
                "time_in_failed_ms",
                "anchor_drift_max_pt", "violations.count", "pages.failures", "pages.retries", "pages.stale_dropped",
                "pages.source_faults", "pages.more", "pages.prepend", "rows.fetched", "rows.batches",
                "rows.overfetch_ratio",
            ]
            return lower.contains { key == $0 || ($0.hasSuffix(".") && key.hasPrefix($0)) } ? .lowerIsBetter : nil
        case .load:
            if key.hasPrefix("latency.") && !key.hasSuffix(".count") { return .lowerIsBetter }
            if key.hasPrefix("errors.") || key == "consistency.duplicates" || key == "consistency.skips"
                || key == "busy_waits" || key == "sessions.failed" || key.hasPrefix("consistency.replay_violations.")
            {
                return .lowerIsBetter
            }
            if key == "pages_per_second" || key == "rows_per_second" { return .higherIsBetter }
            return nil
        }
    }

    private func cell(_ value: Double?, _ unit: String) -> String {
        value.map { ReportMetrics.format($0, unit: unit) } ?? "—"
    }

    private func difference(_ row: Row) -> String {
        guard let d = row.difference else { return "—" }
        let text = row.unit == "%" ? num(d * 100, 2) + " pp" : num(d, 3)
        return d > 0 ? "+" + text : text
    }

    private func percent(_ row: Row) -> String {
        guard let p = row.percent else { return "—" }
        return (p > 0 ? "+" : "") + num(p, 1) + " %"
    }

    /// Aligned text for the terminal.
    public var text: String {
        var lines = ["compare (\(kind.rawValue) reports)", "  A: \(fileA)", "  B: \(fileB)"]
        let differing = settings.filter(\.differs)
        lines.append(differing.isEmpty ? "settings: the same" : "settings that differ:")
        for s in differing { lines.append("  \(s.key): \(s.a ?? "—") → \(s.b ?? "—")") }
        let table =
            [["figure", "A", "B", "B − A", "%", "verdict"]]
            + rows.map {
                [
                    $0.key, cell($0.a, $0.unit), cell($0.b, $0.unit), difference($0), percent($0),
                    $0.verdict?.rawValue ?? "",
                ]
            }
        let widths = (0..<6).map { c in table.map { $0[c].count }.max() ?? 0 }
        for row in table {
            lines.append(
                row.enumerated().map { c, v in v.padding(toLength: widths[c], withPad: " ", startingAt: 0) }
                    .joined(separator: "  ").trimmingCharacters(in: .whitespaces))
        }
        let better = rows.filter { $0.verdict == .better }.count
        let worse = rows.filter { $0.verdict == .worse }.count
        lines.append("B against A: \(better) better, \(worse) worse")
        return lines.joined(separator: "\n") + "\n"
    }

    /// JSON with sorted keys: `kind`, `a`, `b`, `settings` (key, a, b, differs), `metrics`
    /// (key, unit, a, b, difference, percent, verdict; `null` where absent).
    public var json: String {
        typealias P = PerfettoTrace
        func opt(_ x: Double?) -> String { x.map { num($0, 6) } ?? "null" }
        func optS(_ s: String?) -> String { s.map(P.string) ?? "null" }
        let settingsJSON = settings.map {
            P.object([
                ("key", P.string($0.key)), ("a", optS($0.a)), ("b", optS($0.b)),
                ("differs", $0.differs ? "true" : "false"),
            ])
        }
        let metricsJSON = rows.map {
            P.object([
                ("key", P.string($0.key)), ("unit", P.string($0.unit)), ("a", opt($0.a)), ("b", opt($0.b)),
                ("difference", opt($0.difference)), ("percent", opt($0.percent)),
                ("verdict", optS($0.verdict?.rawValue)),
            ])
        }
        return P.object([
            ("kind", P.string(kind.rawValue)), ("a", P.string(fileA)), ("b", P.string(fileB)),
            ("settings", "[\n" + settingsJSON.joined(separator: ",\n") + "\n]"),
            ("metrics", "[\n" + metricsJSON.joined(separator: ",\n") + "\n]"),
        ]) + "\n"
    }

    /// A self-contained HTML page: the settings (differing ones highlighted) and the figures
    /// (better green, worse red).
    public var html: String {
        var body = "<p>A: <code>\(HTMLPage.escape(fileA))</code><br>B: <code>\(HTMLPage.escape(fileB))</code></p>\n"
        body += "<h2>Settings</h2>\n"
        body += HTMLPage.table(
            header: ["setting", "A", "B"], rows: settings.map { [$0.key, $0.a ?? "—", $0.b ?? "—"] }, id: "settings",
            rowClasses: settings.map { $0.differs ? "differs" : nil })
        body += "<h2>Figures</h2>\n"
        body += HTMLPage.table(
            header: ["figure", "A", "B", "B − A", "%", "verdict"],
            rows: rows.map {
                [
                    $0.key, cell($0.a, $0.unit), cell($0.b, $0.unit), difference($0), percent($0),
                    $0.verdict?.rawValue ?? "",
                ]
            },
            id: "figures",
            rowClasses: rows.map { $0.verdict == .better ? "better" : ($0.verdict == .worse ? "worse" : nil) })
        return HTMLPage.document(title: "FeedSim compare (\(kind.rawValue) reports)", body: body)
    }
}
