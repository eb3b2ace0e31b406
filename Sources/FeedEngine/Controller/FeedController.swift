import FeedModel

/// The feed's load state machine: decides when to run Init, Refresh, More and prepends, merges the
/// pages that come back into one list in feed order, and says what changed.
///
/// A value type in swift-nio's shape: each event is a `mutating func` that takes the time in
/// milliseconds and returns ``FeedAction``s; the caller runs the fetches, applies the changes to the
/// layout and calls back. No clock, I/O or unseeded randomness inside (jitter comes from a
/// ``SplitMix64`` seeded by ``RetryPolicy/seed``).
///
/// ```
///  notStarted ─start─► initializing(Init in flight) ─page─► running(list, top: endReached,
///                                                              bottom: idle|endReached)
///  running, pull ≥ threshold ─► generation += 1, top: active(Refresh)
///                          ├─ newest page reaches the first item ─► prepend the new ones (merge)
///                          └─ gap ─► active(gapFill) × ≤ maxGapPages ─┬─ closed ─► prepend all
///                                                                      └─ not ─► replace, generation += 1
///  running, viewport within prefetch distance of the end ─► bottom: active(More) ─page─► append
///  failure ─► waitingToRetry(retryAt) ─tick─► inFlight(attempt + 1) … ─► gaveUp until a user trigger
/// ```
///
/// Rules:
/// - At most one request per direction is the controller's; a trigger while that direction loads is
///   coalesced. A More whose generation became old (a Refresh, a list replacement) is abandoned at
///   once: the bottom is idle and may load again, and the old answer is dropped when it lands (as
///   Paging 3 cancels the old generation's loads on invalidation).
/// - A Refresh starts a new generation; so does replacing the list after an unclosable gap. Answers of
///   older generations are dropped (``FeedAction/dropStale(_:)``) and counted, never merged.
/// - After every ``FeedAction/apply(_:)`` the controller does not trust its viewport until the driver
///   reports the new geometry with ``viewportChanged(_:now:)``: that call is "the check right after
///   a page is applied" (the controller cannot know the new content length before the layout does).
/// - Short content: the prefetch distance is measured from the viewport's edge to the end of the
///   content, so content that ends inside the viewport (a negative distance) fires More without any
///   scrolling, page after page, until the viewport is filled or the feed ends.
/// - Pages that add no extent: when a page applied at one end (More's append, or Init's list at the
///   bottom; a prepend at the top) left the content length no greater than before and the viewport
///   did not move (the same content offset and viewport length in the report after it), that end
///   stalls: nothing loads there until the viewport moves or the content grows. Without it a layout
///   whose content never grows with items (a strip, a grid with more columns than items) would load
///   the whole feed under the short-content rule. Replacing a non-empty list or dropping pages ends
///   the watch (``viewportChanged(_:now:)`` is where the check runs).
/// - End of feed: the bottom stays `endReached` (no request on bounces) until page dropping unloads
///   bottom pages or a Refresh replaces the list. The top is `endReached` after Init and after each
///   Refresh; ``upstreamInserted(count:now:)`` only counts the new items (``newerItemsAvailable``, a
///   "new posts" pill) until a pull refreshes.
/// - Failure leaves the list as it was. Retries back off (``RetryPolicy``); after `maxAttempts` the
///   direction is failed until a user trigger: a pull (top, and it also revives a failed bottom) or
///   ``retry(now:)`` (every failed direction, like Paging 3's `retry()`).
/// - Page dropping (``Configuration/maxLoadedItems``): after a load at one end pushes the count over
///   the maximum, whole pages at the other end are dropped if they lie beyond the viewport plus the
///   prefetch distance and that direction is not loading; that direction becomes loadable again.
///
/// The state is one private enum in swift-nio's shape (`State`, drawn in FeedController+Lanes.swift):
/// each case carries only what that stage needs, so a bottom load before Init, an Init of a running
/// controller, or a page waiting for its extent check while the viewport is trusted cannot be
/// represented. Handlers that work on a running controller receive its payload `inout` while the
/// state holds `.modifying` (as NIO does, so the payload is not copied on write).
public struct FeedController: Sendable {
    public let configuration: Configuration

