import FeedModel

extension FeedController {
    /// Which keyset query a request runs: Init and Refresh load the newest items, More loads the
    /// items older than the last loaded one, prepends and gap-fills load the items newer than a cursor.
    public enum PageQuery: Hashable, Sendable {
        /// ``PageSource/newest(limit:)``.
        case newest
        /// ``PageSource/after(_:limit:)``: older than the cursor.
        case after(Cursor)
        /// ``PageSource/before(_:limit:)``: newer than the cursor, nearest first-in-feed-order.
        case before(Cursor)
    }

    /// Why a request was made.
    public enum LoadKind: String, Hashable, Sendable, Codable, CaseIterable {
        /// The first load (Init), `initialLoadPages × pageSize` newest items.
        case initial = "init"
        /// Pull to refresh: the newest page.
        case refresh
        /// Closing the gap between a Refresh's newest page and the current first item.
        case gapFill
        /// Load more at the bottom.
        case more
        /// Load newer items at the top after page dropping or upstream inserts.
        case prepend
    }

    /// One page load for the driver to run against a ``PageSource`` and answer with
    /// ``FeedController/pageArrived(_:page:now:)`` or ``FeedController/pageFailed(_:error:now:)``.
    public struct FetchRequest: Hashable, Sendable {
        /// Unique within one controller, increasing from 1.
        public var id: Int
        public var direction: LoadDirection
        public var kind: LoadKind
        public var query: PageQuery
        /// Items requested.
        public var limit: Int
        /// The controller's generation when the request was made; a Refresh (and a list replacement)
        /// starts a new one, and answers to older generations are dropped.
        public var generation: Int
        /// 1 for the first attempt, 2 for the first retry, ...
        public var attempt: Int

        public init(
            id: Int, direction: LoadDirection, kind: LoadKind, query: PageQuery, limit: Int, generation: Int,
            attempt: Int
        ) {
            self.id = id
            self.direction = direction
            self.kind = kind
            self.query = query
            self.limit = limit
            self.generation = generation
            self.attempt = attempt
        }

        /// Runs the query on `source`.
        /// - Throws: whatever the source throws.
        public func run(on source: some PageSource) throws -> Page {
            switch query {
            case .newest: return try source.newest(limit: limit)
            case .after(let cursor): return try source.after(cursor, limit: limit)
            case .before(let cursor): return try source.before(cursor, limit: limit)
            }
        }
    }

    /// The feed's phase, for reports (`transitions`). Derived from both directions' load states,
    /// the first that holds wins: Init in flight or retrying → `initial`; Refresh or its gap-fill →
    /// `refresh`; More → `more`; prepend → `prepend`; a direction that gave up → `failed`;
    /// the bottom's end reached → `endOfFeed`; otherwise `idle`. A load waiting to retry keeps its phase.
    public enum Phase: String, Hashable, Sendable, Codable, CaseIterable {
        case idle
        case initial = "init"
        case refresh
        case more
        case prepend
        case failed
        case endOfFeed
    }

    /// One direction's load state.
    public enum LoadState: Hashable, Sendable {
        /// Nothing in flight; a trigger may load.
        case idle
        /// One request in flight.
        case loading(FetchRequest)
        /// The last attempt failed. `retryAt` (milliseconds) is when the next attempt fires on
        /// ``FeedController/tick(now:)``; `nil` when the attempts are used up and the direction waits
        /// for a user trigger.
        case failed(error: String, attempt: Int, retryAt: Double?)
        /// The source said nothing more exists in this direction.
        case endReached
    }

    /// What the controller counted, for reports.
    public struct Counters: Hashable, Sendable, Codable {
        /// Pages accepted (not stale), by kind.
        public var initialPages = 0
        public var refreshPages = 0
        public var gapFillPages = 0
        public var morePages = 0
        public var prependPages = 0
        /// Answers (pages or failures) dropped because their generation was older, or delivered twice.
        public var staleDropped = 0
        /// Retry requests issued after a backoff.
        public var retries = 0
        /// Failed answers (not stale).
        public var failures = 0
        /// Pages that broke the source contract: empty but claiming more, out of order, duplicated,
        /// or outside the requested cursor's side.
        public var sourceFaults = 0
        /// Pages removed by page dropping.
        public var pagesDropped = 0
        /// Refreshes whose gap could not be closed within `maxGapPages`, so the list was replaced.
        public var replacements = 0
        /// Pulls released while a top load was already in flight.
        public var coalescedRefreshes = 0
        /// More requests of an older generation abandoned while in flight (a Refresh or a list
        /// replacement started a new one); each is also counted in ``staleDropped`` when it lands.
        public var abandoned = 0

        public init() {}
    }

    /// What the driver knows about the viewport, along the scroll axis (y for a vertical feed).
    public struct Viewport: Hashable, Sendable {
        /// Content offset, points (negative while pulled past the top).
        public var contentOffset: Double
        /// Viewport length, points.
        public var viewportLength: Double
        /// Content length, points (true content, no padding).
        public var contentLength: Double
        /// Smallest index of a visible item, `nil` when none is visible.
        public var firstVisibleIndex: Int?
        /// Largest index of a visible item, `nil` when none is visible.
        public var lastVisibleIndex: Int?

        public init(
            contentOffset: Double, viewportLength: Double, contentLength: Double,
            firstVisibleIndex: Int?, lastVisibleIndex: Int?
        ) {
            self.contentOffset = contentOffset
            self.viewportLength = viewportLength
            self.contentLength = contentLength
            self.firstVisibleIndex = firstVisibleIndex
            self.lastVisibleIndex = lastVisibleIndex
        }

        /// Points from the viewport's bottom edge to the end of the content (negative when the
        /// content ends inside the viewport).
        public var distanceToEnd: Double { contentLength - (contentOffset + viewportLength) }
    }
}

/// What happened to the loaded list; the driver applies it to the layout (see ``ScrollAnchoring``).
public enum FeedChange: Hashable, Sendable {
    /// Items added after the last one (More).
    case append([Item])
    /// Items added before the first one (Refresh merge, gap-fill, prepend).
    case prepend([Item])
    /// The whole list replaced (Init, or a Refresh whose gap was too large).
    case replace([Item])
    /// The first `n` items removed (page dropping at the top).
    case dropFirst(Int)
    /// The last `n` items removed (page dropping at the bottom).
    case dropLast(Int)
}

/// Work the controller asks its driver to do.
public enum FeedAction: Hashable, Sendable {
    /// Run this page request.
    case fetch(FeedController.FetchRequest)
    /// Call ``FeedController/tick(now:)`` at `at` milliseconds: a failed load in `direction` retries then.
    case scheduleRetry(at: Double, direction: LoadDirection)
    /// Apply this change to the layout (and adjust the content offset with ``ScrollAnchoring``),
    /// then report the new geometry with ``FeedController/viewportChanged(_:now:)``.
    case apply(FeedChange)
    /// The answer to this request was dropped (older generation, or delivered twice).
    case dropStale(FeedController.FetchRequest)
    /// ``FeedController/phase`` changed during the event.
    case phaseChanged(from: FeedController.Phase, to: FeedController.Phase)
}
