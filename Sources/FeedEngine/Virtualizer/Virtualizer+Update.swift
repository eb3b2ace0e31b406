import FeedLayout
import FeedModel

extension Virtualizer {
    /// Moves the viewport: recycles cells that left the prefetch range, gives entering items a
    /// cell, and decides which rows to fetch and which fetches to cancel.
    ///
    /// - Parameters:
    ///   - contentOffset: origin of the viewport in content coordinates, points.
    ///   - viewport: size of the viewport (bounds), points.
    ///   - items: the loaded item stubs; index `i` of the layout is `items[i]`. Read only at the
    ///     indices the layout returns, never scanned.
    ///   - scrollVelocity: points per second (sign gives the direction); `.zero` when at rest or
    ///     unknown, then the direction comes from the offset change.
    /// - Returns: what changed, with the row fetches to issue and the fetches to cancel.
    /// - Complexity: one layout query (two with an item extent) plus O(k log k) for the k elements
    ///   in the ranges; independent of `items.count`.
    @discardableResult
    public func update(
        contentOffset: Point, viewport: Size, items: [Item], scrollVelocity: Point = .zero
    ) -> VirtualizerUpdate {
        let direction = resolveDirection(contentOffset: contentOffset, velocity: scrollVelocity)
        let visibleRect = Rect(origin: contentOffset, size: viewport)
        let needsVisibleIndices = configuration.prefetch.isItemBased || configuration.preload.isItemBased
        let visibleIndices = needsVisibleIndices ? visibleIndexRange(in: visibleRect) : nil
        let prefetchRect = rangeRect(
            configuration.prefetch, viewport: visibleRect, direction: direction, visibleIndexRange: visibleIndices)
        let preloadRect = rangeRect(
            configuration.preload, viewport: visibleRect, direction: direction, visibleIndexRange: visibleIndices)

        // The layout's answer: kept from an earlier update while the layout has not changed (its
        // generation) and the three rects stay inside the rect that was asked for, else one new
        // query for a rect two screens larger on each side (see ``VirtualizerElementCache``).
        let itemsStorage = items.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
        let itemCount = items.count
        let sameItems = itemsStorage == lastItemsStorage && itemCount == self.items.count
        // One query for all ranges: they share the viewport's cross-axis extent, so the bounding
        // rect of the prefetch and preload rects is exactly their union.
        let cacheHit = refreshElements(
            covering: visibleRect, prefetchRect, preloadRect, union: Self.boundingRect(prefetchRect, preloadRect),
            viewport: viewport)
        let elements = lastElements
        // A rect's lists are recomputed only when an element may have entered or left it: new
        // elements or items, or the rect moved past the edge of an element (its window).
        let recomputeVisible = !cacheHit || !sameItems || !visibleWindow.contains(visibleRect, axis: axis)
        let recomputePrefetch = !cacheHit || !sameItems || !prefetchWindow.contains(prefetchRect, axis: axis)
        let recomputePreload = !cacheHit || !sameItems || !preloadWindow.contains(preloadRect, axis: axis)
        // No element can have entered or left any range: the general path would find the same
        // index lists, no changed range and no cell or row change, and only record the offset and
        // direction. This records them without its
        // bookkeeping (the lists' comparisons, the swaps, the visible-generation scans, the item
        // list's reassignment). Most frames of a scroll are such frames: the update went 48.2M →
        // 46.8M instructions in the 60-s flinger replay on 1M photos (grid, --max-loaded 600;
        // callgrind, inclusive).
        if !recomputeVisible && !recomputePrefetch && !recomputePreload {
            return finishUpdate(
                contentOffset: contentOffset, direction: direction, rects: (visibleRect, prefetchRect, preloadRect),
                cells: CellChange(), rows: RowChange())
        }

        // First pass, no hashing: the layout indices in each range in layout order, and what is
        // visible. Most frames of a scroll find the same indices as the frame before (a new row of
        // cells enters only every few frames), and then nothing else has to be computed.
        // The lists reuse last frame's spare buffers: no allocation on most frames. Fields are
        // read in place through the buffer: iterating the array copied each element's attributes
        // (an enum with a string payload: an outlined copy and destroy per element).
        var prefetchIndices = lastPrefetchIndices
        var supplementary = liveSupplementaryKinds
        if recomputePrefetch {
            prefetchIndices = []
            swap(&prefetchIndices, &sparePrefetchIndices)
            // Refilled in place: a new set per frame allocated its storage on every frame that had a footer in range.
            supplementary = []
            swap(&supplementary, &liveSupplementaryKinds)
            supplementary.removeAll(keepingCapacity: true)
            let candidates = positions(mayIntersect: prefetchRect, in: elements)
            elements.withUnsafeBufferPointer { elements in
                // Written through a pointer (``Array/refill(upTo:filler:_:)``), as the visible pass.
                prefetchIndices.refill(upTo: candidates.count, filler: 0) { indices in
                    var count = 0
                    for position in candidates where elements[position].frame.intersects(prefetchRect) {
                        switch elements[position].category {
                        case .cell:
                            let index = Self.cellIndex(elements[position].indexPath, itemCount: itemCount)
                            indices[count] = index
                            count += 1
                        case .supplementary(let kind): supplementary.insert(kind)
                        case .decoration: break
                        }
                    }
                    return count
                }
                prefetchWindow = window(of: prefetchRect, over: elements)
            }
        }
        var preloadIndices =
            recomputePreload
            ? refillPreloadIndices(from: elements, itemCount: itemCount, preloadRect: preloadRect) : lastPreloadIndices
        let visibleChanged =
            recomputeVisible ? refillVisible(from: elements, items: items, visibleRect: visibleRect) : false

        let liveBefore = cellOfItem.count
        var cellChange = CellChange()
        var rowChange = RowChange()
        // Second pass, only for a range whose membership changed: sets and distances. The two
        // ranges' edges cross element boundaries in different frames, so each is redone alone: an
        // unchanged prefetch range would leave every cell as it is, an unchanged preload range every
        // row claim (unless a failed fetch left the claims behind the list: `preloadClaimsStale`).
        // "Changed" compares the items (ids and kinds) and the first index with those of the last
        // update that changed them; the same list with the same indices is the same items.
        let prefetchFirstIndex = prefetchIndices.first
        let prefetchChanged: Bool
        if sameItems && prefetchIndices == lastPrefetchIndices {
            prefetchChanged = false
        } else {
            prefetchChanged =
                prefetchFirstIndex != lastPrefetchFirstIndex || prefetchItemsDiffer(prefetchIndices, in: items)
        }
        let preloadSame: Bool
        if sameItems && preloadIndices == lastPreloadIndices {
            preloadSame = true
        } else {
            preloadSame =
                preloadIndices.count == lastPreloadIDs.count
                && !zip(preloadIndices, lastPreloadIDs).contains { items[$0].id != $1 }
        }
        let preloadChanged = !preloadSame || (prefetchChanged && preloadClaimsStale)
        if prefetchChanged, sameItems, usesRunDiffs,
            let diff = prefetchRunDiff(
                prefetchIndices: prefetchIndices, items: items, elements: elements, prefetchRect: prefetchRect)
        {
            // A row or two entered and left at the ends of one run (Virtualizer+RunDiff.swift).
            cellChange = updateCells(
                prefetchCells: diff.entering, prefetchItemIDs: scratchPrefetchIDs, leavingCells: diff.leavingCells)
            // Kept as the run of `items` (copied out only when the list is let go of or replaced).
            lastPrefetchRun = diff.run
            lastPrefetchFirstIndex = prefetchFirstIndex
            runDiffs.cells += 1
        } else if prefetchChanged {
            var prefetchCells: [EnteringCell] = []
            prefetchCells.reserveCapacity(prefetchIndices.count)
            var prefetchItemIDs = ItemIDSet()
            swap(&prefetchItemIDs, &scratchPrefetchIDs)
            prefetchItemIDs.removeAll(keepingCapacity: true)
            var newItems: [Item] = []
            newItems.reserveCapacity(prefetchIndices.count)
            let candidates = positions(mayIntersect: prefetchRect, in: elements)
            elements.withUnsafeBufferPointer { elements in
                for position in candidates {
                    guard case .cell = elements[position].category, elements[position].frame.intersects(prefetchRect)
                    else { continue }
                    let indexPath = elements[position].indexPath
                    let item = items[indexPath.item]
                    newItems.append(item)
                    if prefetchItemIDs.insert(item.id) { prefetchCells.append(EnteringCell(indexPath: indexPath, item: item)) }
                }
            }
            cellChange = updateCells(prefetchCells: prefetchCells, prefetchItemIDs: prefetchItemIDs)
            swap(&prefetchItemIDs, &scratchPrefetchIDs)
            lastPrefetchItems = newItems
            lastPrefetchRun = nil
            lastPrefetchFirstIndex = prefetchFirstIndex
        }
        if preloadChanged {
            rowChange = claimPreload(
                preloadIndices: preloadIndices, sameItems: sameItems, items: items, elements: elements,
                preloadRect: preloadRect, visibleRect: visibleRect)
        }
        // The index lists become the last ones; last update's lists are next frame's spare buffers.
        if recomputePrefetch {
            swap(&lastPrefetchIndices, &prefetchIndices)
            sparePrefetchIndices = prefetchIndices
            liveSupplementaryKinds = supplementary
        }
        if recomputePreload {
            swap(&lastPreloadIndices, &preloadIndices)
            sparePreloadIndices = preloadIndices
        }
        lastItemsStorage = itemsStorage
        assert(liveBefore - cellChange.recycled + cellChange.reused + cellChange.created == cellOfItem.count)

        // Only cells of visible items matter to the visible flags (a kind change re-enters the
        // same id); cells entering off screen do not invalidate them. Plain scans, no hashing.
        if visibleChanged || cellChange.entered.contains(where: visibleCellItemIDsStorage.contains)
            || cellChange.left.contains(where: visibleCellItemIDsStorage.contains)
        {
            visibleGeneration &+= 1
        }
        // A prefetch run kept from an earlier update points into the list being replaced (a run
        // set by this update needs the same items, so it is kept).
        if !sameItems { materializePrefetchItems() }
        self.items = items
        return finishUpdate(
            contentOffset: contentOffset, direction: direction, rects: (visibleRect, prefetchRect, preloadRect),
            cells: cellChange, rows: rowChange)
    }

