import FeedEngine
import FeedModel
import FeedReplay
import Foundation
import Testing

@testable import FeedLoad

/// `feedsim report merge`: segments' reports added exactly, checked against an oracle built from
/// every sample at once; reports of different runs refused.
@Suite struct LoadReportMergeTests {
    static func configuration(segment: LoadSegment?, seed: UInt64 = 3) -> LoadConfiguration {
        var configuration = LoadConfiguration(
            path: "feed.sqlite", feedName: "home", model: .closed(sessions: 6),
            replay: ReplayOptions(controller: FeedController.Configuration(pageSize: 10, initialLoadPages: 1)),
            timeScale: nil, workers: 2, seed: seed)
        configuration.iterations = 30
        configuration.segment = segment
        return configuration
    }

    /// A latency drawn log-uniformly from 1 µs to about 1 s, nanoseconds: every bucket width.
    static func draw(_ random: inout SplitMix64) -> UInt64 {
        UInt64(1_000 * Foundation.pow(2, random.nextUnit() * 20))
    }

    /// The exact nearest-rank quantile of `samples` (sorted), the brute-force way.
    static func nearestRank(_ sorted: [UInt64], _ q: Double) -> UInt64 {
        let rank = max(1, Int((q * Double(sorted.count)).rounded(.up)))
        return sorted[rank - 1]
    }

    static func roundTrip(_ report: LoadReport) throws -> LoadReport {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(LoadReport.self, from: Data(try report.json().utf8))
    }

    /// Three segments' metrics with random latency samples (seeded), their reports through JSON,
    /// and every sample per kind.
    static func segments(seed: UInt64) throws -> (parts: [(name: String, report: LoadReport)], samples: [QueryKind: [UInt64]]) {
        var random = SplitMix64(seed: seed)
        var samples: [QueryKind: [UInt64]] = [:]
        var parts: [(name: String, report: LoadReport)] = []
        for index in 1...3 {
            var metrics = LoadMetrics()
            for kind in [QueryKind.newest, .after, .rows] {
                for _ in 0..<(100 + Int(random.next() % 400)) {
                    let value = draw(&random)
                    metrics.record(kind, nanoseconds: value)
                    samples[kind, default: []].append(value)
                }
            }
            metrics.pages = 10 * index
            metrics.rows = 100 * index
            metrics.items = 10 * index
            metrics.errors = ["SQLITE_BUSY": index]
            metrics.recordReplay(blankMeanFraction: 0.25 * Double(index), timeToFirstContentMs: 40 * Double(index))
            var counts = SessionCounts()
            counts.started = index
            counts.completed = index
            let report = LoadReport(
                configuration: configuration(segment: LoadSegment(index: index, count: 3)), counts: counts,
                metrics: metrics, elapsed: .milliseconds(1_000 + 100 * index), stoppedEarly: false)
            parts.append(("s\(index).json", try roundTrip(report)))
        }
        return (parts, samples)
    }

