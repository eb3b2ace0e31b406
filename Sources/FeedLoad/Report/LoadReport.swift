import FeedModel
import Foundation

/// The outcome of a load run: sessions, throughput, latency per query kind, errors, busy waits
/// and consistency. Encodes to JSON with sorted keys; ``text`` is the human form.
public struct LoadReport: Codable, Sendable {
    /// Latency of one query kind, milliseconds, from the merged histogram (within 0.4 %).
    public struct Latency: Codable, Hashable, Sendable {
        public var count: UInt64
        public var p50: Double
        public var p90: Double
        public var p99: Double
        public var p999: Double
        public var max: Double
        public var mean: Double
    }

    public struct Consistency: Codable, Hashable, Sendable {
        public var sessionsChecked: Int
        public var duplicates: Int
        public var skips: Int
        /// Walk spans (a count) checked against the store's index.
        public var spansRead: Int
        /// Walk spans (a count) answered from the last one a ground-truth connection read, nothing
        /// having been committed since (runs without writers, or checks between two commits).
        public var spansReused: Int
        /// The replays' own violations by kind (`duplicate_id`, `gap`, `order_broken`, `anchor_drift`, …).
        public var replayViolations: [String: Int]
        /// Sessions with duplicates, skips, replay violations or an error, by session number (at most 50 listed).
        public var sessions: [SessionOutcome]
    }

    public struct Settings: Codable, Hashable, Sendable {
        public var db: String
        public var feed: String
        /// `closed` or `open`.
        public var model: String
        /// Concurrent sessions (closed) or slots (open).
        public var sessions: Int
        /// Arrivals per second (open model only).
        public var arrivalRate: Double?
        /// Virtual time per wall time (`K`), or `"max"`.
        public var timeScale: String
        public var pagination: PaginationMode
        public var pageSize: Int
        /// The traces' sources, or `synth:MODEL` for synthesized ones.
        public var traces: [String]
        /// The layout summary (e.g. `grid columns=3`).
        public var layout: String
        public var durationSeconds: Double
        public var workers: Int
        public var writers: Int
        public var writeRate: Double
        public var writeBatch: Int
        /// The writers' `--write-mix` (`insert=1,update=0,delete=0` by default).
        public var writeMix: String
        public var seed: UInt64
        /// Sessions the run was limited to in all (`--iterations`), `nil` for none.
        public var iterations: Int?
        /// The share of the run this report covers (`"2/3"`, `--segment`), `nil` for the whole run.
        public var segment: String?
        /// Length of each synthesized trace, seconds (`--trace-duration`); `nil` for trace files.
        public var traceDurationSeconds: Double?
        /// What each session does: `replay`, or `pagination:BUDGET` (pages down, BUDGET page requests).
        public var session: String?
        /// The ramp (`30s:10,60s:50,30s:0`, arrivals with `/s`), `nil` for a constant load.
        public var stages: String?
        /// The client-side latency model added to each replay session's answers (`--latency`).
        public var latency: String
        /// Whether the run stops at the first threshold breach (`--abort-on-fail`).
        public var abortOnFail: Bool
        /// The replay sessions' client-side row fetch latency and failures (`--row-latency`,
        /// `--row-faults`); `nil` when not given (rows then come with the page's `latency`, no faults).
        public var rowLatency: String? = nil
        public var rowFaults: String? = nil
    }

