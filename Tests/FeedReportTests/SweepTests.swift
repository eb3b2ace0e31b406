import FeedModel
import Foundation
import Testing

@testable import FeedReport

@Suite struct SweepTests {
    @Test func axesParseCommasOrBars() throws {
        #expect(try Sweep.Axis.parse("page-size=20,50") == Sweep.Axis(option: "page-size", values: ["20", "50"]))
        #expect(
            try Sweep.Axis.parse("--latency=lognormal:120,0.5|lognormal:300,0.5")
                == Sweep.Axis(option: "latency", values: ["lognormal:120,0.5", "lognormal:300,0.5"]))
        #expect(throws: SweepError.self) { try Sweep.Axis.parse("page-size") }
        #expect(throws: SweepError.self) { try Sweep.Axis.parse("page-size=20,,50") }
        #expect(throws: SweepError.repeatedValue(option: "page-size", value: "20")) {
            try Sweep.Axis.parse("page-size=20,50,20")
        }
        #expect(throws: SweepError.self) { try Sweep.Axis.parse("=20") }
    }

    @Test func combinationsVaryTheFirstAxisSlowest() {
        let combos = Sweep.combinations([
            Sweep.Axis(option: "a", values: ["1", "2"]), Sweep.Axis(option: "b", values: ["x", "y", "z"]),
        ])
        #expect(combos.map { $0.map(\.value).joined() } == ["1x", "1y", "1z", "2x", "2y", "2z"])
    }

    /// Brute force: a point is on the frontier when no other point is ≤ in both and < in one.
    func bruteForceFrontier(_ points: [(cost: Double, harm: Double)]) -> Set<Int> {
        Set(
            points.indices.filter { i in
                !points.indices.contains { j in
                    j != i && points[j].cost <= points[i].cost && points[j].harm <= points[i].harm
                        && (points[j].cost < points[i].cost || points[j].harm < points[i].harm)
                }
            })
    }

    @Test func frontierMatchesBruteForceOnRandomPoints() {
        var rng = SplitMix64(seed: 16)
        for _ in 0..<300 {
            let n = Int(rng.next() % 30) + 1
            // Small integer grids, so ties in cost, harm and whole points are common.
            let points = (0..<n).map { _ in (cost: Double(rng.next() % 8), harm: Double(rng.next() % 8) / 4) }
            #expect(Sweep.paretoFrontier(points) == bruteForceFrontier(points), "\(points)")
        }
    }

    @Test func frontierOfAHandDrawnSet() {
        // (1, 5) (2, 3) (3, 3) (4, 1) (5, 2): (3, 3) is dominated by (2, 3); (5, 2) by (4, 1).
        let points: [(cost: Double, harm: Double)] = [(1, 5), (2, 3), (3, 3), (4, 1), (5, 2)]
        #expect(Sweep.paretoFrontier(points) == [0, 1, 3])
    }

    @Test(arguments: [1, 2, 3, 8])
    func resultsComeInIndexOrderWhateverTheJobs(jobs: Int) throws {
        let results = try Sweep.run(count: 23, jobs: jobs) { i in i * i }
        #expect(results == (0..<23).map { $0 * $0 })
    }

    @Test func theLowestFailingJobsErrorIsThrown() {
        struct Failure: Error, Equatable { var index: Int }
        #expect(throws: Failure(index: 3)) {
            _ = try Sweep.run(count: 10, jobs: 1) { i in
                if i >= 3 { throw Failure(index: i) }
                return i
            }
        }
    }

    @Test func reportMarksTheFrontierPerTrace() {
        func row(_ c: Int, _ trace: String, requests: Int, p95: Double) -> SweepRow {
            SweepRow(
                combination: c, trace: trace, settings: ["\(c)"],
                figures: SweepFigures(
                    requests: requests, rowsFetched: 0, blankMean: 0, blankP95: p95, hitchRatio: 0,
                    timeToFirstContentMs: nil),
                isCurrent: c == 0)
        }
        // Trace a: (10, 0.5) (20, 0.1) (30, 0.3) → frontier 0, 1. Trace b alone: its single row is on its own frontier.
        let report = SweepReport(
            axes: [Sweep.Axis(option: "page-size", values: ["1", "2", "3"])],
            rows: [
                row(0, "a", requests: 10, p95: 0.5), row(1, "a", requests: 20, p95: 0.1),
                row(2, "a", requests: 30, p95: 0.3), row(0, "b", requests: 99, p95: 0.9),
            ],
            cost: .requests, harm: .blankP95)
        #expect(report.rows.map(\.onFrontier) == [true, true, false, true])
        #expect(
            report.csv.split(separator: "\n").first
                == "trace,page-size,requests,rows_fetched,blank_mean,blank_p95,hitch_ratio_ms_per_s,ttfc_ms,frontier,current"
        )
        #expect(report.csv.split(separator: "\n")[1] == "a,0,10,0,0,0.5,0,,1,1")
        #expect(occurrences(of: "class=\"point frontier", in: report.html) == 3)
        #expect(occurrences(of: " current\"", in: report.html) == 2)
        #expect(report.html == SweepReport(axes: report.axes, rows: report.rows, cost: .requests, harm: .blankP95).html)
    }

    @Test func figuresReadTheTimelinesBlankColumn() {
        let csv =
            "t_ms,offset_x,offset_y,first_visible,last_visible,loaded_items,blank_fraction,loads_in_flight,frame_cost_ms\n"
            + "0,0,0,,,0,1.0000,1,2\n16.667,0,0,0,5,30,0.2500,0,2\n"
        #expect(SweepFigures.blankFractions(timelineCSV: csv) == [1, 0.25])
    }
}
