import FeedModel

/// Which simulated backend calls fail, and how.
///
/// Faults sit between the replay and the real store: the store still answers, but the
/// response is replaced by an error (after the drawn latency) or by a timeout (after
/// `timeoutMs`). Scheduled failures make a run reproduce one exact incident.
public struct FaultModel: Hashable, Sendable {
    /// Probability (0...1) that a call fails with a server error after its latency.
    public var errorRate: Double
    /// Probability (0...1) that a call never answers and fails after `timeoutMs`.
    public var timeoutRate: Double
    /// How long a timed-out call takes to fail, ms.
    public var timeoutMs: Double
    /// Calls issued in `[start, end)` ms all fail (an outage window).
    public var outages: [Range<Double>]

    public init(errorRate: Double = 0, timeoutRate: Double = 0, timeoutMs: Double = 10_000, outages: [Range<Double>] = []) {
        self.errorRate = errorRate
        self.timeoutRate = timeoutRate
        self.timeoutMs = timeoutMs
        self.outages = outages
    }

    /// No faults.
    public static let none = FaultModel()

    /// What happens to one call.
    public enum Outcome: Equatable, Sendable {
        case success
        case error
        case timeout
    }

    /// Decides the outcome of a call issued at `t` ms. Draws from `rng` only when a rate is set,
    /// so adding a fault model with zero rates does not change other draws.
    public func outcome(issuedAt t: Double, _ rng: inout SplitMix64) -> Outcome {
        if outages.contains(where: { $0.contains(t) }) { return .error }
        if timeoutRate > 0, rng.nextUnit() < timeoutRate { return .timeout }
        if errorRate > 0, rng.nextUnit() < errorRate { return .error }
        return .success
    }

    /// Text form for reports, the inverse of ``parse(_:)``.
    public var description: String {
        var parts: [String] = []
        if errorRate > 0 { parts.append("error=\(formatNumber(errorRate))") }
        if timeoutRate > 0 { parts.append("timeout=\(formatNumber(timeoutRate))") }
        if timeoutMs != FaultModel.none.timeoutMs { parts.append("timeout-ms=\(formatNumber(timeoutMs))") }
        for outage in outages { parts.append("outage=\(formatNumber(outage.lowerBound))-\(formatNumber(outage.upperBound))") }
        return parts.isEmpty ? "none" : parts.joined(separator: ",")
    }

    /// Parses `error=0.05,timeout=0.01,timeout-ms=3000,outage=2000-4000,outage=9000-9500`
    /// (any subset, comma separated; `none` for no faults). `outage` may repeat; every other key
    /// is given at most once (a second value would silently replace the first).
    /// - Throws: ``ModelParseError`` naming the bad entry.
    public static func parse(_ text: String) throws -> FaultModel {
        var model = FaultModel()
        if text == "none" || text.isEmpty { return model }
        func fail(_ reason: String) -> ModelParseError { ModelParseError(option: "--faults", text: text, reason: reason) }
        var given: Set<String> = []
        for entry in text.split(separator: ",") {
            let pair = entry.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2 else { throw fail("entry '\(entry)' is not key=value") }
            guard pair[0] == "outage" || given.insert(pair[0]).inserted else { throw fail("'\(pair[0])' given twice") }
            switch pair[0] {
            case "error", "timeout":
                guard let p = Double(pair[1]), (0...1).contains(p) else { throw fail("\(pair[0]) must be a probability in 0...1") }
                if pair[0] == "error" { model.errorRate = p } else { model.timeoutRate = p }
            case "timeout-ms":
                guard let ms = Double(pair[1]), ms.isFinite, ms > 0 else { throw fail("timeout-ms must be > 0") }
                model.timeoutMs = ms
            case "outage":
                // Not omitting empty parts: "-5-10" is three parts, refused (not read as 5-10).
                let parts = pair[1].split(separator: "-", omittingEmptySubsequences: false)
                let bounds = parts.compactMap { Double($0) }.filter(\.isFinite)
                guard parts.count == 2, bounds.count == 2, bounds[0] < bounds[1], bounds[0] >= 0 else {
                    throw fail("outage must be START-END in ms with START < END")
                }
                model.outages.append(bounds[0]..<bounds[1])
            default:
                throw fail("unknown key '\(pair[0])' (error, timeout, timeout-ms, outage)")
            }
        }
        return model
    }
}
