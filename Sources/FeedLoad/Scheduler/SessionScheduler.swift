import FeedModel
import Foundation
import Synchronization

/// Runs many ``LoadSession``s on a small pool of threads until they finish, the duration ends or
/// a stop is requested.
///
/// Each worker repeatedly takes the earliest due step (or a due arrival), runs it outside the
/// lock, and puts the session back with its next due time. Waiting sessions cost no thread, so
/// `--sessions 200` with think time runs on 2 cores. Workers sleep at most 1 ms at a time while
/// nothing is due, so a step runs within about 1 ms of its due time.
///
/// A session that throws is ended and its error recorded; the others run on. In the closed model
/// a replacement starts at once; in the open model the freed slot takes the next arrival.
public final class SessionScheduler: Sendable {
    /// Most steps a session runs in one turn while it asks for no wait.
    static let stepsPerTurn = 32

    /// Creates session `index` on the calling worker thread (open its connection there).
    public typealias Factory = @Sendable (_ index: Int) throws -> any LoadSession

    public let model: ArrivalModel
    public let workers: Int
    /// Limit of the run on ``clock``.
    public let duration: Duration
    /// The session numbers this scheduler starts and how many (all from 0 unless a segment or
    /// `--iterations` says otherwise).
    public let share: SessionShare
    /// The ramp of sessions (closed model) or arrivals per second (open model); `nil` for a constant load.
    public let stages: LoadStages?
    /// The clock due times and the deadline are read on (the wall clock, or a virtual one in tests).
    public let clock: LoadClock
    private let factory: Factory
    private let stop: StopSignal
    private let state: Mutex<SchedulerState>
    /// One metrics box per worker: only that worker and ``snapshot()`` lock it.
    private let workerMetrics: [MetricsBox]
    /// The run's end, set when it starts: a turn of steps stops there too (a session running
    /// behind its pacing on a busy machine asks for no wait, and would otherwise run on past it).
    private let deadline = Mutex<ContinuousClock.Instant?>(nil)
    /// Creates each worker's I/O (one libcurl multi handle per worker for an HTTP feed API), or `nil`.
    private let io: (any WorkerIOProviding)?

    /// - Parameters:
    ///   - workers: threads; defaults to `ProcessInfo.activeProcessorCount`.
    ///   - share: which session numbers to start, and at most how many (the run ends when that many
    ///     have ended, before `duration` if they are done sooner).
    ///   - stop: set it (or SIGINT via ``StopSignal/installInterruptHandler()``) to end early.
    ///   - stages: a ramp (``LoadStages``). Closed model: the sessions running follow
    ///     ``LoadStages/sessions(atSeconds:)``; when the target falls, the sessions above it are
    ///     ended at their next step (counted as interrupted; k6's `ramping-vus` with a
    ///     `gracefulRampDown` of 0). Open model: arrivals come at ``LoadStages/arrivalTime(_:)``,
    ///     at most `slots` at once, the rest dropped (k6's `dropped_iterations`).
    ///   - io: makes each worker's ``FeedModel/WorkerIO``: the worker drives it between steps and
    ///     waits in it when nothing is due; a session whose step leaves it ``LoadSession/awaitsIO``
    ///     stays with its worker until its request is answered.
    ///   - clock: ``LoadClock/wall``, or a virtual clock the sessions pace themselves by too.
    /// - Precondition: sessions/slots ≥ 1, rate > 0, workers ≥ 1.
    public init(
        model: ArrivalModel, workers: Int = ProcessInfo.processInfo.activeProcessorCount, duration: Duration,
        share: SessionShare = .all(), stop: StopSignal, stages: LoadStages? = nil,
        io: (any WorkerIOProviding)? = nil, clock: LoadClock = .wall, factory: @escaping Factory
    ) {
        self.io = io
        switch model {
        case .closed(let sessions): precondition(sessions >= 1, "at least one session")
        case .open(let rate, let slots): precondition(rate > 0 && slots >= 1, "a positive rate and a slot")
        }
        precondition(workers >= 1, "at least one worker")
        self.model = model
        self.workers = workers
        self.duration = duration
        self.share = share
        self.stages = stages
        self.stop = stop
        self.clock = clock
        self.factory = factory
        self.state = Mutex(SchedulerState())
        self.workerMetrics = (0..<workers).map { _ in MetricsBox() }
    }

