import Foundation

/// One stage of a ramped load: over `durationSeconds`, the target (sessions, or arrivals per
/// second) moves linearly from the previous stage's target (0 before the first) to `target`.
/// A stage of 0 s jumps to its target at once (k6's stages, `{duration, target}`).
public struct LoadStage: Hashable, Sendable, Codable {
    /// Wall seconds, ≥ 0.
    public var durationSeconds: Double
    /// Sessions (closed model) or arrivals per second (open model) at the stage's end, ≥ 0.
    public var target: Double

    public init(durationSeconds: Double, target: Double) {
        self.durationSeconds = durationSeconds
        self.target = target
    }
}

/// A ramp of the load over time: `--stages 30s:10,1m:50,30s:0` (sessions, k6's `ramping-vus`) or
/// `--arrival-rate 30s:5,1m:20` (arrivals per second, k6's `ramping-arrival-rate`). The stages
/// together set the run's length.
///
/// Every function here is pure: a time in, a target or an arrival time out, so a ramp is checked
/// against hand-computed values without running anything.
///
/// ```
///  target
///    50 |          ________
///       |         /        \
///    10 |   ____/           \
///       |  /                 \
///     0 +-/-------------------\----> s
///       0  30     90     ...
/// ```
/// Unlike k6's `ramping-vus` (which starts from `startVUs`, default 1), a ramp starts from 0 as
/// k6's `ramping-arrival-rate` does (`startRate` 0); a first stage of `0s:N` starts at N.
public struct LoadStages: Hashable, Sendable {
    public var stages: [LoadStage]

    /// - Precondition: at least one stage; durations and targets finite and ≥ 0.
    public init(_ stages: [LoadStage]) {
        precondition(!stages.isEmpty, "at least one stage")
        precondition(
            stages.allSatisfy { $0.durationSeconds >= 0 && $0.durationSeconds.isFinite && $0.target >= 0 && $0.target.isFinite },
            "finite, non-negative durations and targets")
        self.stages = stages
    }

    /// The run's length: the stages' durations summed, seconds.
    public var totalSeconds: Double { stages.reduce(0) { $0 + $1.durationSeconds } }

    /// The largest target of any stage (the slots a closed ramp needs, the peak rate of an open one).
    public var peak: Double { stages.map(\.target).max() ?? 0 }

    /// Start and end (seconds from the start of the run) of stage `index`.
    public func bounds(ofStage index: Int) -> (start: Double, end: Double) {
        let start = stages[..<index].reduce(0) { $0 + $1.durationSeconds }
        return (start, start + stages[index].durationSeconds)
    }

    /// The target at the start of stage `index`: the previous stage's target, 0 for the first.
    public func startTarget(ofStage index: Int) -> Double {
        index == 0 ? 0 : stages[index - 1].target
    }

    /// The stage running at `t` seconds: the last one with `start ≤ t < end` (a 0-s stage is never
    /// running); the last stage at and past the end.
    public func stageIndex(atSeconds t: Double) -> Int {
        var start = 0.0
        for (index, stage) in stages.enumerated() {
            let end = start + stage.durationSeconds
            if t < end { return index }
            start = end
        }
        return stages.count - 1
    }

    /// The exact target at `t` seconds: linear within a stage, the last target after the end.
    public func target(atSeconds t: Double) -> Double {
        var from = 0.0
        var start = 0.0
        for stage in stages {
            let end = start + stage.durationSeconds
            if t < end {
                return from + (stage.target - from) * (t - start) / stage.durationSeconds
            }
            from = stage.target
            start = end
        }
        return from
    }

