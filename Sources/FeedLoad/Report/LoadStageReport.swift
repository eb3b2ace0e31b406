import Foundation

/// What one stage of a ramped load did, and what its users saw: the `stages` array of
/// ``LoadReport``. The figures are the difference of two cumulative snapshots, taken at the
/// stage's start and end (the timeline's sampler takes one at each stage boundary), so they are
/// exact for counts and within the histograms' 0.4 % for percentiles. A load without stages has
/// one entry, `all`, for the whole run.
///
/// Blank area and time to first content are those of the replays that *finished* within the stage
/// (a replay's figures exist once it ends); pages, latency and errors are those answered within it.
public struct LoadStageReport: Codable, Hashable, Sendable {
    /// Latency of one query kind within the stage, ms.
    public struct Latency: Codable, Hashable, Sendable {
        public var count: UInt64
        public var p50: Double
        public var p95: Double
        public var p99: Double
    }

    /// `1: 0→10` (sessions) or `2: 5→20/s` (arrivals), or `all`.
    public var name: String
    /// Planned start and end, seconds from the start of the run (the stages'), and the target at
    /// both ends (sessions, or arrivals per second); `nil` for `all`.
    public var plannedStartS: Double?
    public var plannedEndS: Double?
    public var targetFrom: Double?
    public var targetTo: Double?
    /// Measured start and end: the wall seconds of the two snapshots.
    public var startS: Double
    public var endS: Double
    public var sessionsStarted: Int
    public var sessionsCompleted: Int
    public var sessionsInterrupted: Int
    public var sessionsFailed: Int
    /// Sessions running at the stage's end.
    public var sessionsActiveAtEnd: Int
    /// Open-model arrivals that found no free slot within the stage (k6's `dropped_iterations`).
    public var droppedIterations: Int
    public var pages: Int
    public var pagesPerSecond: Double
    /// p99 over every page query of the stage (newest, after, before, offset), ms.
    public var pageP99Ms: Double?
    /// By query kind; kinds without a query in the stage are absent.
    public var latency: [String: Latency]
    public var errors: Int
    public var replaysFinished: Int
    /// Mean and p95 over the finished replays of their mean blank fractions (0...1).
    public var blankMeanFraction: Double?
    public var blankP95Fraction: Double?
    /// Time to first content of the finished replays that showed content, virtual ms.
    public var timeToFirstContentP50Ms: Double?
    public var timeToFirstContentP95Ms: Double?
    /// The stage's histograms by query kind, `ttfc` and `blank` (as ``LoadReport/histograms``),
    /// and its finished replays' blank fractions summed, so `feedsim report merge` adds the stages
    /// of several segments exactly; `nil` in reports written before they were kept.
    public var histograms: [String: LatencyHistogram.Buckets]?
    public var blankMeanSum: Double?

    /// The stage between snapshots `a` (its start) and `b` (its end).
    /// - Parameter stage: its index in `stages`, `nil` for the whole run (`all`).
    init(
        from a: TimelineSampler.Sample, to b: TimelineSampler.Sample, stages: LoadStages?, stage: Int?,
        perSecond: Bool
    ) {
        if let stages, let stage {
            name = stages.label(ofStage: stage, perSecond: perSecond)
            let bounds = stages.bounds(ofStage: stage)
            plannedStartS = LoadReport.round(bounds.start, 3)
            plannedEndS = LoadReport.round(bounds.end, 3)
            targetFrom = stages.startTarget(ofStage: stage)
            targetTo = stages.stages[stage].target
        } else {
            name = "all"
        }
        startS = LoadReport.round(a.0.elapsed.seconds, 3)
        endS = LoadReport.round(b.0.elapsed.seconds, 3)
        let length = max(b.0.elapsed.seconds - a.0.elapsed.seconds, 1e-9)
        let (ca, cb) = (a.0.counts, b.0.counts)
        sessionsStarted = cb.started - ca.started
        sessionsCompleted = cb.completed - ca.completed
        sessionsInterrupted = cb.interrupted - ca.interrupted
        sessionsFailed = cb.failed - ca.failed
        sessionsActiveAtEnd = cb.active
        droppedIterations = cb.dropped - ca.dropped
        var before = a.0.metrics
        var after = b.0.metrics
        if let w = a.1 { before.merge(w) }
        if let w = b.1 { after.merge(w) }
        pages = after.pages - before.pages
        pagesPerSecond = LoadReport.round(Double(pages) / length, 1)
        errors = after.errors.values.reduce(0, +) - before.errors.values.reduce(0, +)
        var histograms: [String: LatencyHistogram] = [:]
        for (kind, histogram) in after.latency {
            let delta = histogram.subtracting(before.latency[kind] ?? LatencyHistogram())
            if delta.count > 0 { histograms[kind.rawValue] = delta }
        }
        let ttfc = after.timeToFirstContent.subtracting(before.timeToFirstContent)
        if ttfc.count > 0 { histograms[LoadReport.timeToFirstContentKey] = ttfc }
        let blank = after.blankFraction.subtracting(before.blankFraction)
        if blank.count > 0 { histograms[LoadReport.blankFractionKey] = blank }
        replaysFinished = after.replaysFinished - before.replaysFinished
        blankMeanSum = after.blankMeanSum - before.blankMeanSum
        latency = [:]
        setFigures(from: histograms)
    }