    /// What every update ends with: records the offset and direction, the most live cells and the
    /// update count, and returns the result for `cells` and `rows`.
    func finishUpdate(
        contentOffset: Point, direction: Direction, rects: (visible: Rect, prefetch: Rect, preload: Rect),
        cells: CellChange, rows: RowChange
    ) -> VirtualizerUpdate {
        lastContentOffset = contentOffset
        self.direction = direction
        maxLiveCells = max(maxLiveCells, cellOfItem.count)
        counters.updates += 1
        return VirtualizerUpdate(
            cellsCreated: cells.created, cellsReused: cells.reused, cellsRecycled: cells.recycled,
            cellsDiscarded: cells.discarded, enteredItemIDs: cells.entered, leftItemIDs: cells.left,
            rowFetches: rows.fetches, cancelledFetchIDs: rows.cancelled, direction: direction,
            visibleRect: rects.visible, prefetchRect: rects.prefetch, preloadRect: rects.preload,
            liveCellCount: cellOfItem.count)
    }

    struct CellChange {
        var created = 0
        var reused = 0
        var recycled = 0
        var discarded = 0
        var entered: [Int64] = []
        var left: [Int64] = []
    }

    /// Recycles cells whose item left (or changed kind), then gives each entering item a cell
    /// from its kind's pool or a new one, then trims the pool.
    /// - Parameter leavingCells: the cells whose item left, ascending, when the caller knows them
    ///   (``prefetchRunDiff(prefetchIndices:items:elements:prefetchRect:)``); then `prefetchCells`
    ///   holds only the entering items and `prefetchItemIDs` is not read.
    func updateCells(
        prefetchCells: [EnteringCell], prefetchItemIDs: ItemIDSet, leavingCells: [Int]? = nil
    ) -> CellChange {
        var change = CellChange()
        // The cell maps, the pool and the counters are worked on as locals and put back at the end:
        // a class's stored property touched in a loop pays a dynamic exclusivity check each time
        // (~106 per call in `bench replay`'s flinger trace, ~40 % of this function's instructions).
        var cells: [VirtualizerCell?] = []
        var cellOfItem = ItemIDTable<Int>()
        var pool = VirtualizerReusePool()
        var counters = VirtualizerCounters()
        var nextCellID = self.nextCellID
        swap(&cells, &self.cells)
        swap(&cellOfItem, &self.cellOfItem)
        swap(&pool, &self.pool)
        swap(&counters, &self.counters)
        defer {
            swap(&cells, &self.cells)
            swap(&cellOfItem, &self.cellOfItem)
            swap(&pool, &self.pool)
            swap(&counters, &self.counters)
            self.nextCellID = nextCellID
        }

        // 1. Leaving: O(live cells). A live item whose kind changed is treated as leaving and
        //    entering again, so a cell never shows an item of another kind.
        var leaving: [Int]
        if let leavingCells {
            leaving = leavingCells
        } else {
            leaving = []
            cellOfItem.forEach { itemID, cellID in
                if !prefetchItemIDs.contains(itemID) { leaving.append(cellID) }
            }
            for entry in prefetchCells {
                let (indexPath, item) = (entry.indexPath, entry.item)
                if let cellID = cellOfItem[item.id] {
                    if cells[cellID]!.kind != item.kind {
                        leaving.append(cellID)
                    } else {
                        cells[cellID]!.indexPath = indexPath
                    }
                }
            }
            leaving.sort()
        }
        // One allocation each for the ids that leave and enter, not the growth steps of appends
        // from empty: this function went 97.0M → 87.1M instructions in `bench replay`'s workload
        // (callgrind, 600-s flinger on 1M photos).
        change.left.reserveCapacity(leaving.count)
        change.entered.reserveCapacity(prefetchCells.count)
        for cellID in leaving {
            // Changed in place: copying the cell out and back retained and released its kind
            // (a string) and ran its outlined copy and destroy, per cell.
            let itemID = cells[cellID]!.itemID!
            cellOfItem[itemID] = nil
            cells[cellID]!.itemID = nil
            cells[cellID]!.indexPath = nil
            cells[cellID]!.boundRowItemID = nil
            pool.push(cellID: cellID, kind: cells[cellID]!.kind)
            change.left.append(itemID)
        }
        change.recycled = leaving.count

        // 2. Entering, in layout order. The per-kind counts are tallied per run of one kind and
        //    added to `counters.cellsByKind` once per run (the same sums, kinds added in the same
        //    order), not hashed per cell.
        var tallyKind: String?
        var tally = VirtualizerCounters.KindCounts()
        func flushTally() {
            guard let kind = tallyKind else { return }
            counters.cellsByKind[kind, default: .init()].add(tally)  // one lookup of the kind, not two
            tally = .init()
        }
        for entry in prefetchCells where cellOfItem[entry.item.id] == nil {
            let (indexPath, item) = (entry.indexPath, entry.item)
            if tallyKind != item.kind {
                flushTally()
                tallyKind = item.kind
            }
            let cellID: Int
            if let pooled = pool.pop(kind: item.kind) {
                cellID = pooled
                precondition(cells[cellID]!.kind == item.kind, "reuse pool handed out a cell of another kind")
                change.reused += 1
                tally.reused += 1
            } else {
                cellID = nextCellID
                let cell = VirtualizerCell(id: cellID, kind: item.kind, itemID: nil, indexPath: nil)
                if cellID == cells.count { cells.append(cell) } else { cells[cellID] = cell }
                nextCellID += 1
                change.created += 1
                tally.created += 1
            }
            // Bound in place (see the leaving cells above).
            let hasRow = rowCache.hasRow(for: item.id)
            cells[cellID]!.itemID = item.id
            cells[cellID]!.indexPath = indexPath
            cells[cellID]!.boundRowItemID = hasRow ? item.id : nil  // prepareForReuse, then bind
            if hasRow { counters.rowsBound += 1 }
            cellOfItem[item.id] = cellID
            change.entered.append(item.id)
        }
        flushTally()

        // 3. Trim the pool.
        for cellID in reusePoolLimit.map({ pool.trim(limit: $0) }) ?? [] {
            cells[cellID] = nil
            change.discarded += 1
        }

        counters.cellsCreated += change.created
        counters.cellsReused += change.reused
        counters.cellsRecycled += change.recycled
        counters.cellsDiscarded += change.discarded
        return change
    }
}