    /// Sessions that should be running at `t` seconds (closed model): the linear target cut to a
    /// whole number towards the stage's starting value, as k6's `ramping-vus` plans its steps
    /// (`getRawExecutionSteps`: ramping from a to b over d, the k-th session of the change starts,
    /// or stops, at `k · d / |b − a|` into the stage). From 0 to 10 over 10 s: 0 sessions in
    /// [0, 1) s, 1 in [1, 2) s, …, 10 at 10 s; from 10 back to 0: 9 at 1 s, 0 at 10 s.
    public func sessions(atSeconds t: Double) -> Int {
        var from = 0.0
        var start = 0.0
        for stage in stages {
            let end = start + stage.durationSeconds
            if t < end {
                let moved = (stage.target - from) * (t - start) / stage.durationSeconds
                // A tiny tolerance, so 0.3 s × 10/s lands on 3, not 2.9999999.
                let whole = moved >= 0 ? (moved + 1e-9).rounded(.down) : (moved - 1e-9).rounded(.up)
                return Int(from + whole)
            }
            from = stage.target
            start = end
        }
        return Int(from)
    }

    /// Arrivals due in the first `t` seconds (open model): the area under the rate curve,
    /// `∫₀ᵗ rate(s) ds` (fractional).
    public func arrivals(throughSeconds t: Double) -> Double {
        var from = 0.0
        var start = 0.0
        var area = 0.0
        for stage in stages {
            let end = start + stage.durationSeconds
            let d = stage.durationSeconds
            if t < end {
                let x = t - start
                return area + from * x + (stage.target - from) * x * x / (2 * d)
            }
            area += d * (from + stage.target) / 2
            from = stage.target
            start = end
        }
        return area
    }

    /// When the `n`-th arrival (from 1) is due, seconds from the start: the time at which
    /// ``arrivals(throughSeconds:)`` reaches `n`, as k6's `ramping-arrival-rate` times its
    /// iterations (`cal`: within a stage ramping from rate a to b over d, the time x with
    /// `a·x + (b − a)·x² / (2d) = n − done`); `nil` when the stages end first.
    public func arrivalTime(_ n: Int) -> Double? {
        precondition(n >= 1, "arrivals count from 1")
        let wanted = Double(n)
        var from = 0.0
        var start = 0.0
        var area = 0.0
        for stage in stages {
            let d = stage.durationSeconds
            let stageArea = d * (from + stage.target) / 2
            // A tiny tolerance, so the arrival that lands exactly on a stage's end is not lost to rounding.
            if d > 0, area + stageArea >= wanted - 1e-9 {
                let left = wanted - area
                let a = from
                let b = stage.target
                let x: Double
                if abs(b - a) < 1e-12 {
                    x = left / a
                } else {
                    // Solve (b − a)/(2d) x² + a x − left = 0 for the root in [0, d].
                    let k = (b - a) / (2 * d)
                    let discriminant = max(0, a * a + 4 * k * left)
                    x = (-a + discriminant.squareRoot()) / (2 * k)
                }
                return start + min(max(x, 0), d)
            }
            area += stageArea
            from = stage.target
            start += d
        }
        return nil
    }

    /// A short name for stage `index`: `1: 0→10` (sessions) or `1: 0→5/s` (arrivals).
    public func label(ofStage index: Int, perSecond: Bool) -> String {
        let unit = perSecond ? "/s" : ""
        func n(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v) }
        return "\(index + 1): \(n(startTarget(ofStage: index)))→\(n(stages[index].target))\(unit)"
    }
}

extension LoadStages {
    /// Longest ramp, seconds: a day, `--duration`'s upper bound.
    public static let maxTotalSeconds = 86_400.0
    /// Highest arrival rate of a stage, per second: `--arrival-rate R`'s upper bound.
    public static let maxRatePerSecond = 1_000_000.0