    /// Loaded item stubs, in feed order (newest first), unique by id.
    public internal(set) var items: [Item] = []
    /// What the controller counted so far.
    public internal(set) var counters = Counters()
    /// The current generation (0 until the first Refresh).
    public internal(set) var generation = 0
    /// Items known to be inserted above the list since the top was last reached: the "new posts" pill.
    /// A pull to refresh loads them.
    public internal(set) var newerItemsAvailable = 0

    /// Sizes of the loaded pages, in list order; their sum is `items.count`. Dropping removes whole pages.
    var pageSizes: [Int] = []
    var nextRequestID = 1
    /// Ids of requests of older generations abandoned while in flight, dropped when they answer.
    var abandoned = Set<Int>()
    var rng: SplitMix64
    /// Actions collected during one event.
    var pending: [FeedAction] = []
    /// What a driver reads every frame, as of the last event (see ``Status``).
    public private(set) var status = Status()

    private var state: State = .notStarted(nil)
    /// What a report of a running controller may do without touching ``state`` (see
    /// ``QuietReports``), as the last event left it; `nil` when every report must run in full.
    private var quietReports: QuietReports?
    /// The newest report taken by the quiet path: the running payload's geometry is
    /// `.current(quietViewport)`, written there when a handler next takes the payload.
    private var quietViewport: Viewport?
    /// Whether reports may take the quiet path; tests turn it off for the oracle. Reports taken
    /// by it, for tests.
    var usesQuietReports = true
    var quietReportsTaken = 0
    /// ``phase`` as the last event left it (`.idle` before any: the phase of `.notStarted`).
    private var phaseAfterLastEvent = Phase.idle

    /// Where the controller stands; each case carries what that stage needs and nothing else.
    private enum State: Sendable {
        /// Before ``start(now:)``: only the last reported viewport, if any.
        case notStarted(Viewport?)
        /// Init issued and not answered: its attempt, and the last reported viewport. The bottom
        /// has no lane yet (nothing loads below an empty list).
        case initializing(Attempt<InitialLoad>, Viewport?)
        /// Init answered: both lanes, the geometry and the stalls (``Running``).
        case running(Running)
        /// A handler holds the running payload `inout`; never seen outside one.
        case modifying
    }

    /// - Throws: ``ConfigurationError`` naming the first invalid field.
    public init(configuration: Configuration) throws(ConfigurationError) {
        try configuration.validate()
        self.configuration = configuration
        self.rng = SplitMix64(seed: configuration.retry.seed)
    }

    /// The feed's phase (see ``Phase`` for how it is derived).
    public var phase: Phase {
        switch state {
        case .notStarted:
            return .idle
        case .initializing(let attempt, _):
            return attempt.pendingLoad == nil ? .failed : .initial
        case .running(let running):
            return running.phase
        case .modifying:
            preconditionFailure("phase read while a handler holds the state")
        }
    }

    /// The load state of one direction.
    public func loadState(_ direction: LoadDirection) -> LoadState {
        switch (state, direction) {
        case (.notStarted, _), (.initializing, .bottom):
            return .idle
        case (.initializing(let attempt, _), .top):
            return attempt.loadState
        case (.running(let running), .top):
            return running.top.loadState
        case (.running(let running), .bottom):
            return running.bottom.loadState
        case (.modifying, _):
            preconditionFailure("load state read while a handler holds the state")
        }
    }

    /// The load state per direction, as Paging 3's `LoadStates`, derived from the state:
    /// - refresh: loading while Init, a Refresh or its gap-fill is in flight; error while one of
    ///   them failed (waiting to retry or given up); idle otherwise (Paging 3's refresh is never
    ///   `endOfPaginationReached`).
    /// - prepend: loading / error for a prepend on the top lane; end when the top reached the
    ///   feed's head; idle otherwise (also while a refresh holds the top lane, as Paging 3's
    ///   prepend is `NotLoading` during a refresh).
    /// - append: the bottom lane: idle, loading (More), error (waiting to retry or given up), end.
    public var directionalLoadStates: DirectionalLoadStates {
        var states = DirectionalLoadStates()
        switch state {
        case .notStarted:
            break
        case .initializing(let attempt, _):
            states.refresh = attempt.directionalState
        case .running(let running):
            states = running.directionalLoadStates
        case .modifying:
            preconditionFailure("load states read while a handler holds the state")
        }
        return states
    }

