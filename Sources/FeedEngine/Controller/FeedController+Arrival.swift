import FeedModel

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
            guard let load = controller.acceptAnswer(to: request) else { return }
            switch load {
            case .initial: controller.counters.initialPages += 1
            case .refresh: controller.counters.refreshPages += 1
            case .gapFill: controller.counters.gapFillPages += 1
            case .more: controller.counters.morePages += 1
            case .prepend: controller.counters.prependPages += 1
            }
            switch load {
            case .initial: controller.receiveInitial(page)
            case .refresh: controller.receiveRefresh(page)
            case .gapFill(let gap): controller.receiveGapFill(page, gap: gap)
            case .more: controller.receiveMore(page)
            case .prepend: controller.receivePrepend(page)
            }
        }
    }

    /// The load for `request` failed with `error` (a description for reports). The list is unchanged;
    /// the direction waits `RetryPolicy.delay` and asks for a ``tick(now:)`` then
    /// (``FeedAction/scheduleRetry(at:direction:)``), or gives up after `maxAttempts`.
    public mutating func pageFailed(_ request: FetchRequest, error: String, now: Double) -> [FeedAction] {
        handle { controller in
            guard let load = controller.acceptAnswer(to: request) else { return }
            controller.counters.failures += 1
            let policy = controller.configuration.retry
            if request.attempt < policy.maxAttempts {
                let retryAt = now + policy.delay(afterAttempt: request.attempt, unit: controller.rng.nextUnit())
                controller.setLane(
                    request.direction, .waitingToRetry(load, attempt: request.attempt, retryAt: retryAt, error: error))
                controller.pending.append(.scheduleRetry(at: retryAt, direction: request.direction))
            } else {
                controller.setLane(request.direction, .failed(load, attempts: request.attempt, error: error))
            }
        }
    }

    /// The load an answer belongs to, with its direction set back to idle; `nil` (and the answer
    /// dropped) when it is not the direction's request in flight or belongs to an older generation.
    private mutating func acceptAnswer(to request: FetchRequest) -> Load? {
        if abandoned.remove(request.id) != nil {
            counters.staleDropped += 1
            pending.append(.dropStale(request))
            return nil
        }
        guard case .loading(let current, let load) = lane(request.direction), current.id == request.id else {
            counters.staleDropped += 1
            pending.append(.dropStale(request))
            return nil
        }
        setLane(request.direction, .idle)
        guard request.generation == generation else {
            counters.staleDropped += 1
            pending.append(.dropStale(request))
            checkTriggers()
            return nil
        }
        return load
    }

    /// Keeps the items strictly between the bounds, in feed order, unique by id; counts a source
    /// fault when anything had to change.
    private mutating func sanitize(_ page: [Item], newerThan upper: Cursor? = nil, olderThan lower: Cursor? = nil)
        -> [Item]
    {
        // The usual page, from a well-behaved source: already in feed order, within the bounds, no
        // id twice. Then it is kept as it is, in one pass and without copies.
        if page.isInFeedOrder(newerThan: upper, olderThan: lower) && page.hasDistinctIDs { return page }
        var seen = Set<Int64>()
        let kept =
            page
            .filter { item in
                (upper.map { item.cursor < $0 } ?? true) && (lower.map { $0 < item.cursor } ?? true)
            }
            .sorted { $0.cursor < $1.cursor }
            .filter { seen.insert($0.id).inserted }
        if kept != page { counters.sourceFaults += 1 }
        return kept
    }

    /// An empty page claiming more in its direction breaks the contract: the end, and a source fault.
    private mutating func noteEmpty(_ page: Page, direction: LoadDirection) {
        if page.hasMore(direction) { counters.sourceFaults += 1 }
    }

    private mutating func receiveInitial(_ page: Page) {
        stage = .running
        let loaded = sanitize(page.items)
        if loaded.isEmpty { noteEmpty(page, direction: .bottom) }
        items = loaded
        pageSizes = chunked(loaded.count)
        emit(.replace(loaded), listWasEmpty: true)
        top = .endReached
        newerItemsAvailable = 0
        bottom = page.hasMoreAfter && !loaded.isEmpty ? .idle : .endReached
    }

    private mutating func receiveMore(_ page: Page) {
        guard let last = items.last else { preconditionFailure("More answered with no loaded items") }
        let added = sanitize(page.items, olderThan: last.cursor)
        guard !added.isEmpty else {
            noteEmpty(page, direction: .bottom)
            bottom = .endReached
            return
        }
        items.append(contentsOf: added)
        pageSizes.append(added.count)
        emit(.append(added))
        bottom = page.hasMoreAfter ? .idle : .endReached
        dropPagesAtTop()
    }

    private mutating func receivePrepend(_ page: Page) {
        let wasEmpty = items.isEmpty
        let added = sanitize(page.items, newerThan: items.first?.cursor)
        guard !added.isEmpty else {
            noteEmpty(page, direction: .top)
            reachTop()
            return
        }
        items.insert(contentsOf: added, at: 0)
        pageSizes.insert(added.count, at: 0)
        emit(.prepend(added))
        if page.hasMoreBefore { top = .idle } else { reachTop() }
        if wasEmpty { bottom = page.hasMoreAfter ? .idle : .endReached }
        dropPagesAtBottom()
    }

    private mutating func receiveRefresh(_ page: Page) {
        let newest = sanitize(page.items)
        guard let first = items.first else {
            // Nothing loaded (the feed was empty): the newest page becomes the list.
            if newest.isEmpty { noteEmpty(page, direction: .bottom) }
            if !newest.isEmpty {
                items = newest
                pageSizes = [newest.count]
                emit(.replace(newest), listWasEmpty: true)
            }
            reachTop()
            if case .loading = bottom {} else { bottom = page.hasMoreAfter && !newest.isEmpty ? .idle : .endReached }
            return
        }
        guard let oldest = newest.last else {
            noteEmpty(page, direction: .bottom)
            reachTop()
            return
        }
        let reachesFirst = !page.hasMoreAfter || !(oldest.cursor < first.cursor)
        if reachesFirst {
            let added = newest.filter { $0.cursor < first.cursor }
            if !added.isEmpty {
                items.insert(contentsOf: added, at: 0)
                pageSizes.insert(added.count, at: 0)
                emit(.prepend(added))
            }
            reachTop()
            dropPagesAtBottom()
        } else if configuration.maxGapPages == 0 {
            replaceList(with: newest)
        } else {
            issue(.gapFill(GapFill(newest: newest, filled: [], pagesLoaded: 0)), attempt: 1)
        }
    }

    private mutating func receiveGapFill(_ page: Page, gap: GapFill) {
        guard let bound = gap.filled.first?.cursor ?? items.first?.cursor, let newestLast = gap.newest.last?.cursor
        else { preconditionFailure("a gap-fill needs a newest page and a loaded first item") }
        let added = sanitize(page.items, newerThan: bound)
        let filled = added + gap.filled
        if let top = added.first, !(newestLast < top.cursor) {
            // Closed: the filled items reach the newest page's last item.
            let merged = gap.newest + filled.filter { newestLast < $0.cursor }
            items.insert(contentsOf: merged, at: 0)
            pageSizes.insert(contentsOf: chunked(merged.count), at: 0)
            emit(.prepend(merged))
            reachTop()
            dropPagesAtBottom()
            return
        }
        if added.isEmpty || !page.hasMoreBefore {
            // The source says nothing newer exists, yet the newest page had newer items.
            counters.sourceFaults += 1
            replaceList(with: gap.newest)
            return
        }
        let next = GapFill(newest: gap.newest, filled: filled, pagesLoaded: gap.pagesLoaded + 1)
        if next.pagesLoaded < configuration.maxGapPages {
            issue(.gapFill(next), attempt: 1)
        } else {
            replaceList(with: gap.newest)
        }
    }

    /// The gap was too large: the newest page becomes the list, in a new generation (a More in
    /// flight, whose cursor belongs to the old list, is abandoned and dropped when it answers).
    private mutating func replaceList(with newest: [Item]) {
        generation += 1
        abandonBottomRequest()
        counters.replacements += 1
        items = newest
        pageSizes = [newest.count]
        emit(.replace(newest))
        reachTop()
        switch bottom {
        case .loading, .waitingToRetry: break
        case .idle, .failed, .endReached: bottom = .idle
        }
    }

    private mutating func reachTop() {
        top = .endReached
        newerItemsAvailable = 0
    }

    /// `count` items as page sizes of at most `pageSize`.
    private func chunked(_ count: Int) -> [Int] {
        let size = configuration.pageSize
        return stride(from: 0, to: count, by: size).map { min(size, count - $0) }
    }
}