    /// ``histograms`` from `histograms`, and the latency, page p99, blank and time-to-first-content
    /// figures computed from them (and from ``blankMeanSum`` and ``replaysFinished``).
    mutating func setFigures(from histograms: [String: LatencyHistogram]) {
        self.histograms = histograms.mapValues(\.buckets)
        var latency: [String: Latency] = [:]
        var pageHistogram = LatencyHistogram()
        for (key, delta) in histograms {
            guard let kind = QueryKind(rawValue: key) else { continue }
            if kind != .rows && kind != .insert { pageHistogram.merge(delta) }
            func ms(_ q: Double) -> Double { LoadReport.round(Double(delta.value(atQuantile: q) ?? 0) / 1e6, 4) }
            latency[kind.rawValue] = Latency(count: delta.count, p50: ms(0.5), p95: ms(0.95), p99: ms(0.99))
        }
        self.latency = latency
        pageP99Ms = pageHistogram.value(atQuantile: 0.99).map { LoadReport.round(Double($0) / 1e6, 4) }
        blankMeanFraction =
            replaysFinished > 0 ? LoadReport.round((blankMeanSum ?? 0) / Double(replaysFinished), 6) : nil
        let blank = histograms[LoadReport.blankFractionKey] ?? LatencyHistogram()
        // A difference of histograms knows its top only to the bucket's upper bound: cap at 1.
        blankP95Fraction = blank.value(atQuantile: 0.95).map {
            LoadReport.round(min(Double($0) / LoadMetrics.blankFractionScale, 1), 6)
        }
        let ttfc = histograms[LoadReport.timeToFirstContentKey] ?? LatencyHistogram()
        timeToFirstContentP50Ms = ttfc.value(atQuantile: 0.5).map { LoadReport.round(Double($0) / 1e6, 3) }
        timeToFirstContentP95Ms = ttfc.value(atQuantile: 0.95).map { LoadReport.round(Double($0) / 1e6, 3) }
    }

    /// One entry per stage that began before the run ended (or `all` without stages), from the
    /// snapshots of a run: a stage runs from the snapshot nearest its planned start to the one
    /// nearest its end (the last snapshot when the run ended before it).
    static func stages(
        samples: [TimelineSampler.Sample], stages: LoadStages?, perSecond: Bool
    ) -> [LoadStageReport] {
        guard let first = samples.first, let last = samples.last else { return [] }
        guard let stages else { return [LoadStageReport(from: first, to: last, stages: nil, stage: nil, perSecond: perSecond)] }
        // The snapshot taken at a boundary: the one nearest to it (the sampler's clock starts a moment
        // before the scheduler's, so it may read a few milliseconds short of the boundary).
        func sample(at seconds: Double) -> TimelineSampler.Sample {
            samples.min { abs($0.0.elapsed.seconds - seconds) < abs($1.0.elapsed.seconds - seconds) } ?? last
        }
        let ended = last.0.elapsed.seconds
        var out: [LoadStageReport] = []
        for index in stages.stages.indices {
            let bounds = stages.bounds(ofStage: index)
            guard bounds.end > bounds.start, bounds.start < ended else { continue }  // a jump, or never reached
            out.append(
                LoadStageReport(
                    from: sample(at: bounds.start), to: sample(at: bounds.end), stages: stages, stage: index,
                    perSecond: perSecond))
        }
        return out
    }
}