    /// Requests in flight: at most one per direction, plus the abandoned ones of older generations
    /// until they answer.
    public var inFlightCount: Int { activeRequestCount + abandoned.count }

    /// Requests in flight of the controller's own (at most one per direction), abandoned ones not counted.
    public var activeRequestCount: Int {
        switch state {
        case .notStarted: return 0
        case .initializing(let attempt, _): return attempt.request == nil ? 0 : 1
        case .running(let running):
            return running.activeRequestCount
        case .modifying: preconditionFailure("requests counted while a handler holds the state")
        }
    }

    /// The first rule the state breaks that its types cannot exclude, `nil` when none (for tests,
    /// as swift-collections' `_checkInvariants`): lanes hold only their direction's requests, the
    /// bottom's request is of the current generation, the page sizes add up to the list.
    var invariantViolation: String? {
        if pageSizes.reduce(0, +) != items.count { return "page sizes \(pageSizes) do not add up to \(items.count)" }
        switch state {
        case .notStarted:
            return items.isEmpty ? nil : "items before start"
        case .initializing(let attempt, _):
            if let request = attempt.request, request.kind != .initial { return "Init lane holds \(request)" }
            return items.isEmpty ? nil : "items before Init answered"
        case .running(let running):
            return running.invariantViolation(generation: generation)
        case .modifying:
            return "state left modifying"
        }
    }

    /// Runs one event: collects its actions and appends `.phaseChanged` when the phase moved.
    private mutating func handle(_ body: (inout FeedController) -> Void) -> [FeedAction] {
        // `state` only changes inside a handler, so the phase at the start of this event is the one
        // the last event ended with: kept, not derived again (each derivation copies the running payload).
        let before = phaseAfterLastEvent
        pending = []
        body(&self)
        var actions = pending
        pending = []
        let after = phase
        phaseAfterLastEvent = after
        if before != after { actions.append(.phaseChanged(from: before, to: after)) }
        status = Status(inFlightCount: inFlightCount, loadStates: directionalLoadStates)
        if case .running(let running) = state {
            quietReports = QuietReports(running, itemsEmpty: items.isEmpty)
        } else {
            quietReports = nil
        }
        return actions
    }

    /// ``viewportChanged(_:now:)`` of a running controller: ``handle(_:)`` and ``modifyRunning(_:)``
    /// in one, with the phase and ``status`` derived from the running payload while it is held (the
    /// same derivations as ``phase``, ``inFlightCount`` and ``directionalLoadStates``).
    private mutating func reportWhileRunning(_ viewport: Viewport) -> [FeedAction] {
        let before = phaseAfterLastEvent
        pending = []
        guard case .running(var running) = state else { preconditionFailure("not running") }
        state = .modifying
        takeQuietViewport(into: &running)
        report(viewport, in: &running)
        let after = running.phase
        status = Status(
            inFlightCount: running.activeRequestCount + abandoned.count, loadStates: running.directionalLoadStates)
        quietReports = QuietReports(running, itemsEmpty: items.isEmpty)
        state = .running(running)
        var actions = pending
        pending = []
        phaseAfterLastEvent = after
        if before != after { actions.append(.phaseChanged(from: before, to: after)) }
        return actions
    }

    /// Hands the running payload to `body` `inout`, the state holding `.modifying` meanwhile.
    private mutating func modifyRunning(_ body: (inout FeedController, inout Running) -> Void) {
        guard case .running(var running) = state else { preconditionFailure("not running") }
        state = .modifying
        takeQuietViewport(into: &running)
        body(&self, &running)
        state = .running(running)
    }

    /// Writes the report the quiet path took into the payload's geometry (where ``report(_:in:)``
    /// would have put it), before a handler reads the payload.
    private mutating func takeQuietViewport(into running: inout Running) {
        guard let viewport = quietViewport else { return }
        running.geometry = .current(viewport)
        quietViewport = nil
    }

    /// When a report of a running controller changes nothing but the geometry it keeps: the
    /// geometry is trusted (`.current`, so no end waits for its extent check), no end has stalled
    /// (so no stall can lift), no lane has given up (so none can revive on a return), and the
    /// report fires no trigger: an idle bottom with items is not within the prefetch distance of
    /// the end, an idle top not within it of the start. Then ``report(_:in:)`` would only store the
    /// viewport as `.current`: no action, the same phase and ``status``. Taken at the end of each
    /// event from the payload it left (the lanes, stalls, geometry and `items` change only in events).
    private struct QuietReports {
        /// Whether the bottom is idle with items (More fires once the viewport nears the end).
        var checksEnd: Bool
        /// Whether the top is idle (a prepend fires once the viewport nears the start).
        var checksStart: Bool

