import Foundation
import FeedModel
import Testing

@testable import FeedLoad

/// `--threshold` expressions: k6's grammar (`metrics/thresholds_parser.go`: aggregation method,
/// operator, number; longer operators matched first) with FeedSim's metric in front and a unit
/// after the number; every malformed or unknown part is an error naming it.
@Suite struct LoadThresholdTests {
    typealias T = LoadThreshold

    @Test(arguments: [
        ("after.p99<50ms", T.Metric.query(.after), T.Aggregate.percentile(99), T.Operator.less, 50.0),
        ("rows.p95<20ms", .query(.rows), .percentile(95), .less, 20),
        ("errors.rate<0.01", .errors, .rate, .less, 0.01),
        ("blank.p95<0.05", .blank, .percentile(95), .less, 0.05),
        ("ttfc.p95<1s", .ttfc, .percentile(95), .less, 1000),
        ("consistency==0", .consistency, .count, .equal, 0),
        // k6's spellings: p(N), med, ===, spaces around the operator.
        ("newest.p(99.9) <= 250", .query(.newest), .percentile(99.9), .lessOrEqual, 250),
        ("before.med >= 1.5ms", .query(.before), .percentile(50), .greaterOrEqual, 1.5),
        ("insert.avg===2", .query(.insert), .avg, .equal, 2),
        ("offset.max!=0", .query(.offset), .max, .notEqual, 0),
        ("pages.min>250us", .pages, .min, .greater, 0.25),
        ("pages.rate>=100", .pages, .rate, .greaterOrEqual, 100),
        ("after.count>10", .query(.after), .count, .greater, 10),
        ("blank.avg<2%", .blank, .avg, .less, 0.02),
        ("errors.rate<=0.5%", .errors, .rate, .lessOrEqual, 0.005),
        ("errors.count==0", .errors, .count, .equal, 0),
        ("ttfc.p0<1e3", .ttfc, .percentile(0), .less, 1000),
        ("dropped_iterations<1", .droppedIterations, .count, .less, 1),
        ("dropped_iterations.rate<0.5", .droppedIterations, .rate, .less, 0.5),
        ("api_problems==0", .apiProblems, .count, .equal, 0),
        ("api_problems.rate<0.01", .apiProblems, .rate, .less, 0.01),
        ("  consistency.count == 0  ", .consistency, .count, .equal, 0),
    ])
    func expressionsParseIntoMetricAggregateOperatorAndLimit(
        text: String, metric: T.Metric, aggregate: T.Aggregate, op: T.Operator, limit: Double
    ) throws {
        let threshold = try T.parse(text)
        #expect(threshold.metric == metric)
        #expect(threshold.aggregate == aggregate)
        #expect(threshold.op == op)
        #expect(abs(threshold.limit - limit) < 1e-12, "\(threshold.limit)")
        #expect(threshold.expression == text.trimmingCharacters(in: .whitespaces))
    }

    @Test(arguments: [
        ("after.p99", "no operator"),
        ("after.p99 50ms", "no operator"),
        ("after.p99=50", "'=5' is not an operator"),
        ("after.p99!50", "'!5' is not an operator"),
        ("<50ms", "no metric before '<'"),
        ("after.p99<", "no value after '<'"),
        ("latency.p99<50ms", "unknown metric 'latency'"),
        ("After.p99<50ms", "unknown metric 'After'"),
        ("after.p<50ms", "unknown aggregate 'p'"),
        ("after.p()<50ms", "unknown aggregate 'p()'"),
        ("after.p(99<50ms", "unknown aggregate 'p(99'"),
        ("after.pabc<50ms", "unknown aggregate 'pabc'"),
        ("after.mean<50ms", "unknown aggregate 'mean'"),
        ("after.p101<50ms", "percentile 101 is outside 0...100"),
        ("after.<50ms", "unknown aggregate ''"),
        ("consistency.p99<1", "consistency has no aggregate 'p99'"),
        ("errors.p99<1", "errors has no aggregate 'p99'"),
        ("blank.rate<1", "blank has no aggregate 'rate'"),
        ("ttfc.rate<1", "ttfc has no aggregate 'rate'"),
        ("dropped_iterations.avg<1", "dropped_iterations has no aggregate 'avg'"),
        ("api_problems.p99<1", "api_problems has no aggregate 'p99'"),
        ("api_problems.rate<1%", "'%' applies to fractions"),
        ("api_problems.rate<0.1ms", "'ms' is a time unit; api_problems.rate is a rate per request"),
        ("api_problems.count<-1", "api_problems.count is never negative: the limit must be 0 or more, got '-1'"),
        ("after.p99<-5ms", "after.p99 is never negative"),
        ("after<50ms", "after needs an aggregate"),
        ("blank<0.05", "blank needs an aggregate"),
        ("after.p99<50 ms x", "'50 ms x' is not a number"),
        ("after.p99<fast", "'fast' is not a number"),
        ("after.p99<nan", "'nan' is not a number"),
        ("after.p99<infms", "'infms' is not a number"),
        ("after.p99<50km", "'50km' is not a number"),
        ("after.p99<5%", "'%' applies to fractions"),
        ("blank.p95<5ms", "'ms' is a time unit; blank.p95 is a fraction"),
        ("after.count<5s", "'s' is a time unit; after.count is a count"),
        ("pages.rate>5s", "'s' is a time unit; pages.rate is a rate per second"),
        ("consistency==0ms", "'ms' is a time unit; consistency is a count"),
    ])
    func everyMalformedExpressionIsAnErrorSayingWhatIsWrong(text: String, fragment: String) {
        do {
            _ = try T.parse(text)
            Issue.record("'\(text)' parsed")
        } catch let error as LoadThresholdParseError {
            #expect(error.description.contains(fragment), "\(error)")
            #expect(error.description.hasPrefix("'\(text.trimmingCharacters(in: .whitespaces))': "))
        } catch {
            Issue.record("\(error)")
        }
    }

