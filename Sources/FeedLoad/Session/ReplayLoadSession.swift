import FeedLayout
import FeedReplay
import FeedResources

/// One load session: a trace replayed through the real replay machinery (``ReplaySession``:
/// feed controller, layout, virtualizer, scroll model) against the store on the session's own
/// connection (``TimedBackend``), paced against the load's clock (``LoadClock``: the wall clock, or
/// a virtual one in tests).
///
/// What a user waits for: each page and row answer reaches the replay's virtual clock after the
/// query's measured wall time (``TimedBackend``'s ``FeedReplay/ReplayBackend/lastCallMilliseconds``)
/// plus a draw of `latency` (`--latency`, a network between the app and its backend, added
/// client-side; from the session's seed; `fixed:0` by default), so a slower backend shows as more
/// blank area and later first content. On a virtual ``LoadClock`` (tests) work takes no time, the
/// measured query time included: answers land after the latency draw alone, and a run's figures
/// are the same on any machine. The fault model is `none`: the failures are the real ones. Pacing: with time scale `K`, the
/// frame at virtual time `v` ms is due at `start + v / K` on the load clock (K = 1 replays in real time,
/// K = 10 ten times faster); with `K = nil` (`--time-scale max`) frames run back to back, no think
/// time. A step runs every frame that is due (at most ``maxFramesPerStep``), then asks to wait
/// until the next one is due.
///
/// At the end, each walk the store returned is checked for duplicates and skips against the
/// ground truth (``ConsistencyChecker``), and the replay's own violations (duplicate ids, gaps,
/// order, anchor drift) are counted by kind.
public final class ReplayLoadSession: LoadSession {
    /// Most frames one step runs before it hands its worker back to the scheduler.
    /// At `--time-scale max` every frame is due, so a step runs this many: 128 frames are ~0.3 ms of
    /// simulation plus their queries, short beside the run's one-second checks. With 16 the steps'
    /// own cost (clock reads, flushing the query timings, the scheduler's turn) was ~10 µs of a
    /// page's ~175 µs in `bench load`'s replay sessions; 128 gave 6–8 % more pages/s (`feedsim load
    /// --sessions 2 --workers 2 --time-scale max --model flinger`, 2 of 3 alternating runs; the
    /// third −2 %).
    public static let maxFramesPerStep = 128

    public let index: Int
    /// Speed-up of virtual time over wall time; `nil` for no waiting.
    public let timeScale: Double?
    private let replay: ReplaySession
    private let backend: TimedBackend
    private let pool: ConnectionPool
    private let connections: SessionConnections
    private let maxIDAtStart: Int64
    /// Collects the rows the trace inserted, deleted when the run ends; `nil`: kept.
    private let inserts: SessionInserts?
    /// Whether the backend answers later (an HTTP feed API): see ``awaitsIO``.
    private let answersLater: Bool
    /// Paces the frames.
    private let clock: LoadClock
    private var paceStart: ContinuousClock.Instant?

    /// Takes connections from `pool` (opening them on the calling thread when none is idle), reads
    /// the largest id, and builds the replay. The connections go back in ``finish(interrupted:_:)``
    /// (or at once when this throws).
    /// - Parameters:
    ///   - options: replay options; latency, faults and the timeline are overridden as above.
    ///   - timeScale: `K` > 0, or `nil` for `max`.
    ///   - latency: the client-side network delay of every page and row answer, ms, on top of the
    ///     measured query time (the replay's ``FeedReplay/ReplayOptions/rowLatency`` still applies to
    ///     rows when set).
    ///   - clock: the clock frames are paced by (the scheduler's).
    ///   - inserts: where ``finish(interrupted:_:)`` notes the rows the trace's `insert` events
    ///     wrote, for the run to delete at its end; `nil` keeps them (`--keep-writes`).
    /// - Throws: the backend's errors opening the session's or the ground truth's connection,
    ///   ``LayoutError`` or ``ReplayError`` building the replay.
    public init(
        index: Int, pool: ConnectionPool, mode: PaginationMode, trace: Trace,
        layout: LayoutConfiguration, options: ReplayOptions, timeScale: Double?, insertPreset: Preset,
        latency: LatencyModel = .fixed(ms: 0), clock: LoadClock = .wall, inserts: SessionInserts? = nil
    ) throws {
        self.index = index
        self.inserts = inserts
        self.clock = clock
        self.timeScale = timeScale
        self.pool = pool
        let connections = try pool.take()
        do {
            // Read only where the end-of-session check compares spans (``FeedModel/GroundTruthReader/listsSpans``).
            maxIDAtStart = connections.truth.listsSpans ? try connections.truth.maxID() : 0
            var options = options
            options.latency = latency
            options.faults = .none
            options.keepTimeline = false
            // The load report reads the blank mean, the time to first content and the violations alone.
            options.measures = .loadSummary
            backend = TimedBackend(
                backend: connections.backend, faces: connections.faces, connector: pool.connector, mode: mode,
                insertPreset: insertPreset, seed: options.seed, chargesQueryTime: !clock.isVirtual)
            replay = try ReplaySession(
                trace: trace, layout: try layout.makeLayout(), layoutDescription: layout.summary, backend: backend,
                options: options, axis: layout.scrollAxis)
            // An answer on the wire (an HTTP API's) lands at its issue time plus its measured time,
            // as a database's does, whatever the time scale (``awaitsIO``).
            replay.deferredAnswersChargeTimeOnTheWire = !clock.isVirtual
            replay.deferredIssueStamp = { MonotonicClock.now() }
            answersLater = backend.source.deferred != nil
        } catch {
            pool.give(connections)
            throw error
        }
        self.connections = connections
    }