    /// Runs the load on `workers` threads and returns when all have stopped.
    ///
    /// When a worker thread cannot be started (``SchedulerResult/startFailure``), the run is
    /// stopped at once: the workers already started end without running a session (none starts
    /// one before every thread is launched), and none is waited for that never ran.
    /// - Returns: counts of sessions and the metrics merged across workers.
    public func run() -> SchedulerResult {
        let start = clock.now()
        deadline.withLock { $0 = start.advanced(by: duration) }
        state.withLock {
            $0.start(model: model, share: share, at: start, deadline: start.advanced(by: duration), stages: stages)
        }
        let group = DispatchGroup()
        // No worker starts its sessions before every thread is launched: when one cannot start
        // (address space or thread limit), the others have allocated nothing yet and end at once,
        // instead of running sessions in what memory is left (a started worker once aborted in
        // malloc under `ulimit -v` before the start failure could be reported).
        let launched = DispatchGroup()
        launched.enter()
        clock.join(workers)
        var failure: String?
        for worker in 0..<workers {
            group.enter()
            // 8 MiB, as the main thread: debug-build frames reach ~11 KB and skip the 4 KiB guard page
            // unprobed, so a small stack that overflowed would corrupt a neighbour silently.
            let code = ThreadLauncher.start(stackSize: 8 << 20) { [self] in
                launched.wait()
                if !stop.isSet { workerLoop(worker) }
                clock.leave()
                group.leave()
            }
            if code != 0 {
                for _ in worker..<workers { clock.leave() }  // these never run
                group.leave()  // this one never runs
                failure = ThreadLauncher.StartFailure(role: "worker", index: worker, count: workers, code: code).description
                stop.set()
                break
            }
        }
        launched.leave()
        clock.resume()
        group.wait()
        let elapsed = start.duration(to: clock.now())
        return SchedulerResult(
            counts: state.withLock { $0.counts }, metrics: snapshot(), elapsed: elapsed, startFailure: failure)
    }

    /// The session counts and metrics so far (for a progress line); safe from any thread.
    public func progress() -> SchedulerResult {
        let now = clock.now()
        let (counts, start) = state.withLock { ($0.counts, $0.startInstant) }
        return SchedulerResult(counts: counts, metrics: snapshot(), elapsed: (start ?? now).duration(to: now))
    }

    private func snapshot() -> LoadMetrics {
        var total = LoadMetrics()
        for box in workerMetrics { box.metrics.withLock { total.merge($0) } }
        return total
    }

    private func workerLoop(_ worker: Int) {
        let cpuStart = ThreadCPUClock.now()
        defer {
            let cpu = ThreadCPUClock.now() &- cpuStart
            workerMetrics[worker].metrics.withLock { $0.cpuNanoseconds += cpu }
        }
        let workerIO = io?.makeWorkerIO()
        let runEnd = deadline.withLock { $0 }  // set by run() before any worker starts
        /// Sessions waiting for a request on this worker's I/O: popped, so still in flight.
        var parked: [SessionBox] = []
        defer { workerIO?.cancelAll() }
        while true {
            if let workerIO {
                workerIO.perform()
                if !parked.isEmpty {
                    if stop.isSet || clock.now() >= (runEnd ?? clock.now()) {
                        workerIO.cancelAll()
                        for box in parked { end(box, interrupted: true, error: nil, on: worker) }
                        parked.removeAll()
                    } else {
                        // Each session asked once: asking again could get another answer (an
                        // answer arrived meanwhile; a paced replay's wait can end with time), and
                        // a session taken out of `parked` but not pushed was lost, and the run
                        // never ended.
                        var ready: [SessionBox] = []
                        parked.removeAll { box in
                            guard !box.session.awaitsIO else { return false }
                            ready.append(box)
                            return true
                        }
                        if !ready.isEmpty {
                            let now = clock.now()
                            state.withLock { for box in ready { $0.push(box, due: now) } }
                        }
                    }
                }
            }
            let now = clock.now()
            let job = state.withLock { $0.nextJob(now: now, stopped: stop.isSet) }
            switch job {
            case .exit:
                return
            case .wait(let delay):
                if let workerIO {
                    workerIO.wait(microseconds: Int(min(delay.seconds, 0.001) * 1e6))
                } else {
                    clock.wait(until: now.advanced(by: delay), cap: .milliseconds(1))
                }
            case .create(let index):
                do {
                    let session = try factory(index)
                    state.withLock { $0.push(SessionBox(index: index, session: session), due: clock.now()) }
                } catch {
                    workerMetrics[worker].metrics.withLock {
                        $0.recordError(error)
                        $0.recordSession(
                            SessionOutcome(
                                session: index, consistency: ConsistencyCount(), itemsLoaded: 0,
                                error: String(describing: error)))
                    }
                    state.withLock { $0.ended(failed: true, now: clock.now()) }
                }
            case .step(let box):
                if run(box, on: worker) { parked.append(box) }
            case .abandon(let box):
                end(box, interrupted: true, error: nil, on: worker)
            case .retire(let box):
                end(box, interrupted: true, error: nil, on: worker, retired: true)
            }
        }
    }

