import Foundation
import Synchronization

/// One interval (a wall second, the last one shorter) of a load: what happened in it, from two
/// cumulative snapshots of the run's metrics. The `timeline` of ``LoadReport``, which the HTML
/// report plots over time.
public struct LoadSecond: Codable, Hashable, Sendable {
    /// Latency of one query kind within the interval, ms (histogram, within 0.4 %).
    public struct Latency: Codable, Hashable, Sendable {
        public var count: UInt64
        public var p50: Double
        public var p99: Double
    }

    /// Wall seconds since the run started at the interval's start and end.
    public var startS: Double
    public var endS: Double
    /// The stage the interval belongs to; `nil` while a load has no stages (one constant load).
    public var stage: String?
    /// Sessions running at the interval's end, and started, completed and failed within it.
    public var sessionsActive: Int
    public var sessionsStarted: Int
    public var sessionsCompleted: Int
    public var sessionsFailed: Int
    /// Pages and rows answered within the interval, per second.
    public var pagesPerSecond: Double
    public var rowsPerSecond: Double
    /// Failed queries within the interval.
    public var errors: Int
    /// By query kind; kinds without a query in the interval are absent.
    public var latency: [String: Latency]
    /// Replays finished within the interval, their mean blank fraction (0...1) and median time
    /// to first content (ms); `nil` when none finished (or none showed content).
    public var replaysFinished: Int
    public var blankMeanFraction: Double?
    public var timeToFirstContentP50Ms: Double?
    /// The interval's latency histograms by query kind and `ttfc` (nanoseconds; bucket counts
    /// exact, minimum and maximum to the bucket), and its replays' blank fractions summed, so
    /// `feedsim report merge` can add the timelines of several processes second by second.
    public var histograms: [String: LatencyHistogram.Buckets]?
    public var blankMeanSum: Double?

    /// The interval between snapshots `a` (earlier) and `b`.
    init(
        from a: SchedulerResult, to b: SchedulerResult, writersA: LoadMetrics?, writersB: LoadMetrics?,
        stage: String? = nil
    ) {
        startS = LoadReport.round(a.elapsed.seconds, 3)
        endS = LoadReport.round(b.elapsed.seconds, 3)
        self.stage = stage
        let length = max(b.elapsed.seconds - a.elapsed.seconds, 1e-9)
        sessionsActive = b.counts.active
        sessionsStarted = b.counts.started - a.counts.started
        sessionsCompleted = b.counts.completed - a.counts.completed
        sessionsFailed = b.counts.failed - a.counts.failed
        pagesPerSecond = LoadReport.round(Double(b.metrics.pages - a.metrics.pages) / length, 1)
        rowsPerSecond = LoadReport.round(Double(b.metrics.rows - a.metrics.rows) / length, 1)
        var before = a.metrics
        var after = b.metrics
        if let writersA { before.merge(writersA) }
        if let writersB { after.merge(writersB) }
        errors = after.errors.values.reduce(0, +) - before.errors.values.reduce(0, +)
        var latency: [String: Latency] = [:]
        var histograms: [String: LatencyHistogram.Buckets] = [:]
        for (kind, histogram) in after.latency {
            let delta = histogram.subtracting(before.latency[kind] ?? LatencyHistogram())
            guard delta.count > 0 else { continue }
            latency[kind.rawValue] = Self.latency(delta)
            histograms[kind.rawValue] = delta.buckets
        }
        self.latency = latency
        replaysFinished = b.metrics.replaysFinished - a.metrics.replaysFinished
        blankMeanFraction =
            replaysFinished > 0
            ? LoadReport.round((b.metrics.blankMeanSum - a.metrics.blankMeanSum) / Double(replaysFinished), 6) : nil
        blankMeanSum = b.metrics.blankMeanSum - a.metrics.blankMeanSum
        let ttfc = b.metrics.timeToFirstContent.subtracting(a.metrics.timeToFirstContent)
        timeToFirstContentP50Ms = Self.timeToFirstContentP50(ttfc)
        if ttfc.count > 0 { histograms[LoadReport.timeToFirstContentKey] = ttfc.buckets }
        self.histograms = histograms
    }

    /// An interval's figures of one query kind's histogram (nanoseconds), in milliseconds.
    static func latency(_ histogram: LatencyHistogram) -> Latency {
        func ms(_ q: Double) -> Double { LoadReport.round(Double(histogram.value(atQuantile: q) ?? 0) / 1e6, 4) }
        return Latency(count: histogram.count, p50: ms(0.5), p99: ms(0.99))
    }

    /// The median time to first content (ms), `nil` for an empty histogram.
    static func timeToFirstContentP50(_ histogram: LatencyHistogram) -> Double? {
        histogram.count > 0 ? LoadReport.round(Double(histogram.value(atQuantile: 0.5) ?? 0) / 1e6, 3) : nil
    }
}

/// Takes a snapshot of a running load once a second on its own thread, for the report's timeline.
final class TimelineSampler: Sendable {
    private let samples = Mutex<[(SchedulerResult, LoadMetrics?)]>([])
    private let done = Atomic<Bool>(false)
    private let group = DispatchGroup()

    /// Starts sampling `snapshot` (the scheduler's progress and the writers' metrics) every second.
    func start(_ snapshot: @escaping @Sendable () -> (SchedulerResult, LoadMetrics?)) {
        samples.withLock { $0 = [snapshot()] }
        group.enter()
        let thread = Thread { [self] in
            // One snapshot a second (each merges every worker's metrics under its lock, so never
            // more often): wake every 50 ms only to see whether the run is over.
            let clock = ContinuousClock()
            let start = clock.now
            var next = 1
            while !done.load(ordering: .relaxed) {
                if clock.now >= start.advanced(by: .seconds(next)) {
                    let current = snapshot()
                    samples.withLock { $0.append(current) }
                    next = Int(start.duration(to: clock.now).components.seconds) + 1
                }
                Thread.sleep(forTimeInterval: 0.05)
            }
            group.leave()
        }
        thread.start()
    }

    /// Stops sampling and returns the intervals, the last one ending at `final`.
    func stop(final: SchedulerResult, writers: LoadMetrics?) -> [LoadSecond] {
        done.store(true, ordering: .relaxed)
        group.wait()
        var all = samples.withLock { $0 }
        if let last = all.last, final.elapsed.seconds > last.0.elapsed.seconds + 1e-3 { all.append((final, writers)) }
        return zip(all, all.dropFirst()).map { LoadSecond(from: $0.0, to: $1.0, writersA: $0.1, writersB: $1.1) }
    }
}
