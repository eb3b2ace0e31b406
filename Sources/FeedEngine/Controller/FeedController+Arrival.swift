import FeedModel

/// How a page that ``FeedController/pageArrived(_:page:now:)`` accepted is merged into the list, and
/// what that does to the lanes. Each receiver works on the running payload handed to it `inout`.
extension FeedController {
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

    /// Init's page becomes the list; `running` starts with the top at the feed's head.
    mutating func receiveInitial(_ page: Page, in running: inout Running) {
        let loaded = sanitize(page.items)
        if loaded.isEmpty { noteEmpty(page, direction: .bottom) }
        items = loaded
        pageSizes = chunked(loaded.count)
        emit(.replace(loaded), listWasEmpty: true, in: &running)
        reachTop(in: &running)
        running.bottom = page.hasMoreAfter && !loaded.isEmpty ? .idle : .endReached
    }

    mutating func receiveMore(_ page: Page, in running: inout Running) {
        guard let last = items.last else { preconditionFailure("More answered with no loaded items") }
        let added = sanitize(page.items, olderThan: last.cursor)
        guard !added.isEmpty else {
            noteEmpty(page, direction: .bottom)
            running.bottom = .endReached
            return
        }
        items.append(contentsOf: added)
        pageSizes.append(added.count)
        emit(.append(added), in: &running)
        running.bottom = page.hasMoreAfter ? .idle : .endReached
        dropPagesAtTop(in: &running)
    }

    mutating func receivePrepend(_ page: Page, in running: inout Running) {
        let wasEmpty = items.isEmpty
        let added = sanitize(page.items, newerThan: items.first?.cursor)
        guard !added.isEmpty else {
            noteEmpty(page, direction: .top)
            reachTop(in: &running)
            return
        }
        items.insert(contentsOf: added, at: 0)
        pageSizes.insert(added.count, at: 0)
        emit(.prepend(added), in: &running)
        if page.hasMoreBefore { running.top = .idle } else { reachTop(in: &running) }
        if wasEmpty { running.bottom = page.hasMoreAfter ? .idle : .endReached }
        dropPagesAtBottom(in: &running)
    }

    mutating func receiveRefresh(_ page: Page, in running: inout Running) {
        let newest = sanitize(page.items)
        guard let first = items.first else {
            // Nothing loaded (the feed was empty): the newest page becomes the list.
            if newest.isEmpty { noteEmpty(page, direction: .bottom) }
            if !newest.isEmpty {
                items = newest
                pageSizes = [newest.count]
                emit(.replace(newest), listWasEmpty: true, in: &running)
            }
            reachTop(in: &running)
            if running.bottom.request == nil {
                running.bottom = page.hasMoreAfter && !newest.isEmpty ? .idle : .endReached
            }
            return
        }
        guard let oldest = newest.last else {
            noteEmpty(page, direction: .bottom)
            reachTop(in: &running)
            return
        }
        let reachesFirst = !page.hasMoreAfter || !(oldest.cursor < first.cursor)
        if reachesFirst {
            let added = newest.filter { $0.cursor < first.cursor }
            if !added.isEmpty {
                items.insert(contentsOf: added, at: 0)
                pageSizes.insert(added.count, at: 0)
                emit(.prepend(added), in: &running)
            }
            reachTop(in: &running)
            dropPagesAtBottom(in: &running)
        } else if configuration.maxGapPages == 0 {
            replaceList(with: newest, in: &running)
        } else {
            issue(.gapFill(GapFill(newest: newest, filled: [], pagesLoaded: 0)), attempt: 1, in: &running)
        }
    }

    mutating func receiveGapFill(_ page: Page, gap: GapFill, in running: inout Running) {
        guard let bound = gap.filled.first?.cursor ?? items.first?.cursor, let newestLast = gap.newest.last?.cursor
        else { preconditionFailure("a gap-fill needs a newest page and a loaded first item") }
        let added = sanitize(page.items, newerThan: bound)
        let filled = added + gap.filled
        if let top = added.first, !(newestLast < top.cursor) {
            // Closed: the filled items reach the newest page's last item.
            let merged = gap.newest + filled.filter { newestLast < $0.cursor }
            items.insert(contentsOf: merged, at: 0)
            pageSizes.insert(contentsOf: chunked(merged.count), at: 0)
            emit(.prepend(merged), in: &running)
            reachTop(in: &running)
            dropPagesAtBottom(in: &running)
            return
        }
        if added.isEmpty || !page.hasMoreBefore {
            // The source says nothing newer exists, yet the newest page had newer items.
            counters.sourceFaults += 1
            replaceList(with: gap.newest, in: &running)
            return
        }
        let next = GapFill(newest: gap.newest, filled: filled, pagesLoaded: gap.pagesLoaded + 1)
        if next.pagesLoaded < configuration.maxGapPages {
            issue(.gapFill(next), attempt: 1, in: &running)
        } else {
            replaceList(with: gap.newest, in: &running)
        }
    }

    /// The gap was too large: the newest page becomes the list, in a new generation (a More in
    /// flight, whose cursor belongs to the old list, is abandoned and dropped when it answers).
    private mutating func replaceList(with newest: [Item], in running: inout Running) {
        generation += 1
        abandonBottomRequest(in: &running)
        counters.replacements += 1
        items = newest
        pageSizes = [newest.count]
        emit(.replace(newest), in: &running)
        reachTop(in: &running)
        switch running.bottom {
        case .active(.inFlight), .active(.waitingToRetry): break
        case .idle, .active(.gaveUp), .endReached: running.bottom = .idle
        }
    }

    private mutating func reachTop(in running: inout Running) {
        running.top = .endReached
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
