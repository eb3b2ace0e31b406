import FeedReplay
import Foundation
import Testing

@testable import FeedReport

@Suite struct ReportComparisonTests {
    func metrics(_ report: ReplayReport, _ name: String) throws -> ReportMetrics {
        try ReportMetrics(json: try report.jsonData(), file: name)
    }

    @Test func everyFigureSideBySideWithDifferenceAndPercent() throws {
        // A: page size 30; B: page size 60 (Init 60 items, More at 200 → 120 items…).
        let (a, _) = try TinyReplay.run(record: false)
        let (b, _) = try TinyReplay.run(record: false, options: TinyReplay.options(pageSize: 60))
        let comparison = try ReportComparison(
            a: try metrics(a, "a.json"), b: try metrics(b, "b.json"), fileA: "a.json", fileB: "b.json")
        #expect(comparison.settings.first?.key == "page_size")
        #expect(comparison.settings.first?.a == "30" && comparison.settings.first?.b == "60")
        // The prefetch distance defaults to the page size (items:30 against items:60): it differs too.
        #expect(comparison.settings.filter(\.differs).map(\.key) == ["page_size", "prefetch"])
        let frames = try #require(comparison.rows.first { $0.key == "frames" })
        #expect(frames.a == 91 && frames.b == Double(b.frames))
        let more = try #require(comparison.rows.first { $0.key == "pages.more" })
        #expect(more.a == 3 && more.b == Double(b.pages.more))
        #expect(more.difference == Double(b.pages.more) - 3)
        // Percent of A: (b − a) / a × 100.
        #expect(more.percent == (Double(b.pages.more) - 3) / 3 * 100)
        // Every numeric figure of both reports is listed.
        #expect(comparison.rows.count == (try metrics(a, "a")).figures.count)
        // The final content offset and size are their coordinates (the JSON's [x, y] and [width, height]).
        let offsetY = try #require(comparison.rows.first { $0.key == "final.content_offset.y" })
        #expect(offsetY.a == a.final.contentOffset[1] && offsetY.b == b.final.contentOffset[1])
        let width = try #require(comparison.rows.first { $0.key == "final.content_size.width" })
        #expect(width.a == a.final.contentSize[0])
        #expect(!comparison.rows.contains { $0.key == "final.content_offset.count" || $0.key == "final.content_size.count" })
    }

    @Test(arguments: [
        ("blank.mean_fraction", 0.5, 0.25, ReportComparison.Verdict.better),
        ("blank.mean_fraction", 0.25, 0.5, .worse),
        ("hitches.count", 2, 2, .same),
        ("rows.fetched", 100, 120, .worse),
        ("time_to_first_content_ms", 400, 300, .better),
    ])
    func verdictsWhereBetterIsUnambiguous(key: String, a: Double, b: Double, verdict: ReportComparison.Verdict) throws {
        let comparison = try ReportComparison(a: try report([key: a]), b: try report([key: b]), fileA: "a", fileB: "b")
        #expect(comparison.rows.first { $0.key == key }?.verdict == verdict)
    }

    @Test func noVerdictWhereBetterDependsOnTheQuestion() throws {
        let comparison = try ReportComparison(
            a: try report(["distance_pt": 100, "frames": 10]), b: try report(["distance_pt": 200, "frames": 20]),
            fileA: "a", fileB: "b")
        #expect(comparison.rows.allSatisfy { $0.verdict == nil })
    }

    @Test func loadReportsCompareLatencyAndThroughput() throws {
        func load(_ p99: Double, _ pps: Double) throws -> ReportMetrics {
            let json =
                #"{"settings":{"sessions":8,"pagination":"keyset"},"latency":{"after":{"p99":\#(p99),"count":10}},"pages_per_second":\#(pps),"stopped_early":false}"#
            return try ReportMetrics(json: Data(json.utf8), file: "load.json")
        }
        let comparison = try ReportComparison(a: try load(2, 1000), b: try load(1, 1500), fileA: "a", fileB: "b")
        #expect(comparison.kind == .load)
        #expect(comparison.rows.first { $0.key == "latency.after.p99" }?.verdict == .better)
        #expect(comparison.rows.first { $0.key == "latency.after.p99" }?.percent == -50)
        #expect(comparison.rows.first { $0.key == "pages_per_second" }?.verdict == .better)
        #expect(comparison.rows.first { $0.key == "latency.after.count" }?.verdict == nil)
        #expect(comparison.rows.first { $0.key == "stopped_early" }?.a == 0)
    }

