import Foundation
import FeedModel

/// How long a simulated backend call takes, in milliseconds, drawn per request.
///
/// The store itself answers in microseconds; a latency model puts a realistic network and
/// backend delay in front of it. Every draw comes from the session's seeded generator.
public enum LatencyModel: Hashable, Sendable {
    /// Always `ms`.
    case fixed(ms: Double)
    /// Uniform in `[min, max]` ms.
    case uniform(min: Double, max: Double)
    /// Log-normal with the given median (ms) and σ of the underlying normal: `median · e^(σ·Z)`,
    /// Z standard normal (Box–Muller). Server latencies are commonly modelled as log-normal.
    case logNormal(median: Double, sigma: Double)
    /// A percentile table: `(percentile 0...100, ms)` pairs, strictly increasing in both; a draw picks
    /// a uniform percentile and interpolates linearly between neighbours (the inverse CDF), flat
    /// below the first and above the last entry.
    case percentiles([Percentile])

    /// One row of a percentile table.
    public struct Percentile: Hashable, Sendable {
        public var percentile: Double
        public var ms: Double
        public init(_ percentile: Double, _ ms: Double) {
            self.percentile = percentile
            self.ms = ms
        }
    }

    /// A latency draw, ms, never negative.
    public func sample(_ rng: inout SplitMix64) -> Double {
        switch self {
        case .fixed(let ms):
            return ms
        case .uniform(let low, let high):
            return low + (high - low) * rng.nextUnit()
        case .logNormal(let median, let sigma):
            // Box–Muller: Z = sqrt(-2 ln U1) · cos(2π U2), with U1 in (0, 1].
            let u1 = 1 - rng.nextUnit()
            let u2 = rng.nextUnit()
            let z = (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
            return median * exp(sigma * z)
        case .percentiles(let table):
            return Self.interpolate(table, at: 100 * rng.nextUnit())
        }
    }

    /// The inverse CDF of a percentile table at percentile `p` (0...100).
    static func interpolate(_ table: [Percentile], at p: Double) -> Double {
        guard let first = table.first, let last = table.last else { return 0 }
        if p <= first.percentile { return first.ms }
        if p >= last.percentile { return last.ms }
        for (low, high) in zip(table, table.dropFirst()) where p <= high.percentile {
            let f = (p - low.percentile) / (high.percentile - low.percentile)
            return low.ms + f * (high.ms - low.ms)
        }
        return last.ms
    }

    /// The largest latency a model may name, ms: 24 h, the longest trace a replay takes (an answer
    /// due later can never land; `fixed:1e300` ran a whole replay with "first content after never").
    public static let maximumMilliseconds = 86_400_000.0

    /// Parses the command-line form:
    /// `fixed:200`, `uniform:50,300`, `lognormal:120,0.6` (median ms, σ),
    /// `table:50=80,90=250,99=900` (percentile=ms, increasing).
    /// - Throws: ``ModelParseError`` naming the part that is wrong, or a latency above
    ///   ``maximumMilliseconds``.
    public static func parse(_ text: String) throws -> LatencyModel {
        let (name, args) = try splitModel(text, option: "--latency")
        func numbers(_ count: Int) throws -> [Double] {
            let parts = args.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == count, parts.allSatisfy({ $0 != nil && $0!.isFinite && $0! >= 0 }) else {
                throw ModelParseError(option: "--latency", text: text, reason: "\(name) takes \(count) non-negative number(s)")
            }
            // Milliseconds (a lognormal's sigma is the one that is not, and is never this large).
            guard parts.allSatisfy({ $0! <= maximumMilliseconds }) else {
                throw ModelParseError(
                    option: "--latency", text: text,
                    reason: "latencies are at most \(Int(maximumMilliseconds)) ms (24 h, the longest trace)")
            }
            return parts.map { $0! }
        }
        switch name {
        case "fixed":
            return .fixed(ms: try numbers(1)[0])
        case "uniform":
            let n = try numbers(2)
            guard n[0] <= n[1] else { throw ModelParseError(option: "--latency", text: text, reason: "min > max") }
            return .uniform(min: n[0], max: n[1])
        case "lognormal":
            let n = try numbers(2)
            guard n[0] > 0 else { throw ModelParseError(option: "--latency", text: text, reason: "median must be > 0") }
            return .logNormal(median: n[0], sigma: n[1])
        case "table":
            var rows: [Percentile] = []
            for part in args.split(separator: ",") {
                let pair = part.split(separator: "=")
                guard pair.count == 2, let p = Double(pair[0]), let ms = Double(pair[1]),
                    (0...100).contains(p), ms.isFinite, ms >= 0, ms <= maximumMilliseconds
                else {
                    throw ModelParseError(option: "--latency", text: text, reason: "table entry '\(part)' is not percentile=ms")
                }
                if let previous = rows.last, !(p > previous.percentile && ms >= previous.ms) {
                    throw ModelParseError(option: "--latency", text: text, reason: "table entries must increase")
                }
                rows.append(Percentile(p, ms))
            }
            guard !rows.isEmpty else { throw ModelParseError(option: "--latency", text: text, reason: "empty table") }
            return .percentiles(rows)
        default:
            throw ModelParseError(option: "--latency", text: text, reason: "unknown model '\(name)' (fixed, uniform, lognormal, table)")
        }
    }

    /// Text form for reports, the inverse of ``parse(_:)``.
    public var description: String {
        switch self {
        case .fixed(let ms): return "fixed:\(formatNumber(ms))"
        case .uniform(let a, let b): return "uniform:\(formatNumber(a)),\(formatNumber(b))"
        case .logNormal(let m, let s): return "lognormal:\(formatNumber(m)),\(formatNumber(s))"
        case .percentiles(let rows):
            return "table:" + rows.map { "\(formatNumber($0.percentile))=\(formatNumber($0.ms))" }.joined(separator: ",")
        }
    }
}

/// A model option (`--latency`, `--faults`, `--costs`) that could not be parsed.
public struct ModelParseError: Error, Equatable, CustomStringConvertible {
    public var option: String
    public var text: String
    public var reason: String
    public var description: String { "\(option) '\(text)': \(reason)" }
}

/// Splits `name:args` (args may be empty).
func splitModel(_ text: String, option: String) throws -> (String, Substring) {
    guard let colon = text.firstIndex(of: ":") else { return (text, "") }
    return (String(text[..<colon]), text[text.index(after: colon)...])
}

/// Shortest round-tripping decimal for a Double (`200`, not `200.0`), for stable text output.
func formatNumber(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return "\(value)"
}