extension Virtualizer {
    /// The item index of a cell the layout returned, which must be one of the `itemCount` items
    /// passed to the update: a layout out of step with the list is a programming error (trap).
    @inline(__always)
    static func cellIndex(_ indexPath: IndexPath, itemCount: Int) -> Int {
        let index = indexPath.item
        precondition(
            index >= 0 && index < itemCount, "layout returned item \(index) but only \(itemCount) items were passed to update")
        return index
    }
}

extension VirtualizerCounters.KindCounts {
    /// Adds `other`'s counts to these.
    mutating func add(_ other: Self) {
        created += other.created
        reused += other.reused
    }
}

extension RangeExtent {
    /// Whether resolving the extent needs the visible index range.
    var isItemBased: Bool {
        if case .items = self { return true }
        return false
    }
}

extension Virtualizer {
    /// Refills the visible elements (as positions in the layout's answer), the visible cells' frames
    /// and item ids, their index range and the visible window from `elements`, the layout's answer
    /// for the query rect. The full and the rows-only update share it.
    /// - Returns: whether the visible cells' item ids changed.
    func refillVisible(from elements: [LayoutAttributes], items: [Item], visibleRect: Rect) -> Bool {
        let itemCount = items.count
        // The visible elements are kept as positions in the layout's answer, refilled in place:
        // ``visibleAttributes`` and ``visibleElements`` are built from them when read (the replay
        // reads neither per frame; copying each visible element's attributes was ~4 % of a frame).
        var visibleElementPositions: [Int] = []
        swap(&visibleElementPositions, &visibleElementPositionsStorage)
        // Visible cells as plain values, for per-frame metrics. Reused buffers (no allocation),
        // filled as locals (a stored property appended in the loop pays an exclusivity check each time).
        var visibleCellFrames: [Rect] = []
        swap(&visibleCellFrames, &visibleCellFramesStorage)
        var visibleCellItemIDs: [Int64] = []
        swap(&visibleCellItemIDs, &previousVisibleCellItemIDs)
        var lowestVisible = Int.max
        var highestVisible = Int.min
        let candidates = positions(mayIntersect: visibleRect, in: elements)
        // Written through pointers into the reused buffers (``Array/refill(upTo:filler:_:)``):
        // three appends per visible cell were a quarter of this pass (a uniqueness and a capacity
        // check each; callgrind, a 16-session grid load: 51.5M → 37.2M).
        elements.withUnsafeBufferPointer { elements in
            items.withUnsafeBufferPointer { items in
                var positionCount = 0
                var cellCount = 0
                visibleElementPositions.refill(upTo: candidates.count, filler: 0) { positions in
                    visibleCellFrames.refill(upTo: candidates.count, filler: .zero) { frames in
                        visibleCellItemIDs.refill(upTo: candidates.count, filler: 0) { ids in
                            for position in candidates where elements[position].frame.intersects(visibleRect) {
                                positions[positionCount] = position
                                positionCount += 1
                                guard case .cell = elements[position].category else { continue }
                                let index = Self.cellIndex(elements[position].indexPath, itemCount: itemCount)
                                frames[cellCount] = elements[position].frame
                                ids[cellCount] = items[index].id
                                cellCount += 1
                                lowestVisible = min(lowestVisible, index)
                                highestVisible = max(highestVisible, index)
                            }
                            return cellCount
                        }
                        return cellCount
                    }
                    return positionCount
                }
            }
            visibleWindow = window(of: visibleRect, over: elements)
        }
        let visibleChanged = visibleCellItemIDs != visibleCellItemIDsStorage
        swap(&visibleCellItemIDsStorage, &visibleCellItemIDs)
        previousVisibleCellItemIDs = visibleCellItemIDs
        visibleCellFramesStorage = visibleCellFrames
        visibleElementPositionsStorage = visibleElementPositions
        visibleCellIndexRangeStorage = lowestVisible <= highestVisible ? lowestVisible...highestVisible : nil
        return visibleChanged
    }

