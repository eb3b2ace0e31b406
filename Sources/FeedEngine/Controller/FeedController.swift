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
///               start ─► top: loading(Init) ─page─► list, top: endReached, bottom: idle|endReached
///  pull ≥ threshold ─► generation += 1, top: loading(Refresh)
///                          ├─ newest page reaches the first item ─► prepend the new ones (merge)
///                          └─ gap ─► loading(gapFill) × ≤ maxGapPages ─┬─ closed ─► prepend all
///                                                                       └─ not ─► replace, generation += 1
///  viewport within prefetch distance of the end ─► bottom: loading(More) ─page─► append
///  failure ─► failed(retryAt) ─tick─► loading(attempt + 1) … ─► failed(retryAt: nil) until a user trigger
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

    var stage: Stage = .notStarted
    var top: Lane = .idle
    var bottom: Lane = .idle
    /// Sizes of the loaded pages, in list order; their sum is `items.count`. Dropping removes whole pages.
    var pageSizes: [Int] = []
    var nextRequestID = 1
    /// Ids of requests of older generations abandoned while in flight, dropped when they answer.
    var abandoned = Set<Int>()
    var rng: SplitMix64
    var viewport: Viewport?
    /// False from an `.apply` until the next `viewportChanged`.
    var viewportIsCurrent = false
    /// What the last page at each end added along the scroll axis (see `FeedController+Extent.swift`).
    var topExtent = ExtentWatch()
    var bottomExtent = ExtentWatch()
    /// Actions collected during one event.
    var pending: [FeedAction] = []
    /// What a driver reads every frame, as of the last event (see ``Status``).
    public private(set) var status = Status()

    /// - Throws: ``ConfigurationError`` naming the first invalid field.
    public init(configuration: Configuration) throws(ConfigurationError) {
        try configuration.validate()
        self.configuration = configuration
        self.rng = SplitMix64(seed: configuration.retry.seed)
    }

    /// The feed's phase (see ``Phase`` for how it is derived).
    public var phase: Phase {
        guard stage != .notStarted else { return .idle }
        if top.load?.kind == .initial { return .initial }
        if let kind = top.load?.kind, kind == .refresh || kind == .gapFill { return .refresh }
        if bottom.load != nil { return .more }
        if top.load != nil { return .prepend }
        if top.hasGivenUp || bottom.hasGivenUp { return .failed }
        if case .endReached = bottom { return .endOfFeed }
        return .idle
    }

    /// The load state of one direction.
    public func loadState(_ direction: LoadDirection) -> LoadState {
        switch lane(direction) {
        case .idle: return .idle
        case .loading(let request, _): return .loading(request)
        case .waitingToRetry(_, let attempt, let retryAt, let error):
            return .failed(error: error, attempt: attempt, retryAt: retryAt)
        case .failed(_, let attempts, let error): return .failed(error: error, attempt: attempts, retryAt: nil)
        case .endReached: return .endReached
        }
    }

    /// Requests in flight: at most one per direction, plus the abandoned ones of older generations
    /// until they answer.
    public var inFlightCount: Int {
        (top.request == nil ? 0 : 1) + (bottom.request == nil ? 0 : 1) + abandoned.count
    }

    /// Requests in flight of the controller's own (at most one per direction), abandoned ones not counted.
    public var activeRequestCount: Int {
        (top.request == nil ? 0 : 1) + (bottom.request == nil ? 0 : 1)
    }

    /// Runs one event: collects its actions and appends `.phaseChanged` when the phase moved.
    mutating func handle(_ body: (inout FeedController) -> Void) -> [FeedAction] {
        let before = phase
        pending = []
        body(&self)
        var actions = pending
        pending = []
        let after = phase
        if before != after { actions.append(.phaseChanged(from: before, to: after)) }
        status = Status(inFlightCount: inFlightCount, loadStates: directionalLoadStates)
        return actions
    }

    func lane(_ direction: LoadDirection) -> Lane {
        direction == .top ? top : bottom
    }

    mutating func setLane(_ direction: LoadDirection, _ lane: Lane) {
        if direction == .top { top = lane } else { bottom = lane }
    }
}

extension FeedController {
    /// The figures a driver reads every frame (``inFlightCount``, ``directionalLoadStates``, whether
    /// the bottom reached the end of the feed), kept as one stored value that each event refreshes.
    ///
    /// A computed property of a struct that a class holds is read on a copy of the whole struct
    /// (its list, page sizes, abandoned set and lanes retained and released); reading a stored
    /// property is not. The replay read the controller's computed state about 8 times per frame:
    /// `feedsim bench replay` spent ~1 µs of its ~14 µs per frame copying the controller.
    public struct Status: Sendable, Equatable {
        /// ``FeedController/inFlightCount``.
        public var inFlightCount = 0
        /// ``FeedController/directionalLoadStates``.
        public var loadStates = DirectionalLoadStates()

        /// Whether the bottom reached the end of the feed (``FeedController/loadState(_:)`` is `.endReached`).
        public var bottomEndReached: Bool { loadStates.append == .end }
    }

    /// Whether Init has answered.
    enum Stage: Sendable {
        case notStarted
        case initializing
        case running
    }

    /// One direction: what it is doing and only what that needs.
    enum Lane: Sendable {
        case idle
        case loading(FetchRequest, Load)
        case waitingToRetry(Load, attempt: Int, retryAt: Double, error: String)
        case failed(Load, attempts: Int, error: String)
        case endReached

        /// The load this direction is busy with (in flight or waiting to retry).
        var load: Load? {
            switch self {
            case .loading(_, let load), .waitingToRetry(let load, _, _, _): return load
            case .idle, .failed, .endReached: return nil
            }
        }

        var request: FetchRequest? {
            switch self {
            case .loading(let request, _): return request
            case .idle, .waitingToRetry, .failed, .endReached: return nil
            }
        }

        var hasGivenUp: Bool {
            switch self {
            case .failed: return true
            case .idle, .loading, .waitingToRetry, .endReached: return false
            }
        }

        /// Whether page dropping may remove pages at this end (nothing in flight or pending there).
        var allowsDropping: Bool {
            switch self {
            case .idle, .failed, .endReached: return true
            case .loading, .waitingToRetry: return false
            }
        }
    }

    /// A load with what it carries across attempts.
    enum Load: Sendable {
        case initial
        case refresh
        case gapFill(GapFill)
        case more
        case prepend

        var kind: LoadKind {
            switch self {
            case .initial: return .initial
            case .refresh: return .refresh
            case .gapFill: return .gapFill
            case .more: return .more
            case .prepend: return .prepend
            }
        }
    }

    /// A Refresh whose newest page did not reach the current first item.
    struct GapFill: Sendable {
        /// The newest page's items (feed order), all newer than the current first item.
        var newest: [Item]
        /// Items loaded so far just above the current first item (feed order), contiguous with it.
        var filled: [Item]
        /// Gap-fill pages loaded so far.
        var pagesLoaded: Int
    }
}