    public var settings: Settings
    public var elapsedSeconds: Double
    /// Whether a stop (SIGINT) ended the run before its duration.
    public var stoppedEarly: Bool
    public var sessions: SessionCounts
    public var pages: Int
    public var pagesPerSecond: Double
    public var items: Int
    public var rows: Int
    public var rowsPerSecond: Double
    /// Replay frames the sessions simulated.
    public var frames: Int
    /// Wall seconds sessions spent in their steps (replay frames, or pagination sessions' pages;
    /// queries included), over all workers.
    public var replaySeconds: Double
    /// Wall seconds of the page and row queries, over all workers.
    public var querySeconds: Double
    /// Seconds the session worker threads ran on a core, over all workers: less than
    /// `workers × elapsedSeconds` when they waited for a core (a shared machine) or blocked.
    public var cpuSeconds: Double
    /// Items the writers (and traces' `insert` events) inserted.
    public var inserted: Int
    /// Items the writers updated (new title and payload) and deleted during the run (`--write-mix`).
    public var updated: Int
    public var deleted: Int
    /// Write transactions the writers committed (inserts, updates and deletes).
    public var insertTransactions: Int
    public var busyWaits: Int
    /// Failed queries by SQLite result code name (`"other"` for the rest).
    public var errors: [String: Int]
    /// By query kind (`newest`, `after`, `before`, `offset`, `rows`, `insert`); kinds not run are absent.
    public var latency: [String: Latency]
    public var consistency: Consistency
    /// Why the run never got going: a writer or worker thread that could not be started.
    public var startFailure: String?
    /// Replay sessions that finished, their blank area (the mean of their mean blank fractions,
    /// 0...1) and time to first content (ms of virtual time, over the sessions that showed content).
    public var replays: Replays
    /// One entry per wall second of the run (the last one shorter): throughput, latency per
    /// query kind, sessions, errors, blank area and time to first content over time.
    public var timeline: [LoadSecond] = []
    /// The merged latency histograms behind ``latency`` (by query kind) and the replays' time to
    /// first content (`ttfc`), nanoseconds, so `feedsim report merge` can add reports exactly.
    public var histograms: [String: LatencyHistogram.Buckets]?
    /// The finished replays' mean blank fractions summed (``Replays/blankMeanFraction`` × finished,
    /// unrounded), for merging.
    public var blankMeanSum: Double?
    /// Open-model arrivals that found every slot busy (k6's `dropped_iterations`; also `sessions.dropped`).
    public var droppedIterations: Int
    /// Each `--threshold` checked against the whole run, in the order given.
    public var thresholds: [ThresholdResult]
    /// Set when `--abort-on-fail` stopped the run: the threshold breached and when.
    public var aborted: ThresholdAbort?
    /// With `--iterations N`: the sessions of N (this segment's share) that never started because
    /// the duration ended first (k6 warns when maxDuration cuts shared iterations short); `nil`
    /// when all started, the run was stopped early, or there is no `--iterations`.
    public var iterationsNotStarted: Int?
    /// Per stage of a ramped load (one entry, `all`, without stages): pages/s, p99, blank area and
    /// time to first content (``LoadStageReport``).
    public var stages: [LoadStageReport] = []
    /// What an HTTP feed API under load answered wrong (`--source`), or `nil` for a database.
    public var source: SourceProblems?

    public struct Replays: Codable, Hashable, Sendable {
        public var finished: Int
        public var blankMeanFraction: Double?
        public var timeToFirstContent: Latency?
    }

