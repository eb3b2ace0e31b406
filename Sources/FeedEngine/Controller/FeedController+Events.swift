import FeedModel

/// What a running controller does with a report, a pull and its triggers. Each handler works on the
/// running payload that FeedController.swift hands it `inout`; none sees the state itself.
extension FeedController {
    /// The driver's new geometry: settles the extent watch of each end (``EndExtent``), trusts the
    /// viewport again, revives an end the user came back to, and fires what the viewport asks for.
    mutating func report(_ viewport: Viewport, in running: inout Running) {
        let previous = running.geometry.viewport
        let watching = running.geometry.watching
        EndExtent.observe(viewport, stall: &running.topStall, watchedFrom: watching.contains(.top) ? previous : nil)
        EndExtent.observe(
            viewport, stall: &running.bottomStall, watchedFrom: watching.contains(.bottom) ? previous : nil)
        running.geometry = .current(viewport)
        reviveOnReturn(from: previous, to: viewport, in: &running)
        checkTriggers(in: &running)
    }

    /// A More (or prepend) that gave up after its retries comes back when the user scrolls away from
    /// that end and returns to it: reaching the end again is a new user trigger, as with a "load
    /// more" footer, while resting or bouncing there is not (no hammering a failing backend). A
    /// failed Refresh waits for a pull.
    mutating func reviveOnReturn(from previous: Viewport?, to current: Viewport, in running: inout Running) {
        guard let previous else { return }
        if running.bottom.hasGivenUp, !isWithinPrefetchOfEnd(previous), isWithinPrefetchOfEnd(current) {
            running.bottom = .idle
        }
        if case .active(.gaveUp(.prepend, _, _)) = running.top, !isWithinPrefetchOfStart(previous),
            isWithinPrefetchOfStart(current)
        {
            running.top = .idle
        }
    }

    /// A pull at or beyond the threshold once Init answered: coalesced while a top request is in
    /// flight, otherwise a Refresh in a new generation.
    mutating func pull(in running: inout Running) {
        if running.top.request != nil {
            counters.coalescedRefreshes += 1
            return
        }
        generation += 1
        abandonBottomRequest(in: &running)
        issue(.refresh, attempt: 1, in: &running)
        if running.bottom.hasGivenUp { running.bottom = .idle }
        checkTriggers(in: &running)
    }

    /// A More in flight whose generation is now old stops being the bottom's request: the bottom
    /// becomes idle (a new More may start, and the phase no longer reads `more`), and the request is
    /// kept in ``abandoned`` until its answer lands, is dropped and counted in
    /// ``Counters/staleDropped`` (Paging 3, `PageFetcherSnapshot`: a load of a cancelled generation
    /// may still complete, and `insert` skips it). Counted in ``Counters/abandoned``.
    mutating func abandonBottomRequest(in running: inout Running) {
        guard let request = running.bottom.request, request.generation != generation else { return }
        abandoned.insert(request.id)
        counters.abandoned += 1
        running.bottom = .idle
    }

    /// Fires More and prepends the current viewport asks for (none while a report is owed).
    mutating func checkTriggers(in running: inout Running) {
        guard case .current(let viewport) = running.geometry else { return }
        if running.bottom.isIdle, !items.isEmpty, running.bottomStall == nil, isWithinPrefetchOfEnd(viewport) {
            issueMore(attempt: 1, in: &running)
        }
        if running.top.isIdle, running.topStall == nil, isWithinPrefetchOfStart(viewport) {
            issue(.prepend, attempt: 1, in: &running)
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

    /// Makes a request, numbers it and collects its `.fetch`.
    private mutating func request(
        _ direction: LoadDirection, _ kind: LoadKind, _ query: PageQuery, limit: Int, attempt: Int
    ) -> FetchRequest {
        let request = FetchRequest(
            id: nextRequestID, direction: direction, kind: kind, query: query, limit: limit,
            generation: generation, attempt: attempt)
        nextRequestID += 1
        pending.append(.fetch(request))
        return request
    }

    /// Init's request: `initialLoadSize` newest items.
    mutating func issueInitial(attempt: Int) -> Attempt<InitialLoad> {
        let request = request(.top, .initial, .newest, limit: configuration.initialLoadSize, attempt: attempt)
        return .inFlight(request, InitialLoad())
    }

    /// Makes the request for a top `load` and marks the top loading.
    mutating func issue(_ load: TopLoad, attempt: Int, in running: inout Running) {
        let query: PageQuery
        switch load {
        case .refresh:
            query = .newest
        case .gapFill(let gap):
            guard let cursor = gap.filled.first?.cursor ?? items.first?.cursor else {
                preconditionFailure("a gap-fill needs a loaded first item")
            }
            query = .before(cursor)
        case .prepend:
            query = items.first.map { .before($0.cursor) } ?? .newest
        }
        let made = request(.top, load.kind, query, limit: configuration.pageSize, attempt: attempt)
        running.top = .active(.inFlight(made, load))
    }

    /// Makes a More request after the last loaded item and marks the bottom loading.
    mutating func issueMore(attempt: Int, in running: inout Running) {
        guard let last = items.last else { preconditionFailure("More needs a loaded last item") }
        let made = request(.bottom, .more, .after(last.cursor), limit: configuration.pageSize, attempt: attempt)
        running.bottom = .active(.inFlight(made, MoreLoad()))
    }

    /// Records an `.apply`; the viewport is not trusted until the driver reports it again.
    /// Starts (or ends) the watch over the extent the change adds at its end (``EndExtent``).
    /// - Parameter listWasEmpty: a `.replace` of an empty list (Init): it adds at the bottom.
    mutating func emit(_ change: FeedChange, listWasEmpty: Bool = false, in running: inout Running) {
        pending.append(.apply(change))
        var watching = running.geometry.watching
        switch change {
        case .append:
            watching.insert(.bottom)
        case .prepend:
            watching.insert(.top)
        case .replace:
            running.topStall = nil
            running.bottomStall = nil
            watching = listWasEmpty ? [.bottom] : []
        case .dropFirst:
            running.topStall = nil
            watching = []
        case .dropLast:
            running.bottomStall = nil
            watching = []
        }
        // With no report yet there is nothing to watch from or to shift.
        guard var shifted = running.geometry.viewport else { return }
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
        running.geometry = .awaitingReport(shifted, watching: watching)
    }
}
