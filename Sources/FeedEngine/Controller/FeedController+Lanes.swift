import FeedModel

/// The payloads of the controller's private `State` (FeedController.swift): what each direction is
/// doing, typed so that a combination the rules exclude cannot be written down.
///
/// ```
///  State.notStarted(viewport?)
///  State.initializing(Attempt<InitialLoad>, viewport?)      Init in flight / waiting to retry / given up
///  State.running(Running)
///        Running.top:    Lane<TopLoad>    idle | active(Attempt<refresh | gapFill | prepend>) | endReached
///        Running.bottom: Lane<MoreLoad>   idle | active(Attempt<More>) | endReached
///        Running.geometry: unknown | current(viewport) | awaitingReport(viewport, watching: ends)
///        Running.topStall, .bottomStall: the report at which that end stalled (see +Extent)
/// ```
///
/// So: no lane exists before Init is issued; the bottom never loads before Init answers; Init is
/// never a load of a running controller and the bottom only ever loads More; an end can wait for
/// its extent check only while the driver owes a report (`awaitingReport`), and only when a
/// viewport was ever reported.
extension FeedController {
    /// A load's plan: what it carries across attempts, and its kind for requests and reports.
    protocol PlannedLoad: Sendable {
        var kind: LoadKind { get }
    }

    /// Init carries nothing across attempts.
    struct InitialLoad: PlannedLoad {
        var kind: LoadKind { .initial }
    }

    /// More carries nothing across attempts (its cursor is the last loaded item's at each attempt).
    struct MoreLoad: PlannedLoad {
        var kind: LoadKind { .more }
    }

    /// The loads the top runs once Init has answered.
    enum TopLoad: PlannedLoad {
        case refresh
        case gapFill(GapFill)
        case prepend

