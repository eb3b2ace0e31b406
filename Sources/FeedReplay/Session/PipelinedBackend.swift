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
/// synchronous ones too (``insertAtHead(count:at:)``, ``groundTruth(after:limit:)``), runs one at
/// a time in issue order, so each sees exactly the writes issued before it and none issued after
/// (a caller waiting for an answer whose call has not started runs the queued calls itself when the
/// pipeline's thread is not running one: descheduled, asleep, or on a machine with one processor
/// free, the replay is no slower than without the pipeline); the replay pushes each answer on its queue at issue time, due at issue time plus the
/// latency draw, as it pushes a synchronous answer. `ReplayPipelineTests` compares the reports,
/// byte for byte, with and without the pipeline.
///
/// Only for backends that answer on no clock (``ReplayBackend/lastCallMilliseconds`` always 0,
/// as ``StoreBackend``): an answer's due time is fixed when it is issued, before the call has run.
/// The wrapped backend is touched by one thread at a time until ``close()`` returns; the
/// pipeline's thread holds the pipeline, so the owner calls ``close()`` when the replay is done.
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
    /// Callers asleep until the running call ends (``PipelinedAnswer/wait()``, ``drain()``).
    private var waiters = 0
    /// For each queued call, in queue order, what fails its answer when ``close()`` drops it.
    private var droppable: [() -> Void] = []
    /// Whether a thread (the pipeline's, or a caller helping) is running a call: one at a time.
    private var running = false {
        didSet { isRunning.store(running, ordering: .releasing) }
    }
    /// `running`, read without the lock by a waiting caller before it tries to help.
    private let isRunning = Atomic<Bool>(false)
    /// Calls submitted and not yet taken, read without the lock by the thread while it spins.
    private let queued = Atomic<Int>(0)
    /// The first call, in issue order, that failed with a ``FeedModel/PermanentBackendFailure``
    /// (set once, by the pipeline's thread).
    private let failure = Mutex<(any Error)?>(nil)
    /// Whether `failure` is set: read by the replay every frame without taking the lock.
    private let failed = Atomic<Bool>(false)

    /// How long the thread spins for the next call before it sleeps, nanoseconds. A replay issues
    /// a call every ~20 µs of its simulation in bursts; a call that finds the thread asleep costs
    /// the caller a wake-up (a futex call), and an answer needed before the thread is up is run by
    /// the caller itself (``helpOnce()``). Spinning longer kept a busy machine's other work off
    /// that processor: with 2 ms, a replay beside a CPU-bound process took 16× as long.
    static let spinNanoseconds: UInt64 = 200_000

    /// Spins of a waiting caller before it sleeps until the running call ends.
    static let waitSpins = 2_000

    /// Starts the pipeline's thread; `nil` when it cannot be started, or when `backend` answers on a
    /// clock (``ReplayBackend/lastCallMilliseconds`` not 0): then call `backend` directly.
    public init?(_ backend: any ReplayBackend) {
        guard backend.lastCallMilliseconds == 0 else { return nil }
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

    /// Stops the thread: the call running finishes, calls queued and not started are dropped (their
    /// answers fail with ``Closed``: the replay has ended, by ``drain()`` or by an error or an
    /// interruption that reads no more answers). Idempotent; afterwards the wrapped backend may be
    /// used directly, and calls made now run at once on the caller's thread.
    public func close() {
        condition.lock()
        stopping = true
        queued.subtract(jobs.count - head, ordering: .relaxed)
        for fail in droppable[head...] { fail() }
        jobs.removeAll()
        droppable.removeAll()
        head = 0
        condition.broadcast()
        while !stopped || running { condition.wait() }
        condition.unlock()
    }

    /// Waits until every call issued so far has run (running the queued ones on this thread when
    /// the pipeline's thread is not running one). The replay drains at its last frame, so that a
    /// call whose answer it never waited for (still in flight at the end) has run, and its
    /// permanent failure, if any, ends the replay as it would without the pipeline.
    public func drain() {
        while true {
            if helpOnce() { continue }
            condition.lock()
            if head == jobs.count, !running {
                condition.unlock()
                return
            }
            if running {
                waiters += 1
                condition.wait()
                waiters -= 1
            }
            condition.unlock()
        }
    }

    /// The failure of a call dropped by ``close()`` before it ran.
    public struct Closed: Error, CustomStringConvertible {
        public var description: String { "the replay ended before this call ran" }
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
        let answer = PipelinedAnswer<Value>(pipeline: self)
        let job = { [self] in
            let result = Result { try call() }
            if case .failure(let error) = result, error.isPermanentBackendFailure {
                failure.withLock { if $0 == nil { $0 = error } }
                failed.store(true, ordering: .releasing)
            }
            answer.fulfil(result)
        }
        if runsOnCaller {
            // The pipeline's thread is not keeping up (``noteWait(nanoseconds:)``): the calls queued
            // before, then this one, here, for a while.
            callerCallsLeft -= 1
            if callerCallsLeft <= 0 { runsOnCaller = false }
            drain()
            job()
            return answer
        }
        condition.lock()
        guard !stopping else {
            // Closed: nothing else runs on the backend any more; run the call here.
            condition.unlock()
            job()
            return answer
        }
        jobs.append(job)
        droppable.append { answer.fulfil(.failure(Closed())) }
        queued.add(1, ordering: .releasing)
        if sleeping { condition.signal() }
        condition.unlock()
        return answer
    }

    /// Takes the oldest queued call when no thread is running one (the lock held).
    private func takeLocked() -> (() -> Void)? {
        guard !running, head < jobs.count else { return nil }
        let job = jobs[head]
        head += 1
        if head == jobs.count {
            jobs.removeAll(keepingCapacity: true)
            droppable.removeAll(keepingCapacity: true)
            head = 0
        }
        queued.subtract(1, ordering: .relaxed)
        running = true
        return job
    }

    /// Runs `job` (taken by ``takeLocked()``) on the calling thread, then lets the next one be taken.
    private func runTaken(_ job: () -> Void) {
        job()
        condition.lock()
        running = false
        // The other side may be waiting for the lane: the pipeline's thread asleep with calls
        // queued, a caller waiting for this answer, or `close()`.
        if head < jobs.count || stopping || waiters > 0 { condition.broadcast() }
        condition.unlock()
    }

    // The caller's own bookkeeping (only the caller's thread reads or writes these).
    /// Answers the caller asked for in the current window, and how long it waited for them, ns.
    private var windowAnswers = 0
    private var windowLate = 0
    private var windowWaited: UInt64 = 0
    /// Set when the pipeline's thread did not keep up: then calls run on the caller's thread, until
    /// `callerCallsLeft` more have, and the pipeline's thread is tried again.
    private(set) var runsOnCaller = false
    private var callerCallsLeft = 0
    /// Calls run on the caller's thread before the pipeline's thread is tried again: a processor
    /// taken for a moment (a scheduler's hiccup) costs little; taken for good, a window of waiting
    /// (``window``) in each ~1,000 calls.
    static let callerCalls = 1024

    /// Answers per window of ``noteWait(nanoseconds:)``; how many of them may come late; and the
    /// most the caller may wait for them, nanoseconds: about what running them itself would take (a
    /// page or row call takes 5–20 µs).
    static let window = (answers: 128, late: 96, waited: UInt64(1_000_000))

    /// Counts an answer the caller asked for and how long it waited for it (0: it was there). When
    /// most of a window's answers came late, or the caller waited longer for them than running their
    /// calls itself would take, the pipeline's thread is not getting a processor of its own (another process is busy, or
    /// several replays run at once): the two threads take turns, each waiting for the other, which
    /// is slower than one thread (beside a CPU-bound process, 1.3–1.8× the time). From then on the
    /// calls run on the caller's thread and the pipeline's thread sleeps, for ``callerCalls`` calls;
    /// the answers are the same either way. Unloaded, `bench replay`'s caller waited ~10 ms for
    /// 8,800 answers in all.
    func noteWait(nanoseconds: UInt64) {
        windowAnswers += 1
        if nanoseconds > 0 { windowLate += 1 }
        windowWaited += nanoseconds
        guard windowAnswers == Self.window.answers else { return }
        if windowLate > Self.window.late || windowWaited > Self.window.waited {
            runsOnCaller = true
            callerCallsLeft = Self.callerCalls
        }
        windowAnswers = 0
        windowLate = 0
        windowWaited = 0
    }

    /// Sleeps while a call is running and `isDone` is false (woken when the call ends).
    func sleepWhileRunning(_ isDone: () -> Bool) {
        condition.lock()
        waiters += 1
        while running, !isDone() { condition.wait() }
        waiters -= 1
        condition.unlock()
    }

    /// Runs the oldest queued call on the calling thread if no thread is running one: a caller
    /// waiting for an answer whose call the pipeline's thread has not started (descheduled, or
    /// asleep) runs it, and those before it, itself, in order — no slower than without the
    /// pipeline when it cannot run beside the caller.
    /// - Returns: whether a call was run.
    func helpOnce() -> Bool {
        guard queued.load(ordering: .acquiring) > 0, !isRunning.load(ordering: .acquiring) else { return false }
        condition.lock()
        let job = takeLocked()
        condition.unlock()
        guard let job else { return false }
        runTaken(job)
        return true
    }

    /// The pipeline's thread: takes the calls in order; between bursts it spins a while, then sleeps.
    private func run() {
        while true {
            condition.lock()
            if let job = takeLocked() {
                condition.unlock()
                runTaken(job)
                continue
            }
            if stopping, head == jobs.count {
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
            // Asleep while there is nothing it may take: no call queued, or a caller running one.
            while head == jobs.count || running, !(stopping && head == jobs.count) {
                sleeping = true
                condition.wait()
                sleeping = false
            }
            condition.unlock()
        }
    }
}

/// The answer of a call a ``PipelinedBackend`` runs: there once the pipeline's thread (or a
/// waiting caller) has run it.
public final class PipelinedAnswer<Value>: @unchecked Sendable {
    private let done = Atomic<Bool>(false)
    // Written once by the thread that ran the call before `done` is set, read after it is seen set.
    private var result: Result<Value, any Error>?
    /// Where the call was queued: a waiting caller runs queued calls itself when no thread is.
    private unowned let pipeline: PipelinedBackend

    init(pipeline: PipelinedBackend) { self.pipeline = pipeline }

    func fulfil(_ result: Result<Value, any Error>) {
        self.result = result
        done.store(true, ordering: .releasing)
    }

    /// Whether the call has run.
    public var isDone: Bool { done.load(ordering: .acquiring) }

    /// The call's result, waiting for it when it has not run yet: running the calls queued before
    /// it (and it) on this thread when no thread is running one, else spinning a little, then
    /// sleeping until the running call ends.
    public func wait() -> Result<Value, any Error> {
        guard !done.load(ordering: .acquiring) else {
            if !pipeline.runsOnCaller { pipeline.noteWait(nanoseconds: 0) }
            return result!
        }
        // The monotonic clock, only to see whether the pipeline's thread keeps up: never an input
        // of the replay.
        let start = DispatchTime.now().uptimeNanoseconds
        var spins = 0
        while !done.load(ordering: .acquiring) {
            if pipeline.helpOnce() { continue }
            spins += 1
            if spins >= PipelinedBackend.waitSpins {
                pipeline.sleepWhileRunning { self.done.load(ordering: .acquiring) }
                spins = 0
            }
        }
        if !pipeline.runsOnCaller { pipeline.noteWait(nanoseconds: DispatchTime.now().uptimeNanoseconds - start) }
        return result!
    }
}