    public init(
        configuration: LoadConfiguration, counts: SessionCounts, metrics: LoadMetrics, elapsed: Duration,
        stoppedEarly: Bool, answers: AnswerTally? = nil
    ) {
        let (model, sessions, rate): (String, Int, Double?) =
            switch configuration.model {
            case .closed(let sessions): ("closed", sessions, nil)
            case .open(let rate, let slots): ("open", slots, rate)
            }
        settings = Settings(
            db: configuration.backendDisplayName ?? configuration.path, feed: configuration.feedName, model: model, sessions: sessions, arrivalRate: rate,
            timeScale: configuration.timeScale.map { Self.fixed($0, 3) } ?? "max", pagination: configuration.pagination,
            pageSize: configuration.pageSize, traces: configuration.traces.names, layout: configuration.layout.summary,
            durationSeconds: configuration.runSeconds, workers: configuration.workers,
            writers: configuration.writers, writeRate: configuration.writers > 0 ? configuration.writeRate : 0,
            writeBatch: configuration.writeBatch, writeMix: configuration.writeMix.description, seed: configuration.seed,
            iterations: configuration.iterations, segment: configuration.segment?.description,
            traceDurationSeconds: configuration.traces.synthesizedSeconds, session: configuration.session.name,
            stages: configuration.stages.map { ramp in
                if case .open = configuration.model { ramp.description(perSecond: true) } else { ramp.description(perSecond: false) }
            },
            latency: configuration.latency.description, abortOnFail: configuration.abortOnFail,
            rowLatency: configuration.replay.rowLatency?.description, rowFaults: configuration.replay.rowFaults?.description)
        let seconds = elapsed.seconds
        elapsedSeconds = seconds
        self.stoppedEarly = stoppedEarly
        self.sessions = counts
        droppedIterations = counts.dropped
        if let iterations = configuration.iterations, !stoppedEarly {
            let share = configuration.segment.map { $0.sessions(ofIterations: iterations) } ?? iterations
            iterationsNotStarted = counts.started < share ? share - counts.started : nil
        }
        let inputs = ThresholdInputs(
            metrics: metrics, droppedIterations: counts.dropped, elapsedSeconds: seconds, answers: answers)
        thresholds = configuration.thresholds.map { $0.evaluate(inputs) }
        pages = metrics.pages
        pagesPerSecond = Self.round(seconds > 0 ? Double(metrics.pages) / seconds : 0, 1)
        items = metrics.items
        rows = metrics.rows
        rowsPerSecond = Self.round(seconds > 0 ? Double(metrics.rows) / seconds : 0, 1)
        frames = metrics.frames
        replaySeconds = Self.round(Double(metrics.replayNanoseconds) / 1e9, 6)
        querySeconds = Self.round(Double(metrics.queryNanoseconds) / 1e9, 6)
        cpuSeconds = Self.round(Double(metrics.cpuNanoseconds) / 1e9, 6)
        inserted = metrics.inserted
        insertTransactions = metrics.insertTransactions
        updated = metrics.updated
        deleted = metrics.deleted
        busyWaits = metrics.busyWaits
        errors = metrics.errors
        var latency: [String: Latency] = [:]
        var histograms: [String: LatencyHistogram.Buckets] = [:]
        for (kind, histogram) in metrics.latency where histogram.count > 0 {
            latency[kind.rawValue] = Self.latency(histogram, digits: 4)
            histograms[kind.rawValue] = histogram.buckets
        }
        self.latency = latency
        let ttfc = metrics.timeToFirstContent
        if ttfc.count > 0 { histograms[Self.timeToFirstContentKey] = ttfc.buckets }
        if metrics.blankFraction.count > 0 { histograms[Self.blankFractionKey] = metrics.blankFraction.buckets }
        self.histograms = histograms
        blankMeanSum = metrics.blankMeanSum
        replays = Replays(
            finished: metrics.replaysFinished,
            blankMeanFraction: metrics.replaysFinished > 0
                ? Self.round(metrics.blankMeanSum / Double(metrics.replaysFinished), 6) : nil,
            timeToFirstContent: ttfc.count > 0 ? Self.latency(ttfc, digits: 3) : nil)
        consistency = Consistency(
            sessionsChecked: metrics.sessionsChecked, duplicates: metrics.consistency.duplicates,
            skips: metrics.consistency.skips, spansRead: metrics.spansRead, spansReused: metrics.spansReused,
            replayViolations: metrics.replayViolations,
            sessions: Array(metrics.notableSessions.sorted { $0.session < $1.session }.prefix(50)))
    }

    /// The key of the time-to-first-content histogram in ``histograms``.
    public static let timeToFirstContentKey = "ttfc"
    /// The key of the finished replays' blank-fraction histogram (parts per million) in ``histograms``.
    public static let blankFractionKey = "blank"

    /// The figures of a histogram of nanoseconds, in milliseconds rounded to `digits` decimals
    /// (4 for queries: 0.1 µs, finer digits being below the histogram's 1/256 relative error).
    static func latency(_ histogram: LatencyHistogram, digits: Int) -> Latency {
        func ms(_ q: Double) -> Double { round(Double(histogram.value(atQuantile: q) ?? 0) / 1e6, digits) }
        return Latency(
            count: histogram.count, p50: ms(0.5), p90: ms(0.9), p99: ms(0.99), p999: ms(0.999), max: ms(1),
            mean: round((histogram.mean ?? 0) / 1e6, digits))
    }

    /// Whether the run found what must not happen: with keyset pagination, duplicates, skips or
    /// a replay violation (OFFSET is expected to show them); or a failed session.
    public var hasViolations: Bool {
        let dirty = consistency.duplicates > 0 || consistency.skips > 0 || !consistency.replayViolations.isEmpty
        return (settings.pagination == .keyset && dirty) || sessions.failed > 0
    }

    /// Whether every threshold held (true without thresholds); `false` exits 99.
    public var thresholdsPassed: Bool { thresholds.allSatisfy(\.passed) }

    /// JSON with sorted, snake_case keys (as `feedsim replay --json`), pretty printed.
    public func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// `value` rounded to `digits` decimals, so reports carry no float noise.
    static func round(_ value: Double, _ digits: Int) -> Double {
        let scale = Foundation.pow(10, Double(digits))
        return (value * scale).rounded() / scale
    }

    static func fixed(_ value: Double, _ digits: Int) -> String {
        String(format: "%.\(digits)f", value)
    }

    /// Nanoseconds as milliseconds with 3 decimals.
    static func milliseconds(_ nanoseconds: UInt64) -> String {
        fixed(Double(nanoseconds) / 1e6, 3)
    }
}