    @Test(arguments: [UInt64(1), 2, 3, 4, 5])
    func mergedHistogramsEqualTheHistogramOfAllSamples(seed: UInt64) throws {
        let (parts, samples) = try Self.segments(seed: seed)
        var order = SplitMix64(seed: seed &+ 99)
        let merged = try LoadReport.merge(parts.shuffled(using: &order))  // in any order
        for (kind, values) in samples {
            var oracle = LatencyHistogram()
            for value in values { oracle.record(value) }
            #expect(merged.histograms?[kind.rawValue] == oracle.buckets, "\(kind)")
            let latency = try #require(merged.latency[kind.rawValue])
            #expect(latency.count == UInt64(values.count))
            let sorted = values.sorted()
            // Each percentile from the merged buckets lies within the histogram's error of the exact one.
            for (q, reported) in [(0.5, latency.p50), (0.9, latency.p90), (0.99, latency.p99), (0.999, latency.p999)] {
                let exact = Double(Self.nearestRank(sorted, q)) / 1e6
                #expect(abs(reported - exact) <= exact * LatencyHistogram.relativeError + 1e-4, "\(kind) p\(q)")
            }
            #expect(latency.max == LoadReport.round(Double(sorted.last!) / 1e6, 4))
            #expect(abs(latency.mean - Double(values.reduce(0, +)) / Double(values.count) / 1e6) <= 1e-4)
        }
        // Counters summed: pages 10 + 20 + 30, rows 100 + 200 + 300, errors 1 + 2 + 3, sessions 1 + 2 + 3.
        #expect(merged.pages == 60 && merged.rows == 600 && merged.items == 60)
        #expect(merged.errors == ["SQLITE_BUSY": 6])
        #expect(merged.sessions.started == 6 && merged.sessions.completed == 6)
        // Elapsed: the longest segment's, 1.3 s; pages per second over it: 60 / 1.3 = 46.2.
        #expect(abs(merged.elapsedSeconds - 1.3) < 1e-9 && merged.pagesPerSecond == 46.2)
        // Blank: (0.25 + 0.5 + 0.75) / 3 replays = 0.5; time to first content 40, 80, 120 ms → p50 80 ms.
        #expect(merged.replays.finished == 3 && merged.replays.blankMeanFraction == 0.5)
        let ttfc = try #require(merged.replays.timeToFirstContent)
        #expect(abs(ttfc.p50 - 80) <= 80 * LatencyHistogram.relativeError && ttfc.count == 3)
        #expect(merged.settings.segment == nil && merged.settings.workers == 6 && merged.settings.iterations == 30)
    }

    /// Three segments of a load against an HTTP API: their source sections add up (requests 10 +
    /// 20 + 30, problems 1 + 0 + 4 of two kinds, versions by name), the examples keep segment order,
    /// skips count as checked only when every segment checked them, and `api_problems` is measured
    /// again on the sum: 5 problems (each segment alone was under 5), 5 / 60 per request.
    @Test func theSourceSectionsOfSegmentsAddUpAndApiProblemsIsMeasuredOnTheSum() throws {
        var parts: [(name: String, report: LoadReport)] = []
        let problems: [[String: Int]] = [["out_of_order": 1], [:], ["out_of_order": 3, "http_status": 1]]
        for index in 1...3 {
            var configuration = Self.configuration(segment: LoadSegment(index: index, count: 3))
            configuration.thresholds = [try LoadThreshold.parse("api_problems<5"), try LoadThreshold.parse("api_problems.rate<0.08")]
            var counts = SessionCounts()
            counts.started = 1
            var report = LoadReport(
                configuration: configuration, counts: counts, metrics: LoadMetrics(), elapsed: .seconds(1), stoppedEarly: false,
                answers: AnswerTally(problems: problems[index - 1].values.reduce(0, +), requests: 10 * index))
            report.source = LoadReport.SourceProblems(
                url: "http://127.0.0.1:1/items", convention: "stripe", requests: 10 * index,
                httpVersions: index == 3 ? ["1.1": 20, "2": 10] : ["1.1": 10 * index], problems: problems[index - 1],
                examples: (0..<problems[index - 1].values.reduce(0, +)).map { "s\(index) e\($0)" }, skipsChecked: index != 2)
            // Alone: 1, 0 and 4 problems (< 5); 1 / 10 = 0.1 and 4 / 30 ≈ 0.133 per request fail < 0.08, 0 / 20 passes.
            #expect(report.thresholds.map(\.passed) == [true, index == 2])
            parts.append(("s\(index).json", try Self.roundTrip(report)))
        }
        let merged = try LoadReport.merge(parts)
        let source = try #require(merged.source)
        #expect(source.requests == 60)
        #expect(source.httpVersions == ["1.1": 50, "2": 10])
        #expect(source.problems == ["out_of_order": 4, "http_status": 1])
        #expect(source.examples == ["s1 e0", "s3 e0", "s3 e1", "s3 e2", "s3 e3"])
        #expect(!source.skipsChecked)
        #expect(merged.thresholds.map(\.value) == [5, LoadReport.round(5.0 / 60, 6)])
        #expect(merged.thresholds.map(\.passed) == [false, false])
    }

