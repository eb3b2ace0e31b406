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
        /// A ramp's target fell below the sessions running: end this one early (it is not replaced).
        case retire(SessionBox)
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
    /// Sessions created so far (the next one is `share.session(created)`).
    private var created = 0
    private var share = SessionShare.all()
    /// Jobs handed out whose session has not come back (pushed or ended) yet.
    private var inFlight = 0
    private var stopping = false
    private(set) var counts = SessionCounts()
    /// The ramp, when the load has stages (`nil`: the model's constant sessions or rate).
    private var stages: LoadStages?
    /// Arrivals of a ramped open model handed out so far (due or dropped), this share's.
    private var arrivalsDue = 0
    /// Sessions handed out to be retired (a ramp down) that have not ended yet.
    private var retiring = 0

    mutating func start(
        model: ArrivalModel, share: SessionShare = .all(), at now: ContinuousClock.Instant,
        deadline: ContinuousClock.Instant, stages: LoadStages? = nil
    ) {
        self.model = model
        self.share = share
        self.startInstant = now
        self.deadline = deadline
        self.stages = stages
        switch model {
        case .closed(let sessions): pendingStarts = stages == nil ? sessions : 0
        case .open:
            nextArrival = stages == nil
                ? now.advanced(by: share.firstArrival) : rampArrival(0, from: now)
        }
    }

    /// Whether every session of a limited share (`--iterations`) has been created.
    private var exhausted: Bool { share.limit.map { created >= $0 } ?? false }

    /// Seconds from the start of the run to `now`.
    private func elapsed(_ now: ContinuousClock.Instant) -> Double {
        (startInstant ?? now).duration(to: now).seconds
    }

    /// The arrival after `arrival`: one interval later at a constant rate, or the ramp's next.
    private mutating func arrival(after arrival: ContinuousClock.Instant, rate: Double) -> ContinuousClock.Instant? {
        guard stages != nil, let start = startInstant else {
            return arrival.advanced(by: .nanoseconds(Int64((1e9 / rate).rounded())))
        }
        arrivalsDue += 1
        return rampArrival(arrivalsDue, from: start)
    }

    /// When this share's `k`-th arrival of a ramp (from 0) is due: the single run's arrival
    /// number `share.session(k)` (from 0), so a segment's arrivals are the whole run's dealt out
    /// (k6's `ramping-arrival-rate` over execution segments); `nil` when the stages end first.
    private func rampArrival(_ k: Int, from start: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        stages?.arrivalTime(share.session(k) + 1).map { start.advanced(by: .seconds($0)) }
    }

    mutating func nextJob(now: ContinuousClock.Instant, stopped: Bool) -> Job {
        if stopped || now >= (deadline ?? now) { stopping = true }
        // All of a limited share's sessions created and ended: the run is over before its deadline.
        if exhausted && inFlight == 0 && due.isEmpty { stopping = true }
        if stopping {
            if let (_, box) = due.popFirst() {
                inFlight += 1
                return .abandon(box)
            }
            return inFlight == 0 ? .exit : .wait(.milliseconds(1))
        }
        // The ramp's target now (closed model with stages): sessions start up to it; above it,
        // the next session due for a step is retired instead.
        var target: Int?
        switch model {
        case .closed:
            if let stages {
                let wanted = share.part(of: stages.sessions(atSeconds: elapsed(now)))
                target = wanted
                if counts.active < wanted && !exhausted { return create() }
            } else if pendingStarts > 0 && !exhausted {
                pendingStarts -= 1
                return create()
            }
        case .open(let rate, let slots):
            while let arrival = nextArrival, arrival <= now {
                nextArrival = self.arrival(after: arrival, rate: rate)
                if exhausted {
                    nextArrival = nil
                    break
                }
                if counts.active < slots { return create() }
                counts.dropped += 1
            }
        }
        if let (_, box) = due.popDue(at: now) {
            inFlight += 1
            if let target, counts.active - retiring > target {
                retiring += 1
                return .retire(box)
            }
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
        defer { created += 1 }
        return .create(share.session(created))
    }

    /// A created or stepped session comes back, due again at `due`.
    mutating func push(_ box: SessionBox, due time: ContinuousClock.Instant) {
        inFlight -= 1
        due.push(box, at: time)
    }

    /// A session ended (finished, failed, or abandoned at the end of the run).
    mutating func ended(failed: Bool, interrupted: Bool = false, retired: Bool = false, now: ContinuousClock.Instant) {
        inFlight -= 1
        if retired { retiring -= 1 }
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
