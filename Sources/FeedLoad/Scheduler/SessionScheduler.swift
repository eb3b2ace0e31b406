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
    /// The clock due times and the deadline are read on (the wall clock, or a virtual one in tests).
    public let clock: LoadClock
    private let factory: Factory
    private let stop: StopSignal
    private let state: Mutex<SchedulerState>
    /// One metrics box per worker: only that worker and ``snapshot()`` lock it.
    private let workerMetrics: [MetricsBox]

    /// - Parameters:
    ///   - workers: threads; defaults to `ProcessInfo.activeProcessorCount`.
    ///   - stop: set it (or SIGINT via ``StopSignal/installInterruptHandler()``) to end early.
    ///   - clock: ``LoadClock/wall``, or a virtual clock the sessions pace themselves by too.
    /// - Precondition: sessions/slots ≥ 1, rate > 0, workers ≥ 1.
    public init(
        model: ArrivalModel, workers: Int = ProcessInfo.processInfo.activeProcessorCount, duration: Duration,
        stop: StopSignal, clock: LoadClock = .wall, factory: @escaping Factory
    ) {
        switch model {
        case .closed(let sessions): precondition(sessions >= 1, "at least one session")
        case .open(let rate, let slots): precondition(rate > 0 && slots >= 1, "a positive rate and a slot")
        }
        precondition(workers >= 1, "at least one worker")
        self.model = model
        self.workers = workers
        self.duration = duration
        self.stop = stop
        self.clock = clock
        self.factory = factory
        self.state = Mutex(SchedulerState())
        self.workerMetrics = (0..<workers).map { _ in MetricsBox() }
    }

    /// Runs the load on `workers` threads and returns when all have stopped.
    ///
    /// When a worker thread cannot be started (``SchedulerResult/startFailure``), the run is
    /// stopped at once: the workers already started end, and none is waited for that never ran.
    /// - Returns: counts of sessions and the metrics merged across workers.
    public func run() -> SchedulerResult {
        let start = clock.now()
        state.withLock { $0.start(model: model, at: start, deadline: start.advanced(by: duration)) }
        let group = DispatchGroup()
        clock.join(workers)
        var failure: String?
        for worker in 0..<workers {
            group.enter()
            // 8 MiB, as the main thread: debug-build frames reach ~11 KB and skip the 4 KiB guard page
            // unprobed, so a small stack that overflowed would corrupt a neighbour silently.
            let code = ThreadLauncher.start(stackSize: 8 << 20) { [self] in
                workerLoop(worker)
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
        while true {
            let now = clock.now()
            let job = state.withLock { $0.nextJob(now: now, stopped: stop.isSet, clock: ContinuousClock()) }
            switch job {
            case .exit:
                return
            case .wait(let delay):
                clock.wait(until: now.advanced(by: delay), cap: .milliseconds(1))
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
                run(box, on: worker)
            case .abandon(let box):
                end(box, interrupted: true, error: nil, on: worker)
            }
        }
    }

    private func run(_ box: SessionBox, on worker: Int) {
        do {
            // A session that asks to go on at once (no think time) keeps its worker for up to
            // `stepsPerTurn` steps, so the shared queue's lock is taken once per turn, not per step.
            let next = try workerMetrics[worker].metrics.withLock { metrics in
                var next = try box.session.step(&metrics)
                var steps = 1
                while next == .zero && steps < Self.stepsPerTurn && !stop.isSet {
                    next = try box.session.step(&metrics)
                    steps += 1
                }
                return next
            }
            if let next {
                state.withLock { $0.push(box, due: clock.now().advanced(by: next)) }
            } else {
                end(box, interrupted: false, error: nil, on: worker)
            }
        } catch {
            workerMetrics[worker].metrics.withLock { $0.recordError(error) }
            end(box, interrupted: true, error: error, on: worker)
        }
    }

    private func end(_ box: SessionBox, interrupted: Bool, error: (any Error)?, on worker: Int) {
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
        state.withLock { $0.ended(failed: failed, interrupted: interrupted && error == nil, now: clock.now()) }
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
