import Foundation

/// The shell every FeedSim HTML report shares: one self-contained file, inline CSS and script, no
/// network. Text is escaped here; numbers are formatted by ``num(_:_:)`` so the bytes depend only
/// on the values.
enum HTMLPage {
    /// A complete document. `body` is trusted markup built by the report; `script` runs at the end.
    static func document(title: String, body: String, script: String = "") -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escape(title))</title>
        <style>\(css)</style>
        </head>
        <body>
        <h1>\(escape(title))</h1>
        \(body)
        <script>\(script)</script>
        </body>
        </html>

        """
    }

    /// `text` with `&`, `<`, `>`, `"` and `'` escaped, for element content and attribute values.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.count)
        for ch in text {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(ch)
            }
        }
        return out
    }

    /// A table from a header row and body rows; cells are escaped. `classes` gives a row's class.
    static func table(header: [String], rows: [[String]], id: String? = nil, rowClasses: [String?] = []) -> String {
        var html = "<table" + (id.map { " id=\"\(escape($0))\"" } ?? "") + "><thead><tr>"
        html += header.map { "<th>\(escape($0))</th>" }.joined() + "</tr></thead><tbody>\n"
        for (i, row) in rows.enumerated() {
            let cls = i < rowClasses.count ? rowClasses[i] : nil
            html += "<tr" + (cls.map { " class=\"\(escape($0))\"" } ?? "") + ">"
            html += row.map { "<td>\(escape($0))</td>" }.joined() + "</tr>\n"
        }
        return html + "</tbody></table>\n"
    }

    static let css = """
        body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;margin:16px 24px;color:#1d1d1f;background:#fff}
        h1{font-size:20px}h2{font-size:16px;margin-top:24px}
        table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #ddd;padding:3px 8px;text-align:left}
        th{background:#f4f4f6}td:not(:first-child){font-variant-numeric:tabular-nums}
        tr.better td{background:#e9f7ec}tr.worse td{background:#fdecea}tr.differs td{background:#fff7e0}
        tr.frontier td{font-weight:600}
        svg{display:block;margin:4px 0}svg text{font-size:11px;fill:#444}
        .axis{stroke:#999;stroke-width:1}.grid{stroke:#eee;stroke-width:1}
        .series{fill:none;stroke-width:1.5}
        .s0{stroke:#1f77b4}.s1{stroke:#ff7f0e}.s2{stroke:#2ca02c}.s3{stroke:#d62728}.s4{stroke:#9467bd}.s5{stroke:#8c564b}
        .f0{fill:#1f77b4}.f1{fill:#ff7f0e}.f2{fill:#2ca02c}.f3{fill:#d62728}.f4{fill:#9467bd}.f5{fill:#8c564b}
        .legend .f0{background:#1f77b4}.legend .f1{background:#ff7f0e}.legend .f2{background:#2ca02c}
        .legend .f3{background:#d62728}.legend .f4{background:#9467bd}.legend .f5{background:#8c564b}
        #summary-wrap{columns:2 420px}#summary-wrap table{margin:0}
        .budget{stroke:#d62728;stroke-dasharray:4 3;fill:none}
        .span{fill:#1f77b4;opacity:.75}.span.retry{fill:#ff7f0e}.span.failed{fill:#d62728}.span.rows{fill:#2ca02c}
        .hitch{fill:#d62728}.failmark{stroke:#d62728;stroke-width:2}
        .cursor{stroke:#000;stroke-width:1;opacity:.5}
        .stage-boundary{stroke:#9467bd;stroke-width:1;stroke-dasharray:2 2}
        .legend span{margin-right:14px;white-space:nowrap}.legend i{display:inline-block;width:12px;height:3px;margin-right:4px;vertical-align:middle}
        .cell{stroke:#555;stroke-width:.5}.cell.shown{fill:#9fd3a8}.cell.placeholder{fill:#e5e5ea}
        .cell.recycled{stroke:#8c564b;stroke-width:1.5;stroke-dasharray:3 2}
        .viewport{fill:none;stroke:#1f77b4;stroke-width:2}.prefetch{fill:none;stroke:#ff7f0e;stroke-dasharray:6 3}
        .preload{fill:none;stroke:#9467bd;stroke-dasharray:2 3}
        .point{fill:#1f77b4;opacity:.6}.point.frontier{fill:#d62728;opacity:1}.point.current{stroke:#000;stroke-width:2}
        #scrubber-controls{display:flex;gap:12px;align-items:center}#frame-slider{width:480px}
        .note{color:#666}
        """
}

/// A number as short text with at most `digits` decimals, no trailing zeros, `-0` as `0`:
/// the same value always prints the same bytes.
func num(_ x: Double, _ digits: Int = 3) -> String {
    guard x.isFinite else { return x.isNaN ? "NaN" : (x > 0 ? "Inf" : "-Inf") }
    var text = String(format: "%.\(digits)f", x)
    if text.contains(".") {
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
    }
    return text == "-0" ? "0" : text
}

/// Nearest-rank percentile (the smallest value with at least `p` of the values at or below it);
/// 0 for no values. Source: the nearest-rank method (NIST/SEMATECH e-Handbook, 7.2.6.2).
/// - Parameter p: 0...1.
public func nearestRankPercentile(_ values: [Double], _ p: Double) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    let rank = max(1, Int((p * Double(sorted.count)).rounded(.up)))
    return sorted[min(rank, sorted.count) - 1]
}

/// The HTML shell and escaping for pages built outside this module (the demo's index).
public enum HTMLEscape {
    /// `text` escaped for element content and attribute values.
    public static func text(_ text: String) -> String { HTMLPage.escape(text) }
    /// A complete self-contained page around trusted `body` markup.
    public static func document(title: String, body: String) -> String { HTMLPage.document(title: title, body: body) }
}
