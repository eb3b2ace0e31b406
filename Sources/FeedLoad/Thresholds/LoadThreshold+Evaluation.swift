import FeedModel
import Foundation

/// One threshold checked against a run: the measured value beside the limit, and whether it held.
/// The `thresholds` array of the JSON report.
public struct ThresholdResult: Codable, Hashable, Sendable {
    /// The expression as given (`after.p99<50ms`).
    public var expression: String
    public var metric: String
    /// `p99`, `avg`, `count`, `rate`, …
    public var aggregate: String
    public var op: String
    /// The limit and the measured value in ``unit``: `ms`, `fraction`, `count`, `per_second` or `per_request`.
    public var limit: Double
    public var unit: String
    /// `nil` when the metric has no samples (the threshold then passes, as in k6).
    public var value: Double?
    public var passed: Bool

    private enum CodingKeys: String, CodingKey {
        case expression, metric, aggregate, op = "operator", limit, unit, value, passed
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(expression, forKey: .expression)
        try c.encode(metric, forKey: .metric)
        try c.encode(aggregate, forKey: .aggregate)
        try c.encode(op, forKey: .op)
        try c.encode(limit, forKey: .limit)
        try c.encode(unit, forKey: .unit)
        try c.encode(value, forKey: .value)  // null, not absent, when there are no samples
        try c.encode(passed, forKey: .passed)
    }

    /// `✓ after.p99<50ms  after.p99 = 0.412 ms` (or `no samples`).
    public var line: String {
        let measured = value.map { "\(metric).\(aggregate) = \(Self.format($0, unit: unit))" } ?? "no samples"
        return "\(passed ? "✓" : "✗") \(expression)  \(measured)"
    }

    /// A measured value or limit in `unit`, for a summary line (`0.412 ms`, `0.0123`, `12`, `3.50/s`).
    public static func format(_ value: Double, unit: String) -> String {
        switch unit {
        // Rounded to 0.1 µs first, as the report's latency table, so both print the same digits.
        case "ms": return LoadReport.fixed(LoadReport.round(value, 4), 3) + " ms"
        case "fraction", "per_request": return LoadReport.fixed(value, 4)
        case "per_second": return LoadReport.fixed(value, 2) + "/s"
        default: return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : LoadReport.fixed(value, 3)
        }
    }
}

/// What a threshold is measured on: a run's merged metrics (or a run so far), its dropped
/// arrivals and its wall time.
public struct ThresholdInputs: Sendable {
    public var metrics: LoadMetrics
    public var droppedIterations: Int
    public var elapsedSeconds: Double
    /// What the checks found in an HTTP feed API's answers (`--source`); `nil` for a database.
    public var answers: AnswerTally?

    public init(metrics: LoadMetrics, droppedIterations: Int, elapsedSeconds: Double, answers: AnswerTally? = nil) {
        self.metrics = metrics
        self.droppedIterations = droppedIterations
        self.elapsedSeconds = elapsedSeconds
        self.answers = answers
    }
}

extension LoadThreshold {
    /// The measured value in ``unit``, `nil` when the metric has no samples.
    ///
    /// Latencies and times to first content come from the histograms (within
    /// ``LatencyHistogram/relativeError``; min and max exact), the blank area from the histogram of
    /// the sessions' mean blank fractions (parts per million); percentiles by nearest rank.
    public func measure(_ inputs: ThresholdInputs) -> Double? {
        let m = inputs.metrics
        func fromHistogram(_ histogram: LatencyHistogram?, scale: Double) -> Double? {
            guard let histogram, histogram.count > 0 else { return nil }
            switch aggregate {
            case .percentile(let p): return histogram.value(atQuantile: p / 100).map { Double($0) / scale }
            case .avg: return histogram.mean.map { $0 / scale }
            case .min: return histogram.min.map { Double($0) / scale }
            case .max: return histogram.max.map { Double($0) / scale }
            case .count: return Double(histogram.count)
            case .rate: return inputs.elapsedSeconds > 0 ? Double(histogram.count) / inputs.elapsedSeconds : nil
            }
        }
        switch metric {
        case .query(let kind):
            return fromHistogram(m.latency[kind], scale: 1e6)
        case .pages:
            var pages = LatencyHistogram()
            for kind in [QueryKind.newest, .after, .before, .offset] {
                if let histogram = m.latency[kind] { pages.merge(histogram) }
            }
            return fromHistogram(pages, scale: 1e6)
        case .ttfc:
            return fromHistogram(m.timeToFirstContent, scale: 1e6)
        case .blank:
            return fromHistogram(m.blankFraction, scale: LoadMetrics.blankFractionScale)
        case .errors:
            let failed = m.errors.values.reduce(0, +)
            if aggregate == .count { return Double(failed) }
            let answered = m.latency.values.reduce(0) { $0 + Int($1.count) }
            return failed + answered > 0 ? Double(failed) / Double(failed + answered) : nil
        case .consistency:
            return m.sessionsChecked > 0 ? Double(m.consistency.duplicates + m.consistency.skips) : nil
        case .droppedIterations:
            if aggregate == .count { return Double(inputs.droppedIterations) }
            return inputs.elapsedSeconds > 0 ? Double(inputs.droppedIterations) / inputs.elapsedSeconds : nil
        case .apiProblems:
            guard let answers = inputs.answers else { return nil }
            if aggregate == .count { return Double(answers.problems) }
            return answers.requests > 0 ? Double(answers.problems) / Double(answers.requests) : nil
        }
    }

    /// Measures and compares: a threshold without samples passes (k6's rule).
    public func evaluate(_ inputs: ThresholdInputs) -> ThresholdResult {
        let value = measure(inputs)
        return ThresholdResult(
            expression: expression, metric: metric.name, aggregate: aggregate.name, op: op.rawValue,
            limit: LoadReport.round(limit, 6), unit: unit, value: value.map { LoadReport.round($0, 6) },
            passed: value.map { op.holds($0, limit) } ?? true)
    }
}
