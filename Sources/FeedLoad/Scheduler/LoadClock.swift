import Foundation

/// The clock a load is paced by: the scheduler's due times and deadline, the replay sessions'
/// frame pacing (time scale K) and the writers' rate. Query and step timings (latency histograms,
/// replay cost) always use the real monotonic clock: they measure work, not pacing.
///
/// - ``wall``: real time; a wait sleeps the thread.
/// - ``virtual()``: time that moves only when every thread pacing itself by it (its
///   participants: the scheduler's workers and the writers) is waiting, and then jumps to the
///   earliest wake-up, as a discrete-event simulation does. Work takes no virtual time, so a run
///   does the same steps at the same virtual times however loaded the machine is: for tests
///   (swift-nio's `EmbeddedEventLoop` is the model: a deterministic clock behind the seam).
///   It does not move until ``resume()`` (the scheduler calls it once its workers have joined),
///   so writers started first cannot run ahead.
public final class LoadClock: @unchecked Sendable {  // virtual state only touched under `condition`
    /// Real time.
    public static var wall: LoadClock { LoadClock(isVirtual: false) }
    /// A virtual clock starting at its creation instant, paused until ``resume()``.
    public static func virtual() -> LoadClock { LoadClock(isVirtual: true) }

    /// Whether this is a virtual clock.
    public let isVirtual: Bool
    private let origin = ContinuousClock.now
    private let condition = NSCondition()
    private var virtualNow = Duration.zero
    private var participants = 0
    /// The wake-up times of the participants waiting now (one entry per waiting thread).
    private var waiting: [Duration] = []
    private var paused = true

    private init(isVirtual: Bool) {
        self.isVirtual = isVirtual
    }

    /// The current instant: the real one, or the virtual clock's (its creation instant plus the
    /// virtual time elapsed).
    public func now() -> ContinuousClock.Instant {
        guard isVirtual else { return .now }
        return origin.advanced(by: elapsed())
    }

    /// Time since the clock's creation (virtual: the virtual time elapsed).
    public func elapsed() -> Duration {
        guard isVirtual else { return origin.duration(to: .now) }
        condition.lock()
        defer { condition.unlock() }
        return virtualNow
    }

    /// Waits until ``now()`` reaches `deadline`, or at most `cap` (the callers poll: a stop or a
    /// new due step is seen within `cap`). On a virtual clock the caller must be a participant.
    public func wait(until deadline: ContinuousClock.Instant, cap: Duration) {
        guard isVirtual else {
            let delay = min(ContinuousClock.now.duration(to: deadline), cap)
            if delay > .zero { Thread.sleep(forTimeInterval: delay.seconds) }
            return
        }
        let target = min(origin.duration(to: deadline), elapsed() + cap)
        condition.lock()
        defer { condition.unlock() }
        guard target > virtualNow else { return }
        waiting.append(target)
        while virtualNow < target {
            if !paused, waiting.count == participants, let next = waiting.min(), next > virtualNow {
                virtualNow = next
                condition.broadcast()
            } else {
                condition.wait()
            }
        }
        waiting.remove(at: waiting.firstIndex(of: target)!)
    }

    /// `count` threads start pacing themselves by this clock (no-op on the wall clock).
    public func join(_ count: Int = 1) {
        guard isVirtual else { return }
        condition.lock()
        participants += count
        condition.unlock()
    }

    /// A participant stops pacing itself by this clock: the others no longer wait for it.
    public func leave() {
        guard isVirtual else { return }
        condition.lock()
        participants -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// Lets virtual time move (no-op on the wall clock).
    public func resume() {
        guard isVirtual else { return }
        condition.lock()
        paused = false
        condition.broadcast()
        condition.unlock()
    }
}
