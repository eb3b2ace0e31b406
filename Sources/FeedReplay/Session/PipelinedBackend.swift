import FeedEngine
import FeedModel
import Foundation
import Synchronization

/// Runs a ``ReplayBackend``'s calls on a thread of their own, one at a time in the order they were
/// issued, so that a replay's queries overlap its simulation on a second core: the replay issues a
/// page or row request (``startPage(_:)``, ``startRows(ids:)``), keeps simulating, and takes the
/// answer (``PipelinedAnswer/wait()``) when its latency has passed on the virtual clock — 120 ms
/// there is ~14 frames, which the simulator runs in a few tens of microseconds, about as long as
/// the query takes.
///
/// The answers are the ones the replay would get calling the backend itself: every call, the
/// synchronous ones too (``insertAtHead(count:at:)``, ``groundTruth(after:limit:)``), runs on the
/// one thread in issue order, so each sees exactly the writes issued before it and none issued
/// after; the replay pushes each answer on its queue at issue time, due at issue time plus the
/// latency draw, as it pushes a synchronous answer. `ReplayPipelineTests` compares the reports,
/// byte for byte, with and without the pipeline.
///
/// Only for backends that answer on no clock (``ReplayBackend/lastCallMilliseconds`` always 0,
/// as ``StoreBackend``): an answer's due time is fixed when it is issued, before the call has run.
/// The wrapped backend is touched by the pipeline's thread alone until ``close()`` returns; the
/// thread holds the pipeline, so the owner calls ``close()`` when the replay is done.
public final class PipelinedBackend: ReplayBackend, @unchecked Sendable {
    /// The backend the calls run on.
    public let wrapped: any ReplayBackend

    private let condition = NSCondition()
    // Guarded by `condition`: the calls not yet started, oldest first from `head`.
    private var jobs: [() -> Void] = []
    private var head = 0
    private var stopping = false
    private var sleeping = false
    private var stopped = false
    /// Calls submitted and not yet taken, read without the lock by the thread while it spins.
    private let queued = Atomic<Int>(0)
    /// The first call, in issue order, that failed with a ``FeedModel/PermanentBackendFailure``
    /// (set once, by the pipeline's thread).
    private let failure = Mutex<(any Error)?>(nil)
    /// Whether `failure` is set: read by the replay every frame without taking the lock.
    private let failed = Atomic<Bool>(false)

    /// How long the thread spins for the next call before it sleeps, nanoseconds. A replay issues
    /// a call every ~20 µs of its simulation and needs some answers a few frames (~10 µs) later: a
    /// sleeping thread would cost each call a wake-up (a futex call, and tens of microseconds
    /// before the thread runs). With 100 µs the pipelined `bench replay` was no faster than the
    /// synchronous one; the thread sleeps only between replays or when a trace pauses.
    static let spinNanoseconds: UInt64 = 2_000_000

    /// Starts the pipeline's thread; `nil` when it cannot be started (then call `backend` directly).
    public init?(_ backend: any ReplayBackend) {
        wrapped = backend
        let code = DetachedThread.start(stackSize: 1 << 20) { [self] in run() }
        if code != 0 { return nil }
    }

    /// Whether pipelining can pay here: this process may run on at least two processors at once
    /// (its CPU affinity, as `taskset` sets it, and its cgroup's CPU quota, as `docker --cpus`
    /// sets it). On one, the two threads would only take turns, the waiting one spinning.
    public static var isWorthwhile: Bool { usableProcessors >= 2 }