    /// A cumulative snapshot at `seconds`: `pages` pages, an `after` query per entry of `afterMs`,
    /// one finished replay per entry of `blank` (with the same entry of `ttfcMs`), `started` sessions.
    static func snapshot(
        _ seconds: Double, started: Int, pages: Int, afterMs: [UInt64], blank: [Double], ttfcMs: [Double]
    ) -> TimelineSampler.Sample {
        var metrics = LoadMetrics()
        metrics.pages = pages
        for ms in afterMs { metrics.record(.after, nanoseconds: ms * 1_000_000) }
        for (fraction, ttfc) in zip(blank, ttfcMs) { metrics.recordReplay(blankMeanFraction: fraction, timeToFirstContentMs: ttfc) }
        var counts = SessionCounts()
        counts.started = started
        return (SchedulerResult(counts: counts, metrics: metrics, elapsed: .milliseconds(Int64(seconds * 1000))), nil)
    }

    @Test func theStagesOfSegmentsMergeIntoTheStagesOfAllTheirSamples() throws {
        // Two 1-s stages ramping 0→6→0 sessions; segment k's snapshots at 0, 1 and 2 s. The oracle
        // is the stage report of snapshots holding every segment's samples at once.
        let ramp = LoadStages([LoadStage(durationSeconds: 1, target: 6), LoadStage(durationSeconds: 1, target: 0)])
        var random = SplitMix64(seed: 11)
        func draws(_ n: Int) -> [UInt64] { (0..<n).map { _ in 1 + random.next() % 900 } }
        var parts: [(name: String, report: LoadReport)] = []
        var all: [[UInt64]] = [[], [], []]
        var blanks: [[Double]] = [[], [], []]
        for index in 1...3 {
            let first = draws(20 * index)
            let second = draws(10 + index)
            let blank = [0.1 * Double(index), 0.05]
            let samples = [
                Self.snapshot(0, started: 0, pages: 0, afterMs: [], blank: [], ttfcMs: []),
                Self.snapshot(1, started: index, pages: 20 * index, afterMs: first, blank: [blank[0]], ttfcMs: [100]),
                Self.snapshot(
                    2, started: index + 1, pages: 20 * index + 10 + index, afterMs: first + second, blank: blank,
                    ttfcMs: [100, 300 * Double(index)]),
            ]
            all[1] += first
            all[2] += first + second
            blanks[1] += [blank[0]]
            blanks[2] += blank
            var report = LoadReport(
                configuration: Self.configuration(segment: LoadSegment(index: index, count: 3)), counts: SessionCounts(),
                metrics: samples[2].0.metrics, elapsed: .seconds(2), stoppedEarly: false)
            report.stages = LoadStageReport.stages(samples: samples, stages: ramp, perSecond: false)
            parts.append(("s\(index).json", try Self.roundTrip(report)))
        }
        let ttfc: [[Double]] = [[], [100, 100, 100], [100, 100, 100, 300, 600, 900]]
        let oracle = LoadStageReport.stages(
            samples: (0...2).map { t in
                Self.snapshot(
                    Double(t), started: [0, 6, 9][t], pages: [0, 120, 156][t], afterMs: all[t], blank: blanks[t],
                    ttfcMs: ttfc[t])
            }, stages: ramp, perSecond: false)
        let merged = try LoadReport.merge(parts.reversed())
        #expect(merged.stages.map(\.name) == ["1: 0→6", "2: 6→0"])
        // Blank sums are added in another order than the oracle's: equal to the last bit or two.
        func withoutSum(_ stages: [LoadStageReport]) -> [LoadStageReport] {
            stages.map { var stage = $0; stage.blankMeanSum = nil; return stage }
        }
        #expect(withoutSum(merged.stages) == withoutSum(oracle))
        for (m, o) in zip(merged.stages, oracle) { #expect(abs((m.blankMeanSum ?? -1) - (o.blankMeanSum ?? 1)) < 1e-12) }
        // By hand: stage 1 started 1 + 2 + 3 sessions and served 20 + 40 + 60 pages in 1 s; stage 2
        // 3 sessions and 11 + 12 + 13 pages; its replays' blank means 0.05 each.
        #expect(merged.stages.map(\.sessionsStarted) == [6, 3] && merged.stages.map(\.pages) == [120, 36])
        #expect(merged.stages.map(\.pagesPerSecond) == [120, 36])
        #expect(merged.stages[1].blankMeanFraction == 0.05 && merged.stages[0].replaysFinished == 3)
        #expect(merged.stages[1].latency["after"]?.count == UInt64((11 + 12 + 13)))
    }

    @Test func reportsOfDifferentRunsAreRefusedNamingTheSetting() throws {
        var (parts, _) = try Self.segments(seed: 1)
        var other = parts[1].report
        other.settings.seed = 4
        parts[1].report = other
        #expect {
            try LoadReport.merge(parts)
        } throws: { error in
            "\(error)" == "s2.json: not the same run as s1.json: seed (3 vs 4) differs; refusing to merge"
        }
    }

