import FeedLayout
import FeedModel

extension RangeConfiguration {
    /// Whether the preload range contains the prefetch range whatever the viewport, direction and
    /// layout: both extents of the same kind, each leading and trailing amount of the prefetch at
    /// most the preload's (every preset's ranges do). Then every live cell's item is in the preload
    /// range, so its row is pinned in the row cache and never evicted while the cell shows it.
    public var preloadContainsPrefetch: Bool {
        switch (prefetch, preload) {
        case (.points(let a, let b), .points(let c, let d)), (.screenfuls(let a, let b), .screenfuls(let c, let d)):
            return a <= c && b <= d
        case (.items(let a, let b), .items(let c, let d)):
            return a <= c && b <= d
        default:
            return false
        }
    }
}

extension Virtualizer {
    /// ``update(contentOffset:viewport:items:scrollVelocity:)`` without cells, for a virtualizer
    /// made with `keepsCells: false` (a load session, which reads the blank area, the visible
    /// range and the row fetches, never a cell): no prefetch list, no cell bookkeeping, no reuse
    /// pool. The visible elements, ``visibleCellIndexRange``, the preload range's claims, the row
    /// fetches and cancellations (same ids, same batches, same order), the row cache and
    /// ``visibleCellRowBound`` are what the full update gives, frame for frame, when the preload
    /// range contains the prefetch range (``RangeConfiguration/preloadContainsPrefetch``):
    ///
    /// - a visible cell shows its row exactly when the row cache holds the row: a cell binds the
    ///   cached row when its item enters, and an arriving row binds the cell showing its item; every
    ///   visible item is in the prefetch range, hence in the preload range, so its row stays
    ///   pinned while it shows (never evicted), and an item whose kind changed re-enters with the
    ///   same cached row;
    /// - the preload claims are redone when the full update redoes them: when the preload list
    ///   changed, or, after a failed fetch (``rowsFailed(fetchID:)``) left the claims behind the
    ///   list, when the prefetch list changed. The preload list being then empty, so is the
    ///   prefetch list (contained), and it changed exactly when last update's prefetch rect held a
    ///   cell: that one test replaces the prefetch list.
    ///
    /// The returned ``VirtualizerUpdate`` counts no cells (0 created, reused, recycled, discarded;
    /// no entered or left items); its rects are the full update's.
    ///
    /// - Precondition: the virtualizer was made with `keepsCells: false`.
    /// - Complexity: one layout query at most (the element cache's miss), plus O(k) for the k
    ///   elements in the ranges when the visible or preload rect crossed an element's edge, plus
    ///   O(k log k) when the preload list changed.
    @discardableResult
    public func updateRowsOnly(
        contentOffset: Point, viewport: Size, items: [Item], scrollVelocity: Point = .zero
    ) -> VirtualizerUpdate {
        precondition(!keepsCells, "updateRowsOnly needs a virtualizer made with keepsCells: false")
        // A failed fetch since the last update: did last update's prefetch rect hold a cell? (Its
        // elements are still the kept answer; see the second point above.)
        var previousPrefetchHadCell = false
        if preloadClaimsStale, let lastPrefetchRect = rowsOnlyLastPrefetchRect {
            previousPrefetchHadCell = lastElements.contains {
                $0.category == .cell && $0.frame.intersects(lastPrefetchRect)
            }
        }
        let direction = resolveDirection(contentOffset: contentOffset, velocity: scrollVelocity)
        let visibleRect = Rect(origin: contentOffset, size: viewport)
        let needsVisibleIndices = configuration.prefetch.isItemBased || configuration.preload.isItemBased
        let visibleIndices = needsVisibleIndices ? visibleIndexRange(in: visibleRect) : nil
        let prefetchRect = rangeRect(
            configuration.prefetch, viewport: visibleRect, direction: direction, visibleIndexRange: visibleIndices)
        let preloadRect = rangeRect(
            configuration.preload, viewport: visibleRect, direction: direction, visibleIndexRange: visibleIndices)
        rowsOnlyLastPrefetchRect = prefetchRect

        // The layout's answer, kept while it covers the viewport and the preload range (which
        // contains the prefetch range), as in the full update.
        let itemsStorage = items.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
        let itemCount = items.count
        let sameItems = itemsStorage == lastItemsStorage && itemCount == self.items.count
        let cacheHit = refreshElements(
            covering: visibleRect, preloadRect, preloadRect, union: Self.boundingRect(visibleRect, preloadRect),
            viewport: viewport)
        let elements = lastElements
        let recomputeVisible = !cacheHit || !sameItems || !visibleWindow.contains(visibleRect, axis: axis)
        let recomputePreload = !cacheHit || !sameItems || !preloadWindow.contains(preloadRect, axis: axis)

        let visibleChanged =
            recomputeVisible ? refillVisible(from: elements, items: items, visibleRect: visibleRect) : false

        // The preload list: layout indices, then (only when they changed) the items, their
        // distances and the claims, as in the full update.
        var preloadIndices =
            recomputePreload
            ? refillPreloadIndices(from: elements, itemCount: itemCount, preloadRect: preloadRect) : lastPreloadIndices
        let preloadSame: Bool
        if sameItems && preloadIndices == lastPreloadIndices {
            preloadSame = true
        } else {
            preloadSame =
                preloadIndices.count == lastPreloadIDs.count
                && !zip(preloadIndices, lastPreloadIDs).contains { items[$0].id != $1 }
        }
        // Same list after a failed fetch: the list is empty (the failure emptied `lastPreloadIDs`),
        // so the prefetch list is empty now and changed iff it held a cell at the last update.
        let preloadChanged = !preloadSame || (preloadClaimsStale && previousPrefetchHadCell)
        // As in the full update, a run diff where it applies: the full pass claimed every row of the
        // range again, ~12 k instructions, on one frame in seven of a grid load session.
        let rowChange =
            preloadChanged
            ? claimPreload(
                preloadIndices: preloadIndices, sameItems: sameItems, items: items, elements: elements,
                preloadRect: preloadRect, visibleRect: visibleRect) : RowChange()
        if recomputePreload {
            swap(&lastPreloadIndices, &preloadIndices)
            sparePreloadIndices = preloadIndices
        }
        lastItemsStorage = itemsStorage
        if visibleChanged { visibleGeneration &+= 1 }
        // A prefetch run kept by a full update points into the list being replaced (see `update`).
        if !sameItems { materializePrefetchItems() }
        self.items = items
        // No cells here: the live-cell count and its maximum stay 0.
        return finishUpdate(
            contentOffset: contentOffset, direction: direction, rects: (visibleRect, prefetchRect, preloadRect),
            cells: CellChange(), rows: rowChange)
    }
}