    /// Claims the rows of the cells in `preloadRect` (in layout order, each item once, with its
    /// distance to the visible rect) through ``updateRows(preloadEntries:newPreloadIDs:)``, and keeps
    /// their ids as the last preload list. The full and the rows-only update share it.
    /// - Parameter capacity: how many preload indices the layout's answer holds (a reserve hint).
    func refillPreload(
        from elements: [LayoutAttributes], items: [Item], capacity: Int, preloadRect: Rect, visibleRect: Rect
    ) -> RowChange {
        var preloadEntries: [PreloadEntry] = []
        preloadEntries.reserveCapacity(capacity)
        var newPreloadIDs = ItemIDSet()
        swap(&newPreloadIDs, &scratchPreloadIDs)
        newPreloadIDs.removeAll(keepingCapacity: true)
        var ids: [Int64] = []
        ids.reserveCapacity(capacity)
        let candidates = positions(mayIntersect: preloadRect, in: elements)
        elements.withUnsafeBufferPointer { elements in
            for position in candidates {
                guard case .cell = elements[position].category else { continue }
                let frame = elements[position].frame
                guard frame.intersects(preloadRect) else { continue }
                let index = elements[position].indexPath.item
                let item = items[index]
                ids.append(item.id)
                if newPreloadIDs.insert(item.id) {
                    preloadEntries.append(PreloadEntry(item: item, distance: axis.distance(between: frame, and: visibleRect), index: index))
                }
            }
        }
        // updateRows leaves the previous claims in `newPreloadIDs`: next update's scratch.
        let rowChange = updateRows(preloadEntries: preloadEntries, newPreloadIDs: &newPreloadIDs)
        swap(&newPreloadIDs, &scratchPreloadIDs)
        lastPreloadIDs = ids
        preloadClaimsStale = false
        return rowChange
    }