    public func step(_ metrics: inout LoadMetrics) throws -> Duration? {
        // The steps' own work, always in real time: a plain integer clock read, as the queries are
        // timed (``MonotonicClock``), not `Duration` arithmetic on 128-bit attoseconds.
        let stepStart = MonotonicClock.now()
        let start = paceStart ?? clock.now()
        paceStart = start
        var frames = 0
        defer {
            metrics.frames += frames
            metrics.replayNanoseconds += MonotonicClock.since(stepStart)
            backend.flush(into: &metrics)
        }
        while frames < Self.maxFramesPerStep {
            if awaitsIO { return .zero }
            let more = try replay.advanceFrame()
            frames += 1
            guard more else { return nil }
            if let timeScale {
                let due = start.advanced(by: .nanoseconds(Int64(replay.nextFrameTime * 1e6 / timeScale)))
                let wait = clock.now().duration(to: due)
                if wait > .zero { return wait }
            }
        }
        return .zero
    }

    /// Whether `error` is the failed query the session's backend counted last.
    public func hasCounted(_ error: any Error) -> Bool { backend.source.counted(error) }

    /// Whether the next frame must wait for a request to an HTTP feed API still on the wire: its
    /// answer will land at its issue time plus its time on the wire, so no frame may run past the
    /// time it has been on the wire so far (at `--time-scale max`, none past its issue; at K > 1
    /// the frames slow to the wall clock's pace while it is out: at K = 10 a 40-ms answer still
    /// lands 40 ms after its request, not 400). The worker drives its I/O and runs other sessions
    /// meanwhile. On a virtual clock (tests) nothing is on the wire for long: only the answer's
    /// arrival is awaited.
    public var awaitsIO: Bool {
        // A database answers at once (asked once per frame: not even the replay's list of answers
        // on the wire is read then).
        guard answersLater, let oldest = replay.oldestAnswerOnTheWire else { return false }
        let onTheWireMs =
            timeScale == nil || clock.isVirtual ? 0 : Double(MonotonicClock.since(oldest.stamp)) / 1e6
        return replay.nextFrameTime > oldest.issuedAt + onTheWireMs
    }

    /// Checks every walk against the store now, and counts the replay's violations. Only a replay
    /// that played its whole trace adds its blank area and time to first content: one cut short
    /// (a ramp-down retiring it, the run's end, `--abort-on-fail`, SIGINT) would count the wait
    /// for a first screen it never reached as a fully blank session. k6 likewise leaves an
    /// interrupted iteration out of `iterations`; the session is counted as interrupted.
    public func finish(interrupted: Bool, _ metrics: inout LoadMetrics) throws {
        defer {
            inserts?.add(backend.insertedIDs)
            pool.give(connections)
        }
        let walks = backend.source.walks
        let count = try ConsistencyChecker.check(
            walks: walks, truth: connections.truth, maxIDAtStart: maxIDAtStart, metrics: &metrics)
        let report = replay.result.report
        let violations = report.violations
        if !interrupted {
            metrics.recordReplay(
                blankMeanFraction: report.blank.meanFraction, timeToFirstContentMs: report.timeToFirstContentMs)
        }
        metrics.recordReplayViolations(violations.map(\.kind))
        metrics.recordSession(
            SessionOutcome(
                session: index, consistency: count, itemsLoaded: walks.reduce(0) { $0 + $1.count }, error: nil,
                replayViolations: violations.count))
    }
}