    @Test func aLoadReportsMergeFieldsAreNotComparedAsFigures() throws {
        let json = #"""
            {"settings":{"sessions":2},"latency":{"after":{"p99":2,"count":3}},"blank_mean_sum":0.5,
             "replays":{"finished":2,"blank_mean_fraction":0.25,"blank_mean_sum":0.5},
             "histograms":{"after":{"count":3,"sum":6000000,"buckets":[[1,3]]}},
             "timeline":[{"start_s":0,"end_s":1,"pages_per_second":3}]}
            """#
        let report = try ReportMetrics(json: Data(json.utf8), file: "load.json")
        let comparison = try ReportComparison(a: report, b: report, fileA: "a", fileB: "b")
        #expect(comparison.rows.map(\.key) == ["latency.after.count", "latency.after.p99", "replays.blank_mean_fraction", "replays.finished"])
    }

    @Test func aReplayAndALoadReportAreRefused() throws {
        let (a, _) = try TinyReplay.run(record: false)
        let load = try ReportMetrics(json: Data(#"{"settings":{},"latency":{}}"#.utf8), file: "load.json")
        #expect(throws: ReportInputError.self) {
            try ReportComparison(a: try metrics(a, "a.json"), b: load, fileA: "a.json", fileB: "load.json")
        }
        #expect(throws: ReportInputError(file: "x.json", reason: "expected a JSON object")) {
            try ReportMetrics(json: Data("[1]".utf8), file: "x.json")
        }
    }

    /// A truncated report: the place (line 3, after `  "blank": {`, 12 bytes) and what was
    /// expected, as the trace readers say it; never Foundation's "The data isn't in the correct format".
    @Test func aTruncatedReportIsRefusedWithItsLineAndColumn() throws {
        let text = "{\n  \"frames\": 3,\n  \"blank\": {"
        #expect(throws: ReportInputError(file: "ta.json:3:13", reason: "not JSON: unexpected end of the file inside an object")) {
            try ReportMetrics(json: Data(text.utf8), file: "ta.json")
        }
    }

    @Test func outputsAreDeterministic() throws {
        let (a, _) = try TinyReplay.run(record: false)
        let (b, _) = try TinyReplay.run(record: false, options: TinyReplay.options(latency: .fixed(ms: 300)))
        let one = try ReportComparison(a: try metrics(a, "a"), b: try metrics(b, "b"), fileA: "a", fileB: "b")
        let two = try ReportComparison(a: try metrics(a, "a"), b: try metrics(b, "b"), fileA: "a", fileB: "b")
        #expect(one.json == two.json && one.html == two.html && one.text == two.text)
        let parsed = try JSONSerialization.jsonObject(with: Data(one.json.utf8)) as? [String: Any]
        #expect((parsed?["metrics"] as? [Any])?.count == one.rows.count)
    }

    /// A minimal replay report's JSON with the given figures (dotted keys).
    func report(_ figures: [String: Double]) throws -> ReportMetrics {
        var root: [String: Any] = ["frames": 1, "blank": [String: Any](), "options": ["seed": "1"]]
        for (key, value) in figures {
            let parts = key.split(separator: ".").map(String.init)
            if parts.count == 1 {
                root[parts[0]] = value
            } else {
                var inner = root[parts[0]] as? [String: Any] ?? [:]
                inner[parts[1]] = value
                root[parts[0]] = inner
            }
        }
        return try ReportMetrics(json: try JSONSerialization.data(withJSONObject: root), file: "r.json")
    }
}