    @Test func aMissingARepeatedOrANonSegmentReportIsRefused() throws {
        let (parts, _) = try Self.segments(seed: 2)
        #expect { try LoadReport.merge(Array(parts.prefix(2))) } throws: {
            "\($0)" == "missing segment(s) 3/3 of the run: merge all 3"
        }
        #expect { try LoadReport.merge(parts + [(name: "again.json", report: parts[0].report)]) } throws: {
            "\($0)" == "again.json: segment 1/3 is also in s1.json"
        }
        var whole = parts[0].report
        whole.settings.segment = nil
        #expect { try LoadReport.merge([(name: "whole.json", report: whole)]) } throws: {
            "\($0)" == "whole.json: not a segment of a run (run each part with --segment I/N)"
        }
        var cutInTwo = parts[2].report
        cutInTwo.settings.segment = "2/2"
        #expect { try LoadReport.merge([parts[0], (name: "two.json", report: cutInTwo)]) } throws: {
            "\($0)" == "two.json: segment 2/2 is of a run cut into 2, s1.json's into 3: not the same run"
        }
        var noBuckets = parts[1].report
        noBuckets.histograms = nil
        #expect { try LoadReport.merge([parts[0], (name: "old.json", report: noBuckets), parts[2]]) } throws: {
            "\($0)" == "old.json: the report carries no histograms (written by an older feedsim)"
        }
    }

    /// A hand-edited counter trapped the merge (arithmetic overflow) or was added in (a negative count).
    @Test func countersPastIntMaxOrNegativeAreRefusedNamingTheField() throws {
        let (parts, _) = try Self.segments(seed: 3)
        var big = parts[1]
        big.report.pages = Int.max
        #expect { try LoadReport.merge([parts[0], big, parts[2]]) } throws: {
            "\($0)" == "pages: the segments' counts add up past 9223372036854775807"
        }
        var negative = parts[2]
        negative.report.sessions.started = -1
        #expect { try LoadReport.merge([parts[0], parts[1], negative]) } throws: {
            "\($0)" == "s3.json: sessions.started is -1: a count cannot be negative"
        }
        var errors = parts[0]
        errors.report.errors["busy"] = Int.max
        var moreErrors = parts[1]
        moreErrors.report.errors["busy"] = 1
        #expect { try LoadReport.merge([errors, moreErrors, parts[2]]) } throws: {
            "\($0)" == "errors.busy: the segments' counts add up past 9223372036854775807"
        }
    }

    @Test func histogramDataThatIsNoHistogramIsRefused() throws {
        var histogram = LatencyHistogram()
        for value: UInt64 in [5, 300, 301, 70_000] { histogram.record(value) }
        let data = histogram.buckets
        // 5 has a bucket of its own; 300 and 301 share [300, 302) (width 2); 70 000 lies in one of width 512.
        #expect(data.buckets.count == 3 && data.count == 4 && data.min == 5 && data.max == 70_000)
        #expect(try LatencyHistogram(buckets: data) == histogram)
        var wrongCount = data
        wrongCount.count = 5
        #expect(throws: LatencyHistogram.BucketsError.self) { try LatencyHistogram(buckets: wrongCount) }
        var unordered = data
        unordered.buckets.reverse()
        #expect(throws: LatencyHistogram.BucketsError.self) { try LatencyHistogram(buckets: unordered) }
        var badMax = data
        badMax.max = 6
        #expect(throws: LatencyHistogram.BucketsError.self) { try LatencyHistogram(buckets: badMax) }
    }
}