    /// Parses `DURATION:TARGET,…`: durations as `30s`, `1m`, `1m30s`, `500ms`, `1h`; targets whole
    /// sessions (`perSecond == false`) or arrival rates (`5`, `5/s`, `120/m`, `3600/h`, at most
    /// ``maxRatePerSecond`` per second). The stages last at most ``maxTotalSeconds`` in all, as
    /// `--duration`.
    /// - Throws: ``LoadStagesParseError`` naming the stage and what is wrong with it.
    public static func parse(_ text: String, perSecond: Bool) throws -> LoadStages {
        var stages: [LoadStage] = []
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        for (number, raw) in parts.enumerated() {
            let part = raw.trimmingCharacters(in: .whitespaces)
            func fail(_ reason: String) -> LoadStagesParseError {
                LoadStagesParseError(text: text, stage: number + 1, reason: reason)
            }
            let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
            guard pieces.count == 2 else { throw fail("'\(part)' is not DURATION:TARGET") }
            guard let seconds = parseDuration(String(pieces[0])) else {
                throw fail("'\(pieces[0])' is not a duration (30s, 1m, 1m30s, 500ms, 1h)")
            }
            var targetText = String(pieces[1])
            var divisor = 1.0
            if perSecond {
                for (suffix, seconds) in [("/s", 1.0), ("/m", 60.0), ("/h", 3600.0)] where targetText.hasSuffix(suffix) {
                    targetText.removeLast(suffix.count)
                    divisor = seconds
                }
                guard let rate = Double(targetText), rate.isFinite, rate >= 0 else {
                    throw fail("'\(pieces[1])' is not a rate (5, 5/s, 120/m)")
                }
                guard rate / divisor <= Self.maxRatePerSecond else {
                    throw fail("'\(pieces[1])' is above \(Int(Self.maxRatePerSecond)) arrivals per second")
                }
                stages.append(LoadStage(durationSeconds: seconds, target: rate / divisor))
            } else {
                guard let sessions = Int(targetText), sessions >= 0 else {
                    throw fail("'\(pieces[1])' is not a whole number of sessions")
                }
                stages.append(LoadStage(durationSeconds: seconds, target: Double(sessions)))
            }
        }
        let ramp = LoadStages(stages)
        guard ramp.totalSeconds <= Self.maxTotalSeconds else {
            throw LoadStagesParseError(
                text: text, stage: nil, reason: "the stages last more than \(Int(Self.maxTotalSeconds)) s in all (a day, as --duration)")
        }
        guard ramp.totalSeconds > 0 else {
            throw LoadStagesParseError(text: text, stage: nil, reason: "the stages last 0 s")
        }
        guard ramp.peak > 0 else {
            throw LoadStagesParseError(text: text, stage: nil, reason: "every target is 0: nothing would run")
        }
        return ramp
    }

    /// `1m30s` → 90: one or more number-unit pairs (h, m, s, ms, us), as Go's `time.ParseDuration`
    /// (k6's durations); `nil` when not one.
    static func parseDuration(_ text: String) -> Double? {
        let units: [(String, Double)] = [("ms", 1e-3), ("us", 1e-6), ("µs", 1e-6), ("h", 3600), ("m", 60), ("s", 1)]
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        guard !rest.isEmpty else { return nil }
        var total = 0.0
        while !rest.isEmpty {
            let digits = rest.prefix { $0.isNumber || $0 == "." }
            guard !digits.isEmpty, let value = Double(digits) else { return nil }
            rest = rest.dropFirst(digits.count)
            guard let (unit, factor) = units.first(where: { rest.hasPrefix($0.0) }) else { return nil }
            rest = rest.dropFirst(unit.count)
            total += value * factor
        }
        return total.isFinite ? total : nil
    }

    /// The stages in their text form, the inverse of ``parse(_:perSecond:)`` (seconds and plain numbers).
    public func description(perSecond: Bool) -> String {
        func n(_ v: Double) -> String {
            let rounded = (v * 1e6).rounded() / 1e6
            return rounded == rounded.rounded() && abs(rounded) < 1e15 ? String(Int64(rounded)) : String(rounded)
        }
        return stages.map { "\(n($0.durationSeconds))s:\(n($0.target))\(perSecond ? "/s" : "")" }.joined(separator: ",")
    }
}

/// A `--stages` or `--arrival-rate` ramp that cannot be parsed.
public struct LoadStagesParseError: Error, CustomStringConvertible, Equatable, Sendable {
    public var text: String
    /// The stage (from 1) at fault, `nil` for the ramp as a whole.
    public var stage: Int?
    public var reason: String
    public var description: String {
        (stage.map { "stage \($0) of '\(text)': " } ?? "'\(text)': ") + reason
    }
}