    /// The layout indices of the cells in `preloadRect`, in layout order, refilled into last
    /// update's spare buffer, and the preload window. The full and the rows-only update share it.
    func refillPreloadIndices(from elements: [LayoutAttributes], itemCount: Int, preloadRect: Rect) -> [Int] {
        var preloadIndices: [Int] = []
        swap(&preloadIndices, &sparePreloadIndices)
        let candidates = positions(mayIntersect: preloadRect, in: elements)
        elements.withUnsafeBufferPointer { elements in
            preloadIndices.refill(upTo: candidates.count, filler: 0) { indices in
                var count = 0
                for position in candidates where elements[position].frame.intersects(preloadRect) {
                    guard case .cell = elements[position].category else { continue }
                    let index = Self.cellIndex(elements[position].indexPath, itemCount: itemCount)
                    indices[count] = index
                    count += 1
                }
                return count
            }
            preloadWindow = window(of: preloadRect, over: elements)
        }
        return preloadIndices
    }

    /// Keeps the layout's answer (``lastElements``) while the layout's generation is unchanged and
    /// the three rects stay inside the rect last asked for; else asks once for `union` grown by
    /// two screens on each side (``VirtualizerElementCache``), into last update's spare buffer
    /// (no allocation where the layout fills buffers in place). The full and the rows-only update
    /// share it.
    /// - Returns: whether the kept answer was used (a cache hit).
    func refreshElements(covering visible: Rect, _ prefetch: Rect, _ preload: Rect, union: Rect, viewport: Size) -> Bool {
        let generation = layout.layoutGeneration
        let cacheHit =
            generation != nil && elementCache?.generation == generation
            && elementCache!.covers(visible, prefetch, preload, axis: axis)
        if !cacheHit {
            var queryRect = union
            if let generation {
                let pad = axis.length(of: viewport) * VirtualizerElementCache.padding
                queryRect = axis.extending(queryRect, before: pad, after: pad)
                elementCache = VirtualizerElementCache(queryRect: queryRect, generation: generation)
            } else {
                elementCache = nil
            }
            swap(&lastElements, &spareElements)
            layout.attributesForElements(in: queryRect, into: &lastElements)
            layoutQueries += 1
            // Indexed only when the answer can be kept (a layout asked every update would pay
            // the index on top of each pass).
            if elementCache != nil { axisOrder.rebuild(lastElements, axis: axis) } else { axisOrder.invalidate() }
        }
        return cacheHit
    }
}

