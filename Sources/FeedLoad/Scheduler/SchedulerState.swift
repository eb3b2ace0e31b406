/// The scheduler's shared state, only ever touched under its lock: due steps in a min-heap,
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

    private struct Entry {
        var due: ContinuousClock.Instant
        var sequence: Int
        var box: SessionBox

        /// Earlier due first; ties in push order, so sessions take turns fairly.
        func precedes(_ other: Entry) -> Bool {
            due != other.due ? due < other.due : sequence < other.sequence
        }
    }

    private var heap: [Entry] = []
    private var sequence = 0
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
            if !heap.isEmpty {
                inFlight += 1
                return .abandon(popMin().box)
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
        if let top = heap.first, top.due <= now {
            inFlight += 1
            return .step(popMin().box)
        }
        var wake = deadline ?? now
        if let top = heap.first { wake = min(wake, top.due) }
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
    mutating func push(_ box: SessionBox, due: ContinuousClock.Instant) {
        inFlight -= 1
        sequence += 1
        heap.append(Entry(due: due, sequence: sequence, box: box))
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
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

    private mutating func popMin() -> Entry {
        let top = heap[0]
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var smallest = parent
                if left < heap.count && heap[left].precedes(heap[smallest]) { smallest = left }
                if right < heap.count && heap[right].precedes(heap[smallest]) { smallest = right }
                if smallest == parent { break }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return top
    }
}
