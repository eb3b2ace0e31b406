import Foundation

/// A pass/fail criterion on a load's figures, in k6's threshold syntax with the metric in front:
/// `METRIC[.AGGREGATE] OPERATOR VALUE[UNIT]`, e.g. `after.p99<50ms`, `errors.rate<0.01`,
/// `blank.p95<0.05`, `ttfc.p95<1s`, `consistency==0`.
///
/// k6's grammar (`metrics/thresholds_parser.go`, <https://grafana.com/docs/k6/latest/using-k6/thresholds/>):
/// an aggregation method (`avg`, `min`, `max`, `med`, `p(N)`, `count`, `rate`), an operator
/// (`<`, `<=`, `>`, `>=`, `==`, `===`, `!=`), a number; spaces around the operator are allowed.
/// FeedSim adds the metric's name before a dot (k6 keys thresholds by metric), `pN` beside `p(N)`
/// (`p95`, `p99.9`), and a unit after the number: `ms`, `s`, `us` for times (a bare number is
/// milliseconds, k6's convention), `%` for fractions.
///
/// Metrics, their aggregates and units:
/// | metric | what | aggregates |
/// |---|---|---|
/// | `newest`, `after`, `before`, `offset`, `rows`, `insert` | wall latency of that query kind, ms | p(N), med, avg, min, max; count (queries), rate (queries/s) |
/// | `pages` | wall latency of every page query (newest, after, before, offset), ms | as above |
/// | `ttfc` | time to first content of the finished replays, virtual ms | p(N), med, avg, min, max; count |
/// | `blank` | blank area of the finished replays: each session's mean blank fraction (0...1) | p(N), med, avg, min, max; count |
/// | `errors` | failed queries | rate (failed / all queries, 0...1), count |
/// | `consistency` | duplicates + skips over every walk checked | count (the default) |
/// | `dropped_iterations` | open-model arrivals that found no free slot (k6's name) | count (the default), rate (per s) |
/// | `api_problems` | what the checks found wrong in an HTTP feed API's answers (`--source`; the report's "API problems") | count (the default), rate (problems / requests) |
///
/// A threshold on a metric without samples (no `before` page was ever asked for) passes and is
/// shown as having no data, as k6 skips a threshold whose sink is empty (`Threshold.runNoTaint`).
public struct LoadThreshold: Hashable, Sendable, CustomStringConvertible {
    public enum Metric: Hashable, Sendable {
        case query(QueryKind)
        case pages, ttfc, blank, errors, consistency, droppedIterations, apiProblems

        /// The name used in expressions and reports.
        public var name: String {
            switch self {
            case .query(let kind): kind.rawValue
            case .pages: "pages"
            case .ttfc: "ttfc"
            case .blank: "blank"
            case .errors: "errors"
            case .consistency: "consistency"
            case .droppedIterations: "dropped_iterations"
            case .apiProblems: "api_problems"
            }
        }

        /// Every metric, in the order `--help` lists them.
        public static let all: [Metric] =
            QueryKind.allCases.map { .query($0) } + [.pages, .ttfc, .blank, .errors, .consistency, .droppedIterations, .apiProblems]

        /// Whether its values are times (milliseconds), which take `ms`, `s`, `us`.
        var isTime: Bool {
            switch self {
            case .query, .pages, .ttfc: true
            case .blank, .errors, .consistency, .droppedIterations, .apiProblems: false
            }
        }

        /// The aggregates it supports, by name as `--help` lists them.
        var aggregateNames: [String] {
            switch self {
            case .query, .pages: ["p(N)", "pN", "med", "avg", "min", "max", "count", "rate"]
            case .ttfc, .blank: ["p(N)", "pN", "med", "avg", "min", "max", "count"]
            case .errors: ["rate", "count"]
            case .consistency: ["count"]
            case .droppedIterations: ["count", "rate"]
            case .apiProblems: ["count", "rate"]
            }
        }

        func supports(_ aggregate: Aggregate) -> Bool {
            switch (self, aggregate) {
            case (.query, _), (.pages, _): true
            case (.ttfc, .rate), (.blank, .rate): false
            case (.ttfc, _), (.blank, _): true
            case (.errors, .rate), (.errors, .count): true
            case (.errors, _): false
            case (.consistency, .count): true
            case (.consistency, _): false
            case (.droppedIterations, .count), (.droppedIterations, .rate): true
            case (.droppedIterations, _): false
            case (.apiProblems, .count), (.apiProblems, .rate): true
            case (.apiProblems, _): false
            }
        }