/// `--segment I/N` shares and `--iterations N` limits, by hand.
@Suite struct LoadSegmentTests {
    @Test func sharesOfACountAddUpAndFollowTheFloorFormula() {
        // 8 sessions in 3: ⌊8/3⌋ − 0 = 2, ⌊16/3⌋ − 2 = 3, 8 − 5 = 3.
        #expect((1...3).map { LoadSegment(index: $0, count: 3).share(of: 8) } == [2, 3, 3])
        #expect((1...3).map { LoadSegment(index: $0, count: 3).firstOfShare(8) } == [0, 2, 5])
        for total in 0...40 {
            for count in 1...7 {
                #expect((1...count).reduce(0) { $0 + LoadSegment(index: $1, count: count).share(of: total) } == total)
            }
        }
    }

    @Test func iterationsAreDealtOutLikeCards() {
        // 10 sessions in 3: 0,3,6,9 / 1,4,7 / 2,5,8.
        #expect((1...3).map { LoadSegment(index: $0, count: 3).sessions(ofIterations: 10) } == [4, 3, 3])
        #expect((1...4).map { LoadSegment(index: $0, count: 4).sessions(ofIterations: 2) } == [1, 1, 0, 0])
        for n in 0...30 {
            for count in 1...6 {
                for index in 1...count {
                    let segment = LoadSegment(index: index, count: count)
                    #expect(segment.sessions(ofIterations: n) == (0..<n).filter { segment.contains(session: $0) }.count)
                }
            }
        }
    }

    @Test func aRampsSessionsAreDealtOutSoTheSegmentsPartsAddUpAtEveryTarget() {
        // A ramp at 5 sessions in 3 segments: ranks 0, 3 / 1, 4 / 2 → 2, 2, 1; at 1 session only
        // segment 1 runs one (rank 0, as session 0 is segment 1's).
        #expect((1...3).map { Self.share($0, of: 3).part(of: 5) } == [2, 2, 1])
        #expect((1...3).map { Self.share($0, of: 3).part(of: 1) } == [1, 0, 0])
        #expect(SessionShare.all().part(of: 7) == 7)
        for total in 0...40 {
            for count in 1...7 {
                for index in 1...count {
                    // Brute force: the ranks below the target that are this segment's.
                    let dealt = (0..<total).filter { LoadSegment(index: index, count: count).contains(session: $0) }.count
                    #expect(Self.share(index, of: count).part(of: total) == dealt, "\(index)/\(count) of \(total)")
                }
            }
        }
    }

    /// The session numbers segment `index` of `count` starts.
    static func share(_ index: Int, of count: Int) -> SessionShare {
        LoadSegment(index: index, count: count).sessionShare
    }

    @Test(arguments: ["1/3", "3/3", "1/1", "10000/10000"])
    func validSegmentsParse(text: String) {
        #expect(LoadSegment(parsing: text)?.description == text)
    }

    @Test(arguments: ["0/3", "4/3", "1/0", "3", "1/3/3", "a/3", "/3", "1/", "-1/3", "+1/3", "1/10001", " 1/3"])
    func invalidSegmentsDoNotParse(text: String) {
        #expect(LoadSegment(parsing: text) == nil)
    }
}