        var kind: LoadKind {
            switch self {
            case .refresh: return .refresh
            case .gapFill: return .gapFill
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

    /// A load that was issued: in flight, waiting to retry after a failure, or given up.
    enum Attempt<Load: PlannedLoad>: Sendable {
        /// One request in flight.
        case inFlight(FetchRequest, Load)
        /// Attempt `attempt` failed; the next fires on a tick at or after `retryAt` (milliseconds).
        case waitingToRetry(Load, attempt: Int, retryAt: Double, error: String)
        /// `attempts` failed, the retries are used up; waits for a user trigger.
        case gaveUp(Load, attempts: Int, error: String)

        /// The request in flight, if any.
        var request: FetchRequest? {
            switch self {
            case .inFlight(let request, _): return request
            case .waitingToRetry, .gaveUp: return nil
            }
        }

        /// The load this attempt is busy with (in flight or waiting to retry); `nil` once given up.
        var pendingLoad: Load? {
            switch self {
            case .inFlight(_, let load), .waitingToRetry(let load, _, _, _): return load
            case .gaveUp: return nil
            }
        }

        /// The load, whatever the attempt's standing (what ``FeedController/retry(now:)`` restarts).
        var load: Load {
            switch self {
            case .inFlight(_, let load), .waitingToRetry(let load, _, _, _), .gaveUp(let load, _, _): return load
            }
        }

        var loadState: LoadState {
            switch self {
            case .inFlight(let request, _): return .loading(request)
            case .waitingToRetry(_, let attempt, let retryAt, let error):
                return .failed(error: error, attempt: attempt, retryAt: retryAt)
            case .gaveUp(_, let attempts, let error): return .failed(error: error, attempt: attempts, retryAt: nil)
            }
        }

        /// Paging 3's view of one attempt: loading while in flight, error after a failure.
        var directionalState: DirectionalLoadState {
            switch self {
            case .inFlight: return .loading
            case .waitingToRetry, .gaveUp: return .error
            }
        }
    }

    /// One direction of a running controller.
    enum Lane<Load: PlannedLoad>: Sendable {
        /// Nothing issued; a trigger may load.
        case idle
        /// A load was issued (see ``Attempt``).
        case active(Attempt<Load>)
        /// The source said nothing more exists in this direction.
        case endReached

        var attempt: Attempt<Load>? {
            switch self {
            case .active(let attempt): return attempt
            case .idle, .endReached: return nil
            }
        }

        var request: FetchRequest? { attempt?.request }

        /// The load this direction is busy with (in flight or waiting to retry).
        var pendingLoad: Load? { attempt?.pendingLoad }

        var hasGivenUp: Bool {
            if case .active(.gaveUp) = self { return true }
            return false
        }

        var isIdle: Bool {
            if case .idle = self { return true }
            return false
        }

        /// Whether page dropping may remove pages at this end (nothing in flight or pending there).
        var allowsDropping: Bool { pendingLoad == nil }

        var loadState: LoadState {
            switch self {
            case .idle: return .idle
            case .active(let attempt): return attempt.loadState
            case .endReached: return .endReached
            }
        }
    }

    /// The ends of the list.
    struct Ends: OptionSet, Sendable {
        let rawValue: UInt8
        static let top = Ends(rawValue: 1)
        static let bottom = Ends(rawValue: 2)
    }

    /// What the controller knows of the viewport once running.
    enum Geometry: Sendable {
        /// No report yet.
        case unknown
        /// The last report, trusted: loads may fire from it.
        case current(Viewport)
        /// Changes were applied since the last report: that report with its visible indices moved
        /// by the changes (its offset and lengths are the report's). `watching`: the ends whose
        /// applied page waits for the next report to show whether it added extent.
        case awaitingReport(Viewport, watching: Ends)

        var viewport: Viewport? {
            switch self {
            case .unknown: return nil
            case .current(let viewport), .awaitingReport(let viewport, _): return viewport
            }
        }

        var watching: Ends {
            if case .awaitingReport(_, let watching) = self { return watching }
            return []
        }
    }

    /// Everything a controller whose Init answered carries besides the list.
    struct Running: Sendable {
        var top: Lane<TopLoad>
        var bottom: Lane<MoreLoad>
        var geometry: Geometry
        /// The report after a top page that added no extent; prepends wait while it is set.
        var topStall: Viewport?
        /// The report after a bottom page that added no extent; More waits while it is set.
        var bottomStall: Viewport?

        /// ``FeedController/phase`` of a running controller.
        var phase: Phase {
            switch top.pendingLoad {
            case .refresh, .gapFill: return .refresh
            case .prepend, nil: break
            }
            if bottom.pendingLoad != nil { return .more }
            if top.pendingLoad != nil { return .prepend }
            if top.hasGivenUp || bottom.hasGivenUp { return .failed }
            if case .endReached = bottom { return .endOfFeed }
            return .idle
        }

        /// ``FeedController/activeRequestCount`` of a running controller.
        var activeRequestCount: Int { (top.request == nil ? 0 : 1) + (bottom.request == nil ? 0 : 1) }

        /// ``FeedController/directionalLoadStates`` of a running controller.
        var directionalLoadStates: DirectionalLoadStates {
            var states = DirectionalLoadStates()
            switch top {
            case .idle: break
            case .endReached: states.prepend = .end
            case .active(let attempt):
                switch attempt.load {
                case .prepend: states.prepend = attempt.directionalState
                case .refresh, .gapFill: states.refresh = attempt.directionalState
                }
            }
            switch bottom {
            case .idle: states.append = .idle
            case .active(let attempt): states.append = attempt.directionalState
            case .endReached: states.append = .end
            }
            return states
        }

        /// The ways a Running can be wrong that its types cannot exclude (checked by
        /// ``FeedController/checkInvariants()``).
        func invariantViolation(generation: Int) -> String? {
            if let request = top.request, request.direction != .top || request.kind == .more {
                return "top lane holds \(request)"
            }
            if let request = bottom.request, request.direction != .bottom || request.kind != .more {
                return "bottom lane holds \(request)"
            }
            if let request = bottom.request, request.generation != generation {
                return "bottom lane holds a request of generation \(request.generation), current \(generation)"
            }
            return nil
        }
    }
}
