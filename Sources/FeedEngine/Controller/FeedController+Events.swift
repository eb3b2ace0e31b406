import FeedModel

extension FeedController {
    /// Init: requests `initialLoadPages × pageSize` newest items. A second call does nothing.
    /// - Parameter now: milliseconds.
    public mutating func start(now: Double) -> [FeedAction] {
        handle { controller in
            guard controller.stage == .notStarted else { return }
            controller.stage = .initializing
            controller.issue(.initial, attempt: 1)
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
        handle { controller in
            let previous = controller.viewport
            controller.viewport = viewport
            controller.viewportIsCurrent = true
            controller.topExtent.observe(viewport)
            controller.bottomExtent.observe(viewport)
            controller.reviveOnReturn(from: previous, to: viewport)
            controller.checkTriggers()
        }
    }

    /// A More (or prepend) that gave up after its retries comes back when the user scrolls away from
    /// that end and returns to it: reaching the end again is a new user trigger, as with a "load
    /// more" footer, while resting or bouncing there is not (no hammering a failing backend). A
    /// failed Refresh waits for a pull.
    mutating func reviveOnReturn(from previous: Viewport?, to current: Viewport) {
        guard stage == .running, let previous else { return }
        if case .failed = bottom, !isWithinPrefetchOfEnd(previous), isWithinPrefetchOfEnd(current) {
            bottom = .idle
        }
        if case .failed(let load, _, _) = top, load.kind == .prepend, !isWithinPrefetchOfStart(previous),
            isWithinPrefetchOfStart(current)
        {
            top = .idle
        }
    }

    /// The user lifted the finger after pulling `distance` points past the top. At or beyond the
    /// threshold a Refresh starts (a new generation), unless a top load is already in flight
    /// (coalesced). Before the first Init answer, a pull restarts a failed or waiting Init instead.
    /// A More in flight from the old generation is abandoned (``abandonBottomRequest()``): the
    /// bottom is idle at once and may load again, as Paging 3 cancels the old generation's loads
    /// on invalidation.
    public mutating func pullReleased(distance: Double, now: Double) -> [FeedAction] {
        handle { controller in
            guard controller.stage != .notStarted, distance >= controller.configuration.refreshThreshold else {
                return
            }
            if controller.top.request != nil {
                controller.counters.coalescedRefreshes += 1
                return
            }
            if controller.stage == .initializing {
                controller.issue(.initial, attempt: 1)
                return
            }
            controller.generation += 1
            controller.abandonBottomRequest()
            controller.issue(.refresh, attempt: 1)
            if controller.bottom.hasGivenUp { controller.bottom = .idle }
            controller.checkTriggers()
        }
    }

    /// The user asked to retry (a "retry" button, Paging 3's `retry()`): every direction that gave up,
    /// or waits to retry, loads again now, starting over at attempt 1.
    public mutating func retry(now: Double) -> [FeedAction] {
        handle { controller in
            for direction in [LoadDirection.top, .bottom] {
                switch controller.lane(direction) {
                case .failed(let load, _, _), .waitingToRetry(let load, _, _, _):
                    controller.issue(load, attempt: 1)
                case .idle, .loading, .endReached:
                    break
                }
            }
        }
    }

    /// Time passed: each direction whose retry time is at or before `now` loads again.
    /// - Parameter now: milliseconds.
    public mutating func tick(now: Double) -> [FeedAction] {
        handle { controller in
            for direction in [LoadDirection.top, .bottom] {
                guard case .waitingToRetry(let load, let attempt, let retryAt, _) = controller.lane(direction),
                    retryAt <= now
                else { continue }
                controller.counters.retries += 1
                controller.issue(load, attempt: attempt + 1)
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

extension FeedController {
    /// A More in flight whose generation is now old stops being the bottom's request: the bottom
    /// becomes idle (a new More may start, and the phase no longer reads `more`), and the request is
    /// kept in ``abandoned`` until its answer lands, is dropped and counted in
    /// ``Counters/staleDropped`` (Paging 3, `PageFetcherSnapshot`: a load of a cancelled generation
    /// may still complete, and `insert` skips it). Counted in ``Counters/abandoned``.
    mutating func abandonBottomRequest() {
        guard case .loading(let request, _) = bottom, request.generation != generation else { return }
        abandoned.insert(request.id)
        counters.abandoned += 1
        bottom = .idle
    }

    /// Fires More and prepends the current viewport asks for.
    mutating func checkTriggers() {
        guard stage == .running, viewportIsCurrent, let viewport else { return }
        if case .idle = bottom, !items.isEmpty, !bottomExtent.isStalled, isWithinPrefetchOfEnd(viewport) {
            issue(.more, attempt: 1)
        }
        if case .idle = top, !topExtent.isStalled, isWithinPrefetchOfStart(viewport) {
            issue(.prepend, attempt: 1)
        }
    }

    /// Whether the viewport is close enough to the end for More (``PrefetchDistance`` gives the rules).
    func isWithinPrefetchOfEnd(_ viewport: Viewport) -> Bool {
        switch configuration.prefetchDistance {
        case .points(let points):
            return viewport.distanceToEnd <= points
        case .screenfuls(let screens):
            return viewport.distanceToEnd <= screens * viewport.viewportLength
        case .items(let distance):
            guard let last = viewport.lastVisibleIndex else { return viewport.distanceToEnd <= 0 }
            // Paging 3: presentedItemsAfter < prefetchDistance.
            return items.count - 1 - last < distance
        }
    }

    /// Whether the viewport is close enough to the start for a prepend (the mirror of the end's rule).
    func isWithinPrefetchOfStart(_ viewport: Viewport) -> Bool {
        switch configuration.prefetchDistance {
        case .points(let points):
            return viewport.contentOffset <= points
        case .screenfuls(let screens):
            return viewport.contentOffset <= screens * viewport.viewportLength
        case .items(let distance):
            guard let first = viewport.firstVisibleIndex else { return viewport.contentOffset <= 0 }
            // Paging 3: presentedItemsBefore < prefetchDistance.
            return first < distance
        }
    }

    /// Makes the request for `load` in its direction and marks that direction loading.
    mutating func issue(_ load: Load, attempt: Int) {
        let size = configuration.pageSize
        let direction: LoadDirection
        let query: PageQuery
        var limit = size
        switch load {
        case .initial:
            direction = .top
            query = .newest
            limit = configuration.initialLoadSize
        case .refresh:
            direction = .top
            query = .newest
        case .gapFill(let gap):
            direction = .top
            guard let cursor = gap.filled.first?.cursor ?? items.first?.cursor else {
                preconditionFailure("a gap-fill needs a loaded first item")
            }
            query = .before(cursor)
        case .prepend:
            direction = .top
            query = items.first.map { .before($0.cursor) } ?? .newest
        case .more:
            direction = .bottom
            guard let last = items.last else { preconditionFailure("More needs a loaded last item") }
            query = .after(last.cursor)
        }
        let request = FetchRequest(
            id: nextRequestID, direction: direction, kind: load.kind, query: query, limit: limit,
            generation: generation, attempt: attempt)
        nextRequestID += 1
        setLane(direction, .loading(request, load))
        pending.append(.fetch(request))
    }

    /// Records an `.apply` and stops trusting the viewport until the driver reports it again.
    /// Starts (or ends) the watch over the extent the change adds at its end (``ExtentWatch``).
    /// - Parameter listWasEmpty: a `.replace` of an empty list (Init): it adds at the bottom.
    mutating func emit(_ change: FeedChange, listWasEmpty: Bool = false) {
        pending.append(.apply(change))
        viewportIsCurrent = false
        switch change {
        case .append:
            bottomExtent.watch(from: viewport)
        case .prepend:
            topExtent.watch(from: viewport)
        case .replace:
            topExtent.reset()
            bottomExtent.reset()
            if listWasEmpty { bottomExtent.watch(from: viewport) }
        case .dropFirst:
            topExtent.reset()
            bottomExtent.before = nil
        case .dropLast:
            bottomExtent.reset()
            topExtent.before = nil
        }
        guard var shifted = viewport else { return }
        switch change {
        case .append, .dropLast:
            break
        case .prepend(let added):
            shifted.firstVisibleIndex = shifted.firstVisibleIndex.map { $0 + added.count }
            shifted.lastVisibleIndex = shifted.lastVisibleIndex.map { $0 + added.count }
        case .dropFirst(let n):
            shifted.firstVisibleIndex = shifted.firstVisibleIndex.map { $0 - n }
            shifted.lastVisibleIndex = shifted.lastVisibleIndex.map { $0 - n }
        case .replace:
            shifted.firstVisibleIndex = nil
            shifted.lastVisibleIndex = nil
        }
        viewport = shifted
    }
}