extension [Item] {
    /// Whether no id occurs twice. Up to 64 items, one pass with a 64-bit filter on the ids' low
    /// bits: an id is compared with the earlier ones only when its bit is already set, so a page of
    /// consecutive ids (the usual case) costs one pass. Longer pages use a set, as the filter fills.
    fileprivate var hasDistinctIDs: Bool {
        guard count <= 64 else {
            var ids = Set<Int64>(minimumCapacity: count)
            return allSatisfy { ids.insert($0.id).inserted }
        }
        var seen: UInt64 = 0
        for index in indices {
            let id = self[index].id
            let bit: UInt64 = 1 << (UInt64(bitPattern: id) & 63)
            if seen & bit != 0, self[startIndex..<index].contains(where: { $0.id == id }) { return false }
            seen |= bit
        }
        return true
    }

    /// Whether the cursors strictly increase (feed order) and lie strictly between the bounds.
    fileprivate func isInFeedOrder(newerThan upper: Cursor?, olderThan lower: Cursor?) -> Bool {
        guard let first, let last else { return true }
        if let lower, !(lower < first.cursor) { return false }
        if let upper, !(last.cursor < upper) { return false }
        for index in indices.dropFirst() where !(self[index - 1].cursor < self[index].cursor) { return false }
        return true
    }
}
