import FeedLayout
import FeedModel
import FeedReplay
import FeedResources
import Foundation
import Synchronization

/// `feedsim sweep`: every combination of the varied replay options, for every trace, run in
/// parallel; one row per combination and trace, with the Pareto frontier of cost against harm
/// marked per trace.
public enum Sweep {
    /// One varied option and its values, in the order given (`--vary 'page-size=20,50'`).
    public struct Axis: Sendable, Equatable {
        /// The option's name without dashes (`page-size`).
        public var option: String
        public var values: [String]

        public init(option: String, values: [String]) {
            self.option = option
            self.values = values
        }

        /// Parses `NAME=V1,V2,…`, or `NAME=V1|V2|…` when a value itself holds commas
        /// (`latency=lognormal:120,0.5|lognormal:300,0.5`).
        /// - Throws: ``SweepError/malformedVary(_:)`` when the name or a value is missing,
        ///   ``SweepError/repeatedValue(option:value:)`` for a value given twice.
        public static func parse(_ text: String) throws -> Axis {
            guard let eq = text.firstIndex(of: "=") else { throw SweepError.malformedVary(text) }
            var name = String(text[..<eq])
            while name.hasPrefix("-") { name.removeFirst() }
            let rest = String(text[text.index(after: eq)...])
            let values = rest.split(separator: rest.contains("|") ? "|" : ",", omittingEmptySubsequences: false)
                .map { String($0).trimmingCharacters(in: .whitespaces) }
            guard !name.isEmpty, !values.isEmpty, !values.contains(where: \.isEmpty) else {
                throw SweepError.malformedVary(text)
            }
            // A value twice would run the same settings twice, as two rows.
            if let repeated = values.enumerated().first(where: { values[..<$0.offset].contains($0.element) }) {
                throw SweepError.repeatedValue(option: name, value: repeated.element)
            }
            return Axis(option: name, values: values)
        }
    }

    /// Every combination of the axes' values, the first axis varying slowest: for axes
    /// (a: 1, 2) and (b: x, y): `[a=1 b=x, a=1 b=y, a=2 b=x, a=2 b=y]`.
    public static func combinations(_ axes: [Axis]) -> [[(option: String, value: String)]] {
        var out: [[(option: String, value: String)]] = [[]]
        for axis in axes {
            out = out.flatMap { prefix in axis.values.map { prefix + [(axis.option, $0)] } }
        }
        return out
    }