        init?(_ running: Running, itemsEmpty: Bool) {
            guard case .current = running.geometry, running.topStall == nil, running.bottomStall == nil,
                !running.top.hasGivenUp, !running.bottom.hasGivenUp
            else { return nil }
            checksEnd = running.bottom.isIdle && !itemsEmpty
            checksStart = running.top.isIdle
        }
    }

    /// Whether `viewport` may take the quiet path (``QuietReports``): running, and no trigger fires.
    private func isQuiet(_ viewport: Viewport) -> Bool {
        guard usesQuietReports, let quiet = quietReports else { return false }
        if quiet.checksEnd, isWithinPrefetchOfEnd(viewport) { return false }
        if quiet.checksStart, isWithinPrefetchOfStart(viewport) { return false }
        return true
    }
}

// MARK: - Events

extension FeedController {
    /// Init: requests `initialLoadPages × pageSize` newest items. A second call does nothing.
    /// - Parameter now: milliseconds.
    public mutating func start(now: Double) -> [FeedAction] {
        handle { controller in
            guard case .notStarted(let viewport) = controller.state else { return }
            controller.state = .initializing(controller.issueInitial(attempt: 1), viewport)
        }
    }

    /// The viewport moved or the content changed (report it after applying every ``FeedAction/apply(_:)``).
    /// Fires More when the viewport is within the prefetch distance of the end (``PrefetchDistance``
    /// gives each unit's rule and its source), and a prepend when the top is loadable and the viewport
    /// is that close to the start.
    /// The report right after a page is applied also decides whether that page added extent; an end
    /// whose page added none waits until the viewport moves or the content grows.
    /// - Parameters:
    ///   - viewport: the geometry along the scroll axis.
    ///   - now: milliseconds.
    public mutating func viewportChanged(_ viewport: Viewport, now: Double) -> [FeedAction] {
        // The report of every frame: once running, the phase and status are read from the payload
        // the report just worked on, not from `state` (each read of `state` copied the payload:
        // ~2.9 k instructions per frame in `bench replay`, three copies and a memcpy each).
        // Most frames' reports fire nothing: the viewport is kept aside, the payload left alone
        // (``QuietReports``; moving it out of the enum and back was ~2.5 k instructions a frame).
        if isQuiet(viewport) {
            quietViewport = viewport
            quietReportsTaken &+= 1
            return []
        }
        if case .running = state { return reportWhileRunning(viewport) }
        return handle { controller in
            switch controller.state {
            case .notStarted:
                controller.state = .notStarted(viewport)
            case .initializing(let attempt, _):
                controller.state = .initializing(attempt, viewport)
            case .running:
                controller.modifyRunning { controller, running in controller.report(viewport, in: &running) }
            case .modifying:
                preconditionFailure("viewportChanged while a handler holds the state")
            }
        }
    }

    /// The user lifted the finger after pulling `distance` points past the top. At or beyond the
    /// threshold a Refresh starts (a new generation), unless a top load is already in flight
    /// (coalesced). Before the first Init answer, a pull restarts a failed or waiting Init instead.
    /// A More in flight from the old generation is abandoned (``abandonBottomRequest(in:)``): the
    /// bottom is idle at once and may load again, as Paging 3 cancels the old generation's loads
    /// on invalidation.
    public mutating func pullReleased(distance: Double, now: Double) -> [FeedAction] {
        handle { controller in
            guard distance >= controller.configuration.refreshThreshold else { return }
            switch controller.state {
            case .notStarted:
                return
            case .initializing(.inFlight, _):
                controller.counters.coalescedRefreshes += 1
            case .initializing(.waitingToRetry, let viewport), .initializing(.gaveUp, let viewport):
                controller.state = .initializing(controller.issueInitial(attempt: 1), viewport)
            case .running:
                controller.modifyRunning { controller, running in controller.pull(in: &running) }
            case .modifying:
                preconditionFailure("pullReleased while a handler holds the state")
            }
        }
    }

