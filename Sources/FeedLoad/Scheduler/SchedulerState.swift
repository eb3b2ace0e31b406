import FeedReplay

/// The scheduler's shared state, only ever touched under its lock: due steps in a stable queue,
/// arrivals, and session counts.
struct SchedulerState: ~Copyable {
    enum Job {
        /// Nothing to do for this long.
        case wait(Duration)
        /// Create session `index` (its factory runs outside the lock).
        case create(Int)
        /// Run the session's next step.
        case step(SessionBox)
        /// The run is over: end this session early.
        case abandon(SessionBox)
        /// The run is over and nothing is left: the worker returns.
        case exit
    }

    /// Due steps; equal due times in push order, so sessions take turns fairly.
    private var due = EventQueue<ContinuousClock.Instant, SessionBox>()
    private var model = ArrivalModel.closed(sessions: 1)
    private var deadline: ContinuousClock.Instant?
    private(set) var startInstant: ContinuousClock.Instant?
    private var nextArrival: ContinuousClock.Instant?
    private var pendingStarts = 0
    private var nextIndex = 0
    /// Jobs handed out whose session has not come back (pushed or ended) yet.
    private var inFlight = 0
    private var stopping = false
    private(set) var counts = SessionCounts()

    mutating func start(model: ArrivalModel, at now: ContinuousClock.Instant, deadline: ContinuousClock.Instant) {
        self.model = model
        self.startInstant = now
        self.deadline = deadline
        switch model {
        case .closed(let sessions): pendingStarts = sessions
        case .open: nextArrival = now
        }
    }

    mutating func nextJob(now: ContinuousClock.Instant, stopped: Bool, clock: ContinuousClock) -> Job {
        if stopped || now >= (deadline ?? now) { stopping = true }
        if stopping {
            if let (_, box) = due.popFirst() {
                inFlight += 1
                return .abandon(box)
            }
            return inFlight == 0 ? .exit : .wait(.milliseconds(1))
        }
        switch model {
        case .closed:
            if pendingStarts > 0 {
                pendingStarts -= 1
                return create()
            }
        case .open(let rate, let slots):
            let interval = Duration.nanoseconds(Int64((1e9 / rate).rounded()))
            while let arrival = nextArrival, arrival <= now {
                nextArrival = arrival.advanced(by: interval)
                if counts.active < slots { return create() }
                counts.dropped += 1
            }
        }
        if let (_, box) = due.popDue(at: now) {
            inFlight += 1
            return .step(box)
        }
        var wake = deadline ?? now
        if let next = due.nextTime { wake = min(wake, next) }
        if let nextArrival { wake = min(wake, nextArrival) }
        return .wait(now.duration(to: wake))
    }

    private mutating func create() -> Job {
        counts.started += 1
        inFlight += 1
        defer { nextIndex += 1 }
        return .create(nextIndex)
    }

    /// A created or stepped session comes back, due again at `due`.
    mutating func push(_ box: SessionBox, due time: ContinuousClock.Instant) {
        inFlight -= 1
        due.push(box, at: time)
    }

    /// A session ended (finished, failed, or abandoned at the end of the run).
    mutating func ended(failed: Bool, interrupted: Bool = false, now: ContinuousClock.Instant) {
        inFlight -= 1
        if failed {
            counts.failed += 1
        } else if interrupted {
            counts.interrupted += 1
        } else {
            counts.completed += 1
        }
        if case .closed = model, !stopping { pendingStarts += 1 }
    }
}