        /// The aggregate an expression without one means: the counters' count.
        var defaultAggregate: Aggregate? {
            switch self {
            case .consistency, .droppedIterations, .apiProblems: .count
            case .query, .pages, .ttfc, .blank, .errors: nil
            }
        }
    }

    public enum Aggregate: Hashable, Sendable {
        /// The value at percentile `N` (0...100) by nearest rank; `med` is `percentile(50)`.
        case percentile(Double)
        case avg, min, max, count, rate

        public var name: String {
            switch self {
            case .percentile(let p): "p" + Self.number(p)
            case .avg: "avg"
            case .min: "min"
            case .max: "max"
            case .count: "count"
            case .rate: "rate"
            }
        }

        static func number(_ v: Double) -> String {
            v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v)
        }
    }

    /// k6's operators; `===` is read as `==` (k6 treats them alike on numbers).
    public enum Operator: String, CaseIterable, Hashable, Sendable {
        case lessOrEqual = "<="
        case less = "<"
        case greaterOrEqual = ">="
        case greater = ">"
        case equal = "=="
        case notEqual = "!="

        public func holds(_ value: Double, _ limit: Double) -> Bool {
            switch self {
            case .less: value < limit
            case .lessOrEqual: value <= limit
            case .greater: value > limit
            case .greaterOrEqual: value >= limit
            case .equal: value == limit
            case .notEqual: value != limit
            }
        }
    }

    /// The expression as given (spaces trimmed).
    public var expression: String
    public var metric: Metric
    public var aggregate: Aggregate
    public var op: Operator
    /// The limit in the metric's unit: milliseconds for times, a fraction (0...1) for blank area
    /// and the error rate, a count, or per second for a rate of queries or drops.
    public var limit: Double

    public var description: String { expression }

    /// The unit of measured values and of ``limit``: `ms`, `fraction`, `count`, `per_second` or `per_request`.
    public var unit: String {
        switch aggregate {
        case .count: return "count"
        case .rate:
            switch metric {
            case .errors: return "fraction"
            case .apiProblems: return "per_request"  // a page can have several problems: above 1 is possible
            default: return "per_second"
            }
        case .percentile, .avg, .min, .max: return metric.isTime ? "ms" : "fraction"
        }
    }
}

/// A `--threshold` expression that cannot be used: malformed, an unknown metric or aggregate,
/// or a unit the metric does not take. A usage error (exit 64) before any work.
public struct LoadThresholdParseError: Error, CustomStringConvertible, Equatable, Sendable {
    public var expression: String
    public var reason: String
    public var description: String { "'\(expression)': \(reason)" }
}