    /// Runs `body(i)` for every `i` in `0..<count` on `jobs` threads and returns the results in
    /// index order, so the output does not depend on `jobs`. The first error (lowest index) is
    /// rethrown after every started job finished; jobs not yet started are skipped.
    public static func run<T: Sendable>(
        count: Int, jobs: Int, _ body: @escaping @Sendable (Int) throws -> T
    ) throws -> [T] {
        let next = Atomic<Int>(0)
        let results = Mutex<[Int: Result<T, any Error>]>([:])
        let failed = Atomic<Bool>(false)
        let threads = max(1, min(jobs, count))
        let group = DispatchGroup()
        for _ in 0..<threads {
            group.enter()
            let thread = Thread {
                while !failed.load(ordering: .relaxed) {
                    let i = next.wrappingAdd(1, ordering: .relaxed).oldValue
                    guard i < count else { break }
                    let result = Result { try body(i) }
                    if case .failure = result { failed.store(true, ordering: .relaxed) }
                    results.withLock { $0[i] = result }
                }
                group.leave()
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        group.wait()
        let all = results.withLock { $0 }
        if let error = all.keys.sorted().compactMap({ key -> (any Error)? in
            if case .failure(let e) = all[key]! { return e } else { return nil }
        }).first {
            throw error
        }
        return (0..<count).map { try! all[$0]!.get() }
    }

    /// One job of a sweep: `trace` replayed against `backend` with the timeline kept (for the
    /// blank p95), reduced to the row's figures. What `feedsim sweep` and `feedsim bench sweep` run
    /// on each thread.
    /// - Parameters:
    ///   - backend: a connection of this job's own, bound to the replayed feed (a backend belongs to
    ///     one thread: jobs share no connection, so they share no lock).
    /// - Throws: as ``ReplaySession/run(trace:backend:largestID:layout:options:insertPreset:keepInserts:shouldStop:recorder:)``.
    public static func replay(
        trace: Trace, backend: any FeedBackend, layout: LayoutConfiguration, options: ReplayOptions,
        insertPreset: Preset
    ) throws -> SweepFigures {
        var options = options
        options.keepTimeline = true
        let result = try ReplaySession.run(
            trace: trace, backend: backend, layout: layout, options: options, insertPreset: insertPreset)
        return SweepFigures(
            report: result.report, blankFractions: SweepFigures.blankFractions(timelineCSV: result.timelineCSV ?? ""))
    }

    /// Indices of the points on the Pareto frontier when both coordinates are to be minimized:
    /// no other point is at most as large in both and smaller in one. Equal points are all kept.
    /// - Complexity: O(n log n): sort by cost, then harm; keep a point when its harm is below
    ///   every harm of a cheaper point (or equal to that of an identical point).
    public static func paretoFrontier(_ points: [(cost: Double, harm: Double)]) -> Set<Int> {
        let order = points.indices.sorted {
            (points[$0].cost, points[$0].harm, $0) < (points[$1].cost, points[$1].harm, $1)
        }
        var frontier = Set<Int>()
        var bestHarm = Double.infinity
        var last: (cost: Double, harm: Double)?
        for i in order {
            let p = points[i]
            if p.harm < bestHarm {
                frontier.insert(i)
                bestHarm = p.harm
                last = p
            } else if let l = last, l.cost == p.cost, l.harm == p.harm {
                frontier.insert(i)  // identical to a frontier point: not dominated
            }
        }
        return frontier
    }
}

/// What one sweep run measured.
public struct SweepFigures: Sendable, Equatable {
    /// Page requests issued: pages applied, stale answers dropped and failed attempts.
    public var requests: Int
    public var rowsFetched: Int
    public var blankMean: Double
    /// 95th percentile (nearest rank) of the per-frame blank fraction.
    public var blankP95: Double
    /// ms of lateness per second of scrolling; `nil` when the run scrolled too little for a ratio
    /// (``ReplayReport/Hitches/timeRatioMsPerS``).
    public var hitchRatio: Double?
    /// ms; `nil` when no content was ever shown.
    public var timeToFirstContentMs: Double?

    public init(
        requests: Int, rowsFetched: Int, blankMean: Double, blankP95: Double, hitchRatio: Double?,
        timeToFirstContentMs: Double?
    ) {
        self.requests = requests
        self.rowsFetched = rowsFetched
        self.blankMean = blankMean
        self.blankP95 = blankP95
        self.hitchRatio = hitchRatio
        self.timeToFirstContentMs = timeToFirstContentMs
    }

    /// From a replay's report and its per-frame blank fractions (the `--timeline` CSV's
    /// `blank_fraction` column, or a ``ReplayRecording``'s ``ReplayRecording/blankFractions``).
    public init(report: ReplayReport, blankFractions: [Double]) {
        let p = report.pages
        requests = p.`init` + p.refresh + p.more + p.prepend + p.staleDropped + p.failures
        rowsFetched = report.rows.fetched
        blankMean = report.blank.meanFraction
        blankP95 = nearestRankPercentile(blankFractions, 0.95)
        hitchRatio = report.hitches.timeRatioMsPerS
        timeToFirstContentMs = report.timeToFirstContentMs
    }

    /// The `blank_fraction` column of a `--timeline` CSV.
    public static func blankFractions(timelineCSV: String) -> [Double] {
        let lines = timelineCSV.split(separator: "\n")
        guard let header = lines.first?.split(separator: ","), let column = header.firstIndex(of: "blank_fraction")
        else { return [] }
        return lines.dropFirst().compactMap { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            return column < fields.count ? Double(fields[column]) : nil
        }
    }
}

/// What the frontier trades: cost (requests or rows fetched) against harm (blank p95 or hitch ratio).
public enum SweepCost: String, Sendable, CaseIterable { case requests, rows }
public enum SweepHarm: String, Sendable, CaseIterable {
    case blankP95 = "blank-p95"
    case hitchRatio = "hitch-ratio"
}

/// One row of a sweep: a combination on a trace.
public struct SweepRow: Sendable, Equatable {
    public var combination: Int
    public var trace: String
    /// The varied options' values, in axis order.
    public var settings: [String]
    public var figures: SweepFigures
    public var onFrontier = false
    /// Whether the combination is the command line's own settings.
    public var isCurrent = false

    public init(combination: Int, trace: String, settings: [String], figures: SweepFigures, isCurrent: Bool) {
        self.combination = combination
        self.trace = trace
        self.settings = settings
        self.figures = figures
        self.isCurrent = isCurrent
    }

    public func cost(_ c: SweepCost) -> Double {
        switch c {
        case .requests: Double(figures.requests)
        case .rows: Double(figures.rowsFetched)
        }
    }

    public func harm(_ h: SweepHarm) -> Double {
        switch h {
        case .blankP95: figures.blankP95
        // Too little scrolling for a ratio: no lateness measured, so it ranks with the smoothest.
        case .hitchRatio: figures.hitchRatio ?? 0
        }
    }
}

/// Errors of a sweep's set-up.
public enum SweepError: Error, Equatable, CustomStringConvertible {
    case malformedVary(String)
    case repeatedValue(option: String, value: String)

    public var description: String {
        switch self {
        case .malformedVary(let text): "--vary: expected NAME=V1,V2 (or V1|V2 when values hold commas), got '\(text)'"
        case .repeatedValue(let option, let value): "--vary \(option): '\(value)' given twice"
        }
    }
}