    /// After latencies 1, 2, …, 100 ms over 10 s; one failed query of 101 (100 answered).
    private func metrics() -> ThresholdInputs {
        var metrics = LoadMetrics()
        for ms in 1...100 { metrics.record(.after, nanoseconds: UInt64(ms) * 1_000_000) }
        metrics.recordError(CocoaError(.fileNoSuchFile))
        // 20 finished replays, blank fractions 0.01, 0.02, …, 0.20; time to first content 10, 20, …, 200 ms.
        for k in 1...20 {
            metrics.recordReplay(blankMeanFraction: Double(k) / 100, timeToFirstContentMs: Double(k * 10))
        }
        metrics.sessionsChecked = 20
        metrics.consistency = ConsistencyCount(duplicates: 2, skips: 1)
        return ThresholdInputs(metrics: metrics, droppedIterations: 5, elapsedSeconds: 10)
    }

    /// Nearest rank on 1…100 ms: p99 = rank 99 → 99 ms, p50 = 50 ms, p90 = 90 ms (the histogram
    /// within 1/256 of it); mean (1 + … + 100) / 100 = 50.5 ms exactly; min 1 ms and max 100 ms exact.
    @Test(arguments: [
        ("after.p99<99.5ms", true, 99.0), ("after.p99<98.5ms", false, 99.0), ("after.p50<=50.2", true, 50.0),
        ("after.p90>89.5ms", true, 90.0), ("after.avg==50.5ms", true, 50.5), ("after.min==1ms", true, 1.0),
        ("after.max<0.1s", false, 100.0), ("after.max<=0.1s", true, 100.0), ("after.count==100", true, 100.0),
        ("after.rate==10", true, 10.0), ("pages.p99<99.5ms", true, 99.0),
        // 1 failed of 101 queries; 1 counted.
        ("errors.rate<0.01", true, 1.0 / 101), ("errors.rate<0.009", false, 1.0 / 101), ("errors.count==1", true, 1),
        // Blank fractions 0.01…0.20: p95 = rank 19 → 0.19; mean 0.105.
        ("blank.p95<0.195", true, 0.19), ("blank.p95<0.185", false, 0.19), ("blank.avg==10.5%", true, 0.105),
        ("blank.count==20", true, 20),
        // Time to first content 10…200 ms: p95 = rank 19 → 190 ms; p50 = rank 10 → 100 ms.
        ("ttfc.p95<0.2s", true, 190.0), ("ttfc.p95<189ms", false, 190.0), ("ttfc.med<101ms", true, 100.0),
        ("consistency==0", false, 3), ("consistency<=3", true, 3),
        ("dropped_iterations<5", false, 5), ("dropped_iterations.rate==0.5", true, 0.5),
    ] as [(String, Bool, Double)])
    func thresholdsAreMeasuredOnTheRunsHistogramsAndCounters(text: String, passes: Bool, expected: Double) throws {
        let threshold = try T.parse(text)
        let result = threshold.evaluate(metrics())
        let value = try #require(result.value)
        #expect(abs(value - expected) <= expected * LatencyHistogram.relativeError + 1e-6, "\(text): \(value)")
        #expect(result.passed == passes, "\(text): \(value)")
        #expect(result.expression == text)
    }

    /// `api_problems` on an HTTP API's tally: 3 problems in 40 requests are a count of 3 and a rate
    /// of 3 / 40 = 0.075 per request; a run over a database has no tally, so no samples.
    @Test func apiProblemsAreMeasuredOnTheSourcesTally() throws {
        var inputs = metrics()
        #expect(try T.parse("api_problems==0").evaluate(inputs).value == nil)
        inputs.answers = AnswerTally(problems: 3, requests: 40)
        let count = try T.parse("api_problems==0").evaluate(inputs)
        #expect(count.value == 3 && !count.passed && count.unit == "count")
        let rate = try T.parse("api_problems.rate<0.1").evaluate(inputs)
        #expect(rate.value == 0.075 && rate.passed && rate.unit == "per_request")
        #expect(rate.line == "✓ api_problems.rate<0.1  api_problems.rate = 0.0750")
        inputs.answers = AnswerTally(problems: 0, requests: 0)
        #expect(try T.parse("api_problems.rate<0.1").evaluate(inputs).value == nil)
    }

    @Test func aThresholdOnAMetricWithoutSamplesPassesWithNoValueAsInK6() throws {
        let result = try T.parse("before.p99<1ms").evaluate(metrics())
        #expect(result.value == nil)
        #expect(result.passed)
        #expect(result.line == "✓ before.p99<1ms  no samples")
        let failing = try T.parse("after.p99<1ms").evaluate(metrics())
        #expect(!failing.passed)
        // 99 ms falls in the histogram bucket [98.566144, 99.090432) ms, whose middle is reported.
        #expect(failing.line == "✗ after.p99<1ms  after.p99 = 98.828 ms")
        #expect(failing.unit == "ms" && failing.limit == 1)
    }

    @Test func theJSONFormHasTheFieldsAndANullForNoSamples() throws {
        let results = [
            try T.parse("consistency==0").evaluate(metrics()), try T.parse("offset.p99<1s").evaluate(metrics()),
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(results), as: UTF8.self)
        #expect(
            json == #"[{"aggregate":"count","expression":"consistency==0","limit":0,"metric":"consistency","operator":"==","passed":false,"unit":"count","value":3},"#
                + #"{"aggregate":"p99","expression":"offset.p99<1s","limit":1000,"metric":"offset","operator":"<","passed":true,"unit":"ms","value":null}]"#)
    }
}