extension LoadThreshold {
    /// Parses one expression (see the type's table).
    /// - Throws: ``LoadThresholdParseError`` saying what is wrong.
    public static func parse(_ text: String) throws -> LoadThreshold {
        let expression = text.trimmingCharacters(in: .whitespaces)
        func fail(_ reason: String) -> LoadThresholdParseError {
            LoadThresholdParseError(expression: expression, reason: reason)
        }
        // Scan: the operator starts at the first of < > = !, and is the longest token there
        // (`<=` before `<`, `===` before `==`), as k6's scanner tries the longer tokens first.
        guard let opStart = expression.firstIndex(where: { "<>=!".contains($0) }) else {
            throw fail("no operator (one of < <= > >= == !=), expected e.g. after.p99<50ms")
        }
        let afterOp = expression[opStart...]
        let tokens: [(String, Operator)] = [
            ("===", .equal), ("<=", .lessOrEqual), (">=", .greaterOrEqual), ("==", .equal), ("!=", .notEqual),
            ("<", .less), (">", .greater),
        ]
        guard let (token, op) = tokens.first(where: { afterOp.hasPrefix($0.0) }) else {
            throw fail("'\(afterOp.prefix(2))' is not an operator (< <= > >= == !=)")
        }
        let left = expression[..<opStart].trimmingCharacters(in: .whitespaces)
        let right = afterOp.dropFirst(token.count).trimmingCharacters(in: .whitespaces)
        guard !left.isEmpty else { throw fail("no metric before '\(token)'") }
        guard !right.isEmpty else { throw fail("no value after '\(token)'") }

        // Left: METRIC or METRIC.AGGREGATE (the aggregate may hold a dot: p99.9).
        let dot = left.firstIndex(of: ".")
        let metricName = String(left[..<(dot ?? left.endIndex)])
        guard let metric = Metric.all.first(where: { $0.name == metricName }) else {
            throw fail(
                "unknown metric '\(metricName)' (\(Metric.all.map(\.name).joined(separator: ", ")))")
        }
        let aggregate: Aggregate
        if let dot {
            let name = String(left[left.index(after: dot)...])
            guard let parsed = parseAggregate(name) else {
                throw fail(
                    "unknown aggregate '\(name)' for \(metric.name) (\(metric.aggregateNames.joined(separator: ", ")))")
            }
            if case .percentile(let p) = parsed, !(0...100).contains(p) {
                throw fail("percentile \(Aggregate.number(p)) is outside 0...100")
            }
            guard metric.supports(parsed) else {
                throw fail(
                    "\(metric.name) has no aggregate '\(name)' (\(metric.aggregateNames.joined(separator: ", ")))")
            }
            aggregate = parsed
        } else {
            guard let defaultAggregate = metric.defaultAggregate else {
                let example = metric.aggregateNames.first { $0 != "p(N)" } ?? "count"
                throw fail(
                    "\(metric.name) needs an aggregate, e.g. \(metric.name).\(example) "
                        + "(\(metric.aggregateNames.joined(separator: ", ")))")
            }
            aggregate = defaultAggregate
        }

        // Right: a number and an optional unit.
        var threshold = LoadThreshold(expression: expression, metric: metric, aggregate: aggregate, op: op, limit: 0)
        let takesTime = threshold.unit == "ms"
        let takesPercent = threshold.unit == "fraction"
        // (suffix, multiplier, divisor): a division by 100 or 1000 is exact where × 0.01 is not
        // (10.5 × 0.01 ≠ 0.105 in binary floating point, 10.5 / 100 is).
        let units: [(String, Double, Double)] = [
            ("ms", 1, 1), ("us", 1, 1000), ("µs", 1, 1000), ("s", 1000, 1), ("%", 1, 100),
        ]
        var number = right
        var (multiplier, divisor) = (1.0, 1.0)
        if let (suffix, times, over) = units.first(where: { right.hasSuffix($0.0) }) {
            switch suffix {
            case "%":
                guard takesPercent else { throw fail("'%' applies to fractions (blank, errors.rate), not \(left)") }
            default:
                guard takesTime else {
                    let what =
                        switch threshold.unit {
                        case "count": "a count"
                        case "per_second": "a rate per second"
                        case "per_request": "a rate per request"
                        default: "a fraction"
                        }
                    throw fail("'\(suffix)' is a time unit; \(left) is \(what)")
                }
            }
            number.removeLast(suffix.count)
            number = number.trimmingCharacters(in: .whitespaces)
            (multiplier, divisor) = (times, over)
        }
        guard number.allSatisfy({ $0.isNumber || "+-.eE".contains($0) }), let value = Double(number), value.isFinite else {
            throw fail("'\(right)' is not a number\(takesTime ? " (with ms, s or us)" : "")")
        }
        threshold.limit = value * multiplier / divisor
        // A fraction lies in 0...1 (0 %...100 %): a limit past either end makes a threshold that can
        // never fail, or never pass, whatever the run measures.
        if takesPercent, !(0...1).contains(threshold.limit) {
            throw fail("\(left) is a fraction: the limit must be 0...1 or 0%...100%, got '\(right)'")
        }
        // Counts, rates and times are never negative: such a limit would decide the run before it ran.
        if threshold.limit < 0 {
            throw fail("\(left) is never negative: the limit must be 0 or more, got '\(right)'")
        }
        return threshold
    }

    /// `p95`, `p(95)`, `p99.9`, `med`, `avg`, `min`, `max`, `count`, `rate`.
    static func parseAggregate(_ name: String) -> Aggregate? {
        switch name {
        case "avg": return .avg
        case "min": return .min
        case "max": return .max
        case "med": return .percentile(50)
        case "count": return .count
        case "rate": return .rate
        default:
            guard name.hasPrefix("p"), name.count > 1 else { return nil }
            var digits = name.dropFirst()
            if digits.hasPrefix("(") {
                guard digits.hasSuffix(")") else { return nil }
                digits = digits.dropFirst().dropLast()
            }
            guard !digits.isEmpty, digits.allSatisfy({ $0.isNumber || $0 == "." }), let p = Double(digits) else {
                return nil
            }
            return .percentile(p)
        }
    }
}
