import FeedModel
import Foundation
import FeedResources

/// Runs a load: checks the store and feed, starts the writers, runs the sessions on the
/// scheduler until the duration ends or a stop, stops the writers and returns the report.
public final class LoadRunner: Sendable {
    public let configuration: LoadConfiguration
    public let stop: StopSignal
    private let scheduler: SessionScheduler
    private let writers: WriterPool?
    /// The rows the sessions' traces inserted, deleted at the end unless `--keep-writes`.
    private let sessionInserts: SessionInserts
    /// Opens the connections of the sessions, the writers and the ground-truth readers.
    public let connector: any FeedBackendConnector

    /// Checks the configuration, then opens the backend with `openBackend` (the caller's: the CLI
    /// opens the SQLite file `--db` names, and checks the feed) and loads the writer preset.
    /// - Parameter openBackend: opens the backend and feed `configuration` names (its `path`, its
    ///   `feedName`), called once, after the configuration's values are checked.
    /// - Parameter clock: what the run is paced by (sessions' due times, frames at time scale K,
    ///   the writers' rate, the duration): the wall clock, or ``LoadClock/virtual()`` for a run that
    ///   does the same steps at the same times however loaded the machine is (tests).
    /// - Throws: ``LoadConfigurationError`` for an unusable value (an OFFSET pagination over a
    ///   backend without OFFSET pages among them), `openBackend`'s error, ``PresetError``.
    public init(
        configuration: LoadConfiguration, stop: StopSignal = StopSignal(), clock: LoadClock = .wall,
        openBackend: (LoadConfiguration) throws -> any FeedBackendConnector
    ) throws {
        func fail(_ field: String, _ reason: String) -> LoadConfigurationError {
            LoadConfigurationError(field: field, reason: reason)
        }
        do { try configuration.replay.controller.validate() } catch { throw fail("controller", "\(error)") }
        guard configuration.durationSeconds > 0, configuration.durationSeconds.isFinite else {
            throw fail("duration", "must be a positive number of seconds")
        }
        if let scale = configuration.timeScale, !(scale > 0 && scale.isFinite) {
            throw fail("time-scale", "must be a positive number or 'max'")
        }
        switch configuration.traces {
        case .files(let traces):
            guard !traces.isEmpty else { throw fail("trace", "at least one trace") }
        case .synthesized(let models, let seconds):
            guard !models.isEmpty else { throw fail("model", "at least one user model") }
            guard seconds > 0, seconds.isFinite else {
                throw fail("trace-duration", "must be a positive number of seconds")
            }
        }
        if case .pagination(let budget) = configuration.session, budget < 1 {
            throw fail("page-budget", "must be at least 1 page")
        }
        guard (1...LoadConfiguration.maxWorkers).contains(configuration.workers) else {
            throw fail("workers", "must be 1...\(LoadConfiguration.maxWorkers)")
        }
        switch configuration.model {
        case .closed(let sessions):
            guard (1...LoadConfiguration.maxSessions).contains(sessions) else {
                throw fail("sessions", "must be 1...\(LoadConfiguration.maxSessions)")
            }
            if let stages = configuration.stages, stages.peak > Double(LoadConfiguration.maxSessions) {
                throw fail("stages", "a target must be at most \(LoadConfiguration.maxSessions) sessions")
            }
        case .open(let rate, let slots):
            guard rate > 0, rate.isFinite else { throw fail("arrival-rate", "must be a positive rate per second") }
            guard (1...LoadConfiguration.maxSessions).contains(slots) else {
                throw fail("sessions", "must be 1...\(LoadConfiguration.maxSessions) slots")
            }
        }
        guard (0...LoadConfiguration.maxWriters).contains(configuration.writers) else {
            throw fail("writers", "must be 0...\(LoadConfiguration.maxWriters)")
        }
        if configuration.writers > 0 {
            guard configuration.writeRate > 0, configuration.writeRate.isFinite else {
                throw fail("write-rate", "must be a positive rate per second")
            }
            guard configuration.writeBatch >= 1 else { throw fail("write-batch", "must be at least 1") }
        }
        if let iterations = configuration.iterations,
            !(1...LoadConfiguration.maxIterations).contains(iterations)
        {
            throw fail("iterations", "must be 1...\(LoadConfiguration.maxIterations)")
        }
        let connector = try openBackend(configuration)
        if configuration.pagination == .offset, !(try connector.connect() is any OffsetPageSource) {
            throw fail("pagination", "the \(connector.backendName) backend serves no OFFSET pages")
        }
        self.connector = connector
        let preset = try Preset.named(configuration.writerPreset)
        _ = try configuration.layout.makeLayout()  // a layout that cannot be built fails here, not per session
        self.configuration = configuration
        self.stop = stop
        let (model, share) = Self.share(of: configuration)
        // A segment runs its share of the writers, at their share of the rate, with their seeds.
        let writerCount = configuration.segment?.share(of: configuration.writers) ?? configuration.writers
        if writerCount > 0 {
            writers = WriterPool(
                count: writerCount,
                ratePerSecond: configuration.writeRate * Double(writerCount) / Double(configuration.writers),
                batch: configuration.writeBatch, connector: connector, preset: preset,
                seed: configuration.seed, keepWrites: configuration.keepWrites, mix: configuration.writeMix,
                firstWriter: configuration.segment?.firstOfShare(configuration.writers) ?? 0,
                clock: clock, until: .nanoseconds(Int64(configuration.runSeconds * 1e9)))
        } else {
            writers = nil
        }
        let pool = ConnectionPool(connector: connector, reuseUnchangedSpans: configuration.reuseUnchangedSpans)
        let inserts = SessionInserts()
        sessionInserts = inserts
        scheduler = SessionScheduler(
            model: model, workers: configuration.workers,
            duration: .nanoseconds(Int64(configuration.runSeconds * 1e9)), share: share, stop: stop,
            stages: configuration.stages, io: connector as? any WorkerIOProviding, clock: clock
        ) { index in
            var options = configuration.replay
            options.seed = configuration.replay.seed &+ UInt64(index)
            if case .pagination(let budget) = configuration.session {
                return try PaginationLoadSession(
                    index: index, pool: pool, mode: configuration.pagination,
                    controller: options.controller, pageBudget: budget, insertPreset: preset, seed: options.seed)
            }
            return try ReplayLoadSession(
                index: index, pool: pool, mode: configuration.pagination,
                trace: configuration.traces.trace(forSession: index, seed: configuration.seed),
                layout: configuration.layout, options: options, timeScale: configuration.timeScale,
                insertPreset: preset, latency: configuration.latency, clock: clock,
                inserts: configuration.keepWrites ? nil : inserts)
        }
    }