    /// Processors this thread may use at once: the processors online, fewer when its affinity mask
    /// (`Cpus_allowed` in `/proc/thread-self/status`) or its cgroup v2 quota (`/sys/fs/cgroup/cpu.max`)
    /// allows less.
    static var usableProcessors: Double {
        usableProcessors(
            online: ProcessInfo.processInfo.activeProcessorCount,
            status: (try? String(contentsOfFile: "/proc/thread-self/status", encoding: .utf8))
                ?? (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)),
            cpuMax: try? String(contentsOfFile: "/sys/fs/cgroup/cpu.max", encoding: .utf8))
    }

    /// ``usableProcessors`` from the texts it reads: `status` holds a line `Cpus_allowed:\tHEX`
    /// (comma-separated 32-bit groups; one processor per set bit), `cpuMax` is `QUOTA PERIOD` or
    /// `max PERIOD` (microseconds; `QUOTA / PERIOD` processors). Either may be missing.
    static func usableProcessors(online: Int, status: String?, cpuMax: String?) -> Double {
        var processors = Double(online)
        if let line = status?.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed:") }) {
            let hex = line.dropFirst("Cpus_allowed:".count).filter { $0.isHexDigit }
            let allowed = hex.reduce(0) { $0 + (Int(String($1), radix: 16) ?? 0).nonzeroBitCount }
            if allowed > 0 { processors = min(processors, Double(allowed)) }
        }
        let fields = cpuMax?.split(whereSeparator: { $0 == " " || $0 == "\n" }) ?? []
        if fields.count == 2, let quota = Double(fields[0]), let period = Double(fields[1]), period > 0 {
            processors = min(processors, quota / period)
        }
        return processors
    }

    /// Runs every call still queued, then stops the thread. Idempotent; afterwards the wrapped
    /// backend may be used directly.
    public func close() {
        condition.lock()
        stopping = true
        condition.broadcast()
        while !stopped { condition.wait() }
        condition.unlock()
    }

    /// The first call, in issue order, that failed with a permanent failure (a corrupt database):
    /// the replay ends with it, as it does with a synchronous backend's.
    public var permanentFailure: (any Error)? {
        failed.load(ordering: .acquiring) ? failure.withLock { $0 } : nil
    }

    /// Starts the page query; its answer is the one ``page(_:)`` would give now.
    public func startPage(_ request: FeedController.FetchRequest) -> PipelinedAnswer<Page> {
        start { [wrapped] in try wrapped.page(request) }
    }

    /// Starts the row fetch; its answer is the one ``rows(ids:)`` would give now.
    public func startRows(ids: [Int64]) -> PipelinedAnswer<RowBatch> {
        start { [wrapped] in try wrapped.rows(ids: ids) }
    }

    /// Starts the ground-truth read of the gap check; its answer is the one
    /// ``groundTruthCursors(after:limit:)`` would give now.
    public func startGroundTruthCursors(after cursor: Cursor, limit: Int) -> PipelinedAnswer<[Cursor]> {
        start { [wrapped] in try wrapped.groundTruthCursors(after: cursor, limit: limit) }
    }

    public func page(_ request: FeedController.FetchRequest) throws -> Page {
        try startPage(request).wait().get()
    }

    public func rows(ids: [Int64]) throws -> RowBatch {
        try startRows(ids: ids).wait().get()
    }

    /// Waits for the calls issued before, then writes; an earlier call's permanent failure is
    /// thrown instead (a synchronous replay would have ended with it first).
    public func insertAtHead(count: Int, at t: Double) throws {
        let result = start { [wrapped] in try wrapped.insertAtHead(count: count, at: t) }.wait()
        if case .failure = result, let earlier = permanentFailure { throw earlier }
        try result.get()
    }

    public func groundTruth(after cursor: Cursor, limit: Int) throws -> [Item] {
        try start { [wrapped] in try wrapped.groundTruth(after: cursor, limit: limit) }.wait().get()
    }

    public func groundTruthCursors(after cursor: Cursor, limit: Int) throws -> [Cursor] {
        try startGroundTruthCursors(after: cursor, limit: limit).wait().get()
    }

    /// Queues `call`; the pipeline's thread runs it after every call queued before.
    private func start<Value>(_ call: @escaping () throws -> Value) -> PipelinedAnswer<Value> {
        let answer = PipelinedAnswer<Value>()
        let job = { [self] in
            let result = Result { try call() }
            precondition(wrapped.lastCallMilliseconds == 0, "a pipelined backend must answer on no clock")
            if case .failure(let error) = result, error.isPermanentBackendFailure {
                failure.withLock { if $0 == nil { $0 = error } }
                failed.store(true, ordering: .releasing)
            }
            answer.fulfil(result)
        }
        condition.lock()
        precondition(!stopping, "call on a closed pipeline")
        jobs.append(job)
        queued.add(1, ordering: .releasing)
        if sleeping { condition.signal() }
        condition.unlock()
        return answer
    }

    /// The pipeline's thread: takes the calls in order; between bursts it spins a while, then sleeps.
    private func run() {
        while true {
            condition.lock()
            if head < jobs.count {
                let job = jobs[head]
                head += 1
                if head == jobs.count {
                    jobs.removeAll(keepingCapacity: true)
                    head = 0
                }
                queued.subtract(1, ordering: .relaxed)
                condition.unlock()
                job()
                continue
            }
            if stopping {
                stopped = true
                condition.broadcast()
                condition.unlock()
                return
            }
            condition.unlock()
            let spinUntil = DispatchTime.now().uptimeNanoseconds + Self.spinNanoseconds
            var spins = 0
            while queued.load(ordering: .acquiring) == 0 {
                spins += 1
                if spins & 255 == 0, DispatchTime.now().uptimeNanoseconds >= spinUntil { break }
            }
            condition.lock()
            while head == jobs.count, !stopping {
                sleeping = true
                condition.wait()
                sleeping = false
            }
            condition.unlock()
        }
    }
}

/// The answer of a call a ``PipelinedBackend`` runs: there once the pipeline's thread has run it.
public final class PipelinedAnswer<Value>: @unchecked Sendable {
    private let done = Atomic<Bool>(false)
    // Written once by the pipeline's thread before `done` is set, read after it is seen set.
    private var result: Result<Value, any Error>?

    init() {}

    func fulfil(_ result: Result<Value, any Error>) {
        self.result = result
        done.store(true, ordering: .releasing)
    }

    /// Whether the call has run.
    public var isDone: Bool { done.load(ordering: .acquiring) }

    /// The call's result, waiting for it when it has not run yet (spinning, then yielding the processor).
    public func wait() -> Result<Value, any Error> {
        var spins = 0
        while !done.load(ordering: .acquiring) {
            spins += 1
            if spins > 100_000 { sched_yield() }
        }
        return result!
    }
}