    /// Runs the session's turn. - Returns: `true` when it awaits its worker's I/O (kept aside, not queued).
    private func run(_ box: SessionBox, on worker: Int) -> Bool {
        do {
            // A session that asks to go on at once (no think time) keeps its worker for up to
            // `stepsPerTurn` steps, so the shared queue's lock is taken once per turn, not per step.
            let runEnd = deadline.withLock { $0 } ?? clock.now()
            let next = try workerMetrics[worker].metrics.withLock { metrics in
                var next = try box.session.step(&metrics)
                var steps = 1
                while next == .zero && steps < Self.stepsPerTurn && !stop.isSet && clock.now() < runEnd
                    && !box.session.awaitsIO
                {
                    next = try box.session.step(&metrics)
                    steps += 1
                }
                return next
            }
            if let next {
                if box.session.awaitsIO { return true }
                state.withLock { $0.push(box, due: clock.now().advanced(by: next)) }
            } else {
                end(box, interrupted: false, error: nil, on: worker)
            }
        } catch {
            // A failed query the session's backend counted already is not counted twice.
            if !box.session.hasCounted(error) { workerMetrics[worker].metrics.withLock { $0.recordError(error) } }
            end(box, interrupted: true, error: error, on: worker)
        }
        return false
    }

    private func end(_ box: SessionBox, interrupted: Bool, error: (any Error)?, on worker: Int, retired: Bool = false) {
        var failed = error != nil
        workerMetrics[worker].metrics.withLock { metrics in
            do {
                try box.session.finish(interrupted: interrupted, &metrics)
            } catch let finishError {
                metrics.recordError(finishError)
                failed = true
            }
            if let error {
                metrics.recordSession(
                    SessionOutcome(
                        session: box.index, consistency: ConsistencyCount(), itemsLoaded: 0,
                        error: String(describing: error)))
            }
        }
        state.withLock {
            $0.ended(failed: failed, interrupted: interrupted && error == nil, retired: retired, now: clock.now())
        }
    }
}

/// A session handed between workers; only the worker that popped it from the scheduler's queue
/// (under its lock) touches it until it is pushed back, so it is never used by two threads at once.
final class SessionBox: @unchecked Sendable {  // one owner at a time, handed over under the state lock
    let index: Int
    let session: any LoadSession

    init(index: Int, session: any LoadSession) {
        self.index = index
        self.session = session
    }
}

/// One worker's metrics behind a lock (a class, because `Mutex` cannot sit in an array).
final class MetricsBox: Sendable {
    let metrics = Mutex(LoadMetrics())
}

/// Sessions started, completed, failed, interrupted and dropped.
public struct SessionCounts: Hashable, Sendable, Codable {
    public var started = 0
    public var completed = 0
    public var failed = 0
    /// Stopped by the end of the run before they finished.
    public var interrupted = 0
    /// Open-model arrivals that found every slot busy.
    public var dropped = 0
    /// Running now.
    public var active: Int { started - completed - failed - interrupted }
}

/// What a run (or the run so far) counted.
public struct SchedulerResult: Sendable {
    public var counts: SessionCounts
    public var metrics: LoadMetrics
    /// Wall time since the run started.
    public var elapsed: Duration
    /// Why the run stopped before it began: a worker thread that could not be started.
    public var startFailure: String? = nil
}

extension Duration {
    /// This duration in seconds.
    package var seconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) * 1e-18
    }
}