    /// The arrival model and session numbers of this process's share of the run: all of them, or
    /// a segment's (``LoadSegment``): its share of the concurrent sessions (at least 1 while it has
    /// sessions to run), or of the open model's slots, with the rate ÷ N and its first arrival
    /// where the single run's `I`-th would come; at most `iterations` in all, or the segment's
    /// part of them.
    static func share(of configuration: LoadConfiguration) -> (ArrivalModel, SessionShare) {
        guard let segment = configuration.segment else {
            return (configuration.model, .all(limit: configuration.iterations))
        }
        let limit = configuration.iterations.map { segment.sessions(ofIterations: $0) }
        let model: ArrivalModel
        var firstArrival = Duration.zero
        switch configuration.model {
        case .closed(let sessions):
            model = .closed(sessions: max(1, segment.share(of: sessions)))
        case .open(let rate, let slots):
            model = .open(ratePerSecond: rate / Double(segment.count), slots: max(1, segment.share(of: slots)))
            firstArrival = .nanoseconds(Int64((Double(segment.index - 1) * 1e9 / rate).rounded()))
        }
        return (
            model,
            SessionShare(first: segment.index - 1, stride: segment.count, limit: limit, firstArrival: firstArrival)
        )
    }

    /// Runs the load to the end and returns its report. Process-wide memory settings
    /// (``HeapTuning``) are the executable's to make at start, not the run's.
    ///
    /// A writer or worker thread that cannot be started ends the run before it begins:
    /// ``LoadReport/startFailure`` says which, and no page is served.
    public func run() -> LoadReport {
        if let failure = writers?.start() {
            var report = LoadReport(
                configuration: configuration, counts: SessionCounts(), metrics: writers?.metrics() ?? LoadMetrics(),
                elapsed: .zero, stoppedEarly: true)
            report.startFailure = failure
            return report
        }
        let stages = configuration.stages
        let perSecond: Bool = if case .open = configuration.model { true } else { false }
        let boundaries = stages.map { ramp in ramp.stages.indices.map { ramp.bounds(ofStage: $0).end } } ?? []
        let sampler = TimelineSampler(boundaries: boundaries)
        let monitor = ThresholdMonitor(
            thresholds: configuration.abortOnFail ? configuration.thresholds : [], stop: stop,
            answers: connector as? any AnswerAuditing)
        let (scheduler, writers) = (scheduler, writers)
        sampler.start({ (scheduler.progress(), writers?.metrics()) }, onSample: { monitor.check($0) })
        let result = scheduler.run()
        writers?.stop()
        var cleanup = LoadMetrics()
        do {
            _ = try sessionInserts.deleteAll(through: connector)
        } catch {
            cleanup.recordError(error)
        }
        let writerMetrics = writers?.metrics()
        let (timeline, samples) = sampler.stop(final: result, writers: writerMetrics) { seconds in
            stages.map { $0.label(ofStage: $0.stageIndex(atSeconds: seconds), perSecond: perSecond) }
        }
        var metrics = result.metrics
        if let writerMetrics { metrics.merge(writerMetrics) }
        metrics.merge(cleanup)
        var report = LoadReport(
            configuration: configuration, counts: result.counts, metrics: metrics, elapsed: result.elapsed,
            stoppedEarly: stop.isSet && result.startFailure == nil, answers: (connector as? any AnswerAuditing)?.answerTally)
        report.startFailure = result.startFailure
        report.timeline = timeline
        report.stages = LoadStageReport.stages(samples: samples, stages: stages, perSecond: perSecond)
        report.aborted = monitor.breach
        return report
    }

    /// Counts and metrics so far, for a progress line.
    public func progress() -> LoadProgress {
        let result = scheduler.progress()
        return LoadProgress(
            elapsedSeconds: result.elapsed.seconds, active: result.counts.active, started: result.counts.started,
            pages: result.metrics.pages, pageP99Nanoseconds: result.metrics.pageP99)
    }
}

/// A snapshot for the live progress line.
public struct LoadProgress: Sendable {
    public var elapsedSeconds: Double
    public var active: Int
    public var started: Int
    public var pages: Int
    public var pageP99Nanoseconds: UInt64?

    /// `12.0 s  sessions 8 active / 31 started  1 204 pages/s  p99 0.41 ms`.
    public var line: String {
        let rate = elapsedSeconds > 0 ? Double(pages) / elapsedSeconds : 0
        let p99 = pageP99Nanoseconds.map { LoadReport.milliseconds($0) + " ms" } ?? "-"
        return "\(LoadReport.fixed(elapsedSeconds, 1)) s  sessions \(active) active / \(started) started  "
            + "\(LoadReport.fixed(rate, 0)) pages/s  p99 \(p99)"
    }
}