    /// The user asked to retry (a "retry" button, Paging 3's `retry()`): every direction that gave up,
    /// or waits to retry, loads again now, starting over at attempt 1.
    public mutating func retry(now: Double) -> [FeedAction] {
        handle { controller in
            switch controller.state {
            case .notStarted, .initializing(.inFlight, _):
                return
            case .initializing(.waitingToRetry, let viewport), .initializing(.gaveUp, let viewport):
                controller.state = .initializing(controller.issueInitial(attempt: 1), viewport)
            case .running:
                controller.modifyRunning { controller, running in
                    switch running.top {
                    case .active(.waitingToRetry(let load, _, _, _)), .active(.gaveUp(let load, _, _)):
                        controller.issue(load, attempt: 1, in: &running)
                    case .idle, .active(.inFlight), .endReached:
                        break
                    }
                    switch running.bottom {
                    case .active(.waitingToRetry), .active(.gaveUp):
                        controller.issueMore(attempt: 1, in: &running)
                    case .idle, .active(.inFlight), .endReached:
                        break
                    }
                }
            case .modifying:
                preconditionFailure("retry while a handler holds the state")
            }
        }
    }

    /// Time passed: each direction whose retry time is at or before `now` loads again.
    /// - Parameter now: milliseconds.
    public mutating func tick(now: Double) -> [FeedAction] {
        handle { controller in
            switch controller.state {
            case .notStarted, .initializing(.inFlight, _), .initializing(.gaveUp, _):
                return
            case .initializing(.waitingToRetry(_, let attempt, let retryAt, _), let viewport):
                guard retryAt <= now else { return }
                controller.counters.retries += 1
                controller.state = .initializing(controller.issueInitial(attempt: attempt + 1), viewport)
            case .running:
                controller.modifyRunning { controller, running in
                    if case .active(.waitingToRetry(let load, let attempt, let retryAt, _)) = running.top,
                        retryAt <= now
                    {
                        controller.counters.retries += 1
                        controller.issue(load, attempt: attempt + 1, in: &running)
                    }
                    if case .active(.waitingToRetry(_, let attempt, let retryAt, _)) = running.bottom, retryAt <= now {
                        controller.counters.retries += 1
                        controller.issueMore(attempt: attempt + 1, in: &running)
                    }
                }
            case .modifying:
                preconditionFailure("tick while a handler holds the state")
            }
        }
    }

    /// `count` newer items were inserted upstream (above the newest loaded one). They are counted in
    /// ``newerItemsAvailable`` — the "new posts" pill — and wait for a pull to refresh, as Twitter's and
    /// Instagram's feeds do: items the user did not ask for are never inserted above the ones being
    /// read. (A top that is not at the feed's head — pages dropped there — keeps loading upward as
    /// usual and reaches them.)
    public mutating func upstreamInserted(count: Int, now: Double) -> [FeedAction] {
        handle { controller in
            guard count > 0 else { return }
            controller.newerItemsAvailable += count
        }
    }
}

// MARK: - Answers

extension FeedController {
    /// The page for `request` arrived. A page of an older generation, or one that is not the
    /// direction's request in flight (delivered twice, unknown), is dropped (``FeedAction/dropStale(_:)``)
    /// and counted. Otherwise it is merged and the changes come out as ``FeedAction/apply(_:)``.
    ///
    /// The page is checked against the source contract: items outside the requested side of the
    /// cursor, out of feed order or duplicated are removed, and an empty page that claims more counts
    /// as the end; each such page is counted in ``Counters/sourceFaults``.
    /// - Parameters:
    ///   - request: the request as the controller issued it.
    ///   - page: what the source returned.
    ///   - now: milliseconds.
    public mutating func pageArrived(_ request: FetchRequest, page: Page, now: Double) -> [FeedAction] {
        handle { controller in
            switch controller.accept(request) {
            case .stale:
                return
            case .initial(let viewport):
                controller.counters.initialPages += 1
                var running = Running(
                    top: .endReached, bottom: .idle, geometry: viewport.map { .current($0) } ?? .unknown,
                    topStall: nil, bottomStall: nil)
                controller.state = .modifying
                controller.receiveInitial(page, in: &running)
                controller.state = .running(running)
            case .top(let load):
                controller.modifyRunning { controller, running in
                    switch load {
                    case .refresh:
                        controller.counters.refreshPages += 1
                        controller.receiveRefresh(page, in: &running)
                    case .gapFill(let gap):
                        controller.counters.gapFillPages += 1
                        controller.receiveGapFill(page, gap: gap, in: &running)
                    case .prepend:
                        controller.counters.prependPages += 1
                        controller.receivePrepend(page, in: &running)
                    }
                }
            case .more:
                controller.modifyRunning { controller, running in
                    controller.counters.morePages += 1
                    controller.receiveMore(page, in: &running)
                }
            }
        }
    }