extension Virtualizer {
    /// The positions of the kept answer `elements` to test against `rect`: the run that intersects
    /// it when the answer is in axis order (``ElementAxisOrder``), else all of them.
    func positions(mayIntersect rect: Rect, in elements: [LayoutAttributes]) -> Range<Int> {
        axisOrder.run(intersecting: rect) ?? elements.indices
    }

    /// The window of `rect` over the kept answer `elements`: by binary search when the answer is
    /// in axis order (``ElementAxisOrder``), else by a pass.
    func window(of rect: Rect, over elements: UnsafeBufferPointer<LayoutAttributes>) -> MembershipWindow {
        axisOrder.window(of: rect) ?? MembershipWindow(rect: rect, elements: elements, axis: axis)
    }
}

extension Array {
    /// Replaces the contents with the first elements of a buffer of `capacity` that `body` writes
    /// through a pointer and counts (its return, at most `capacity`), keeping the array's storage:
    /// no allocation once it is large enough, and no uniqueness or capacity check per element as
    /// `append` pays. The buffer holds the array's old elements, then `filler` up to `capacity`:
    /// `body` writes every element it counts (the callers fill plain values, front to back).
    /// Filling the whole buffer with `filler` first was 22.5M instructions of `bench replay`'s
    /// workload (callgrind), for values that were then overwritten.
    mutating func refill(upTo capacity: Int, filler: Element, _ body: (UnsafeMutableBufferPointer<Element>) -> Int) {
        if count < capacity {
            append(contentsOf: repeatElement(filler, count: capacity - count))
        } else if count > capacity {
            removeLast(count - capacity)
        }
        let written = withUnsafeMutableBufferPointer { body($0) }
        precondition(written >= 0 && written <= capacity, "refill wrote \(written) of \(capacity)")
        removeLast(capacity - written)
    }
}