    /// The load for `request` failed with `error` (a description for reports). The list is unchanged;
    /// the direction waits `RetryPolicy.delay` and asks for a ``tick(now:)`` then
    /// (``FeedAction/scheduleRetry(at:direction:)``), or gives up after `maxAttempts`.
    public mutating func pageFailed(_ request: FetchRequest, error: String, now: Double) -> [FeedAction] {
        handle { controller in
            let answer = controller.accept(request)
            if case .stale = answer { return }
            controller.counters.failures += 1
            let policy = controller.configuration.retry
            let retryAt: Double?
            if request.attempt < policy.maxAttempts {
                let at = now + policy.delay(afterAttempt: request.attempt, unit: controller.rng.nextUnit())
                controller.pending.append(.scheduleRetry(at: at, direction: request.direction))
                retryAt = at
            } else {
                retryAt = nil
            }
            func failed<Load>(_ load: Load) -> Attempt<Load> {
                guard let retryAt else { return .gaveUp(load, attempts: request.attempt, error: error) }
                return .waitingToRetry(load, attempt: request.attempt, retryAt: retryAt, error: error)
            }
            switch answer {
            case .stale:
                return
            case .initial(let viewport):
                controller.state = .initializing(failed(InitialLoad()), viewport)
            case .top(let load):
                controller.modifyRunning { _, running in running.top = .active(failed(load)) }
            case .more:
                controller.modifyRunning { _, running in running.bottom = .active(failed(MoreLoad())) }
            }
        }
    }

    /// Whose an answer is, once ``accept(_:)`` took it.
    private enum Answer {
        /// Dropped (``FeedAction/dropStale(_:)`` emitted and counted).
        case stale
        /// Init's, with the viewport reported meanwhile; the state is for the caller to set.
        case initial(Viewport?)
        /// The top's load; the top lane is idle until the caller sets it.
        case top(TopLoad)
        /// The bottom's More; the bottom lane is idle until the caller sets it.
        case more
    }

    /// Takes an answer off its direction (which becomes idle); `.stale` (and the answer dropped)
    /// when it is not the direction's request in flight or belongs to an older generation.
    private mutating func accept(_ request: FetchRequest) -> Answer {
        func dropStale() -> Answer {
            counters.staleDropped += 1
            pending.append(.dropStale(request))
            return .stale
        }
        if abandoned.remove(request.id) != nil { return dropStale() }
        switch (state, request.direction) {
        case (.initializing(.inFlight(let current, _), let viewport), .top) where current.id == request.id:
            return .initial(viewport)
        case (.running(let running), .top):
            guard case .active(.inFlight(let current, let load)) = running.top, current.id == request.id else {
                return dropStale()
            }
            var answer = Answer.top(load)
            modifyRunning { controller, running in
                running.top = .idle
                if request.generation != controller.generation {
                    answer = controller.dropStaleAnswer(request, in: &running)
                }
            }
            return answer
        case (.running(let running), .bottom):
            guard case .active(.inFlight(let current, _)) = running.bottom, current.id == request.id else {
                return dropStale()
            }
            var answer = Answer.more
            modifyRunning { controller, running in
                running.bottom = .idle
                if request.generation != controller.generation {
                    answer = controller.dropStaleAnswer(request, in: &running)
                }
            }
            return answer
        case (.notStarted, _), (.initializing, _):
            return dropStale()
        case (.modifying, _):
            preconditionFailure("an answer while a handler holds the state")
        }
    }

    /// A direction's own answer of an older generation: dropped, and the now idle direction may load.
    private mutating func dropStaleAnswer(_ request: FetchRequest, in running: inout Running) -> Answer {
        counters.staleDropped += 1
        pending.append(.dropStale(request))
        checkTriggers(in: &running)
        return .stale
    }
}
