import FeedModel

extension Virtualizer {
    /// Batches of at most this many ids test membership by a linear scan (``rowsArrived(fetchID:batch:)``).
    static let linearMembershipLimit = 8

    struct RowChange {
        var fetches: [RowFetch] = []
        var cancelled: [Int] = []
    }

    /// Applies a new preload range: items that left release their claim on in-flight fetches
    /// (a fetch with no item left in range is cancelled) and unpin their cached rows; items that
    /// entered pin their cached row, rejoin a fetch still in flight, or are requested anew.
    ///
    /// - Parameter preloadEntries: items intersecting the preload range, each once, with their
    ///   distance from the viewport (points) and index.
    /// - Complexity: O(k log k) for the k items in the old and new preload ranges.
    func updateRows(
        preloadEntries: [PreloadEntry], newPreloadIDs: inout ItemIDSet
    ) -> RowChange {
        // Left the range. Sorted so evictions and cancellations are deterministic.
        var leftIDs: [Int64] = []
        preloadItemIDs.forEach { id in if !newPreloadIDs.contains(id) { leftIDs.append(id) } }
        leftIDs.sort()
        let change = applyRowChange(preloadEntries: preloadEntries, leftIDs: leftIDs)
        swap(&preloadItemIDs, &newPreloadIDs)  // the old set is the caller's scratch for the next update
        return change
    }

    /// The work of ``updateRows(preloadEntries:newPreloadIDs:)`` once the ids that left the range
    /// are known (ascending): entries not yet claimed enter, then `leftIDs` leave, then the new
    /// fetches are issued. ``preloadItemIDs`` is left as it was, for the caller to update.
    func applyRowChange(preloadEntries: [PreloadEntry], leftIDs: [Int64]) -> RowChange {
        var change = RowChange()
        // The row cache, the fetches and the counters are worked on as locals and put back at the
        // end, as in ``updateCells(prefetchCells:prefetchItemIDs:leavingCells:)``: a method called
        // on the stored row cache copied it (its five buffers retained and released) per entry.
        var rowCache = VirtualizerRowCache(capacity: 0)
        var fetches: [Int: PendingRowFetch] = [:]
        var fetchOfItem = ItemIDTable<Int>()
        var counters = VirtualizerCounters()
        var nextFetchID = self.nextFetchID
        swap(&rowCache, &self.rowCache)
        swap(&fetches, &self.fetches)
        swap(&fetchOfItem, &self.fetchOfItem)
        swap(&counters, &self.counters)
        defer {
            swap(&rowCache, &self.rowCache)
            swap(&fetches, &self.fetches)
            swap(&fetchOfItem, &self.fetchOfItem)
            swap(&counters, &self.counters)
            self.nextFetchID = nextFetchID
        }

        // Entered the range, first: pinning before anything is unpinned keeps a returning row from
        // being evicted by the rows that leave in the same frame, and rejoining a fetch before
        // anything is released keeps a fetch that one returning item still needs from being
        // cancelled and asked again.
        var toRequest: [(id: Int64, distance: Double, index: Int)] = []
        toRequest.reserveCapacity(preloadEntries.count)
        let preloadItemIDs = self.preloadItemIDs
        for entry in preloadEntries where !preloadItemIDs.contains(entry.item.id) {
            let id = entry.item.id
            if rowCache.contains(id) {
                rowCache.pin(id)
            } else if let fetchID = fetchOfItem[id] {
                fetches[fetchID]!.neededCount += 1  // still in flight: keep it, do not ask again
            } else {
                toRequest.append((id, entry.distance, entry.index))
            }
        }

        // Left the range (sorted by the caller, so evictions and cancellations are deterministic).
        var emptied: [Int] = []
        for id in leftIDs {
            counters.rowsEvicted += rowCache.unpin(id)
            if let fetchID = fetchOfItem[id] {
                fetches[fetchID]!.neededCount -= 1
                if fetches[fetchID]!.neededCount == 0 { emptied.append(fetchID) }
            }
        }
        for fetchID in emptied.sorted() {
            guard let fetch = fetches.removeValue(forKey: fetchID) else { continue }
            for id in fetch.itemIDs where fetchOfItem[id] == fetchID { fetchOfItem[id] = nil }
            change.cancelled.append(fetchID)
        }
        counters.rowFetchesCancelled += change.cancelled.count

        // New fetches: most urgent first (visible, then nearest), ties by index.
        toRequest.sort { ($0.distance, $0.index) < ($1.distance, $1.index) }
        var start = 0
        while start < toRequest.count {
            let end = min(start + rowBatchLimit, toRequest.count)
            let ids = toRequest[start..<end].map(\.id)
            let fetchID = nextFetchID
            nextFetchID += 1
            fetches[fetchID] = PendingRowFetch(itemIDs: ids, neededCount: ids.count)
            for id in ids { fetchOfItem[id] = fetchID }
            change.fetches.append(RowFetch(id: fetchID, itemIDs: ids))
            counters.rowFetchesIssued += 1
            counters.rowsRequested += ids.count
            start = end
        }
        return change
    }

    /// A fetch failed: it is forgotten, and its items still in the preload range are asked for
    /// again at the next update (as entering items). A failure for a fetch that was cancelled,
    /// already answered or never issued is ignored.
    /// - Complexity: O(r) for the r ids of the fetch.
    public func rowsFailed(fetchID: Int) {
        guard let fetch = fetches.removeValue(forKey: fetchID) else { return }
        counters.rowFetchesFailed += 1
        for id in fetch.itemIDs where fetchOfItem[id] == fetchID {
            fetchOfItem[id] = nil
            preloadItemIDs.remove(id)
        }
        // The next update must compare the ranges again, even when they did not move.
        lastPreloadIDs = []
        lastPreloadIndices = []
        // And list the preload range again, even when its edges crossed no element.
        preloadWindow = MembershipWindow()
        preloadClaimsStale = true
    }

    /// Delivers the rows of a fetch: caches them (pinned when the item is still in the preload
    /// range) and binds each to the live cell showing that item now.
    ///
    /// A row is bound only to a cell whose item is the row's item: a cell that was reused for
    /// another item while the fetch was in flight keeps its new item, unbound. A batch for a
    /// fetch that was cancelled, already answered or never issued is dropped whole.
    ///
    /// - Parameters:
    ///   - fetchID: ``RowFetch/id`` of the fetch answered.
    ///   - batch: the rows found and the ids missing; rows for ids the fetch did not ask for are
    ///     ignored, and asked ids absent from both lists count as missing.
    /// - Returns: what was cached and bound.
    /// - Complexity: O(r) for r rows in the batch (amortized; evictions O(1) each).
    @discardableResult
    public func rowsArrived(fetchID: Int, batch: RowBatch) -> RowArrival {
        guard let fetch = fetches.removeValue(forKey: fetchID) else {
            counters.rowBatchesDropped += 1
            return RowArrival(accepted: false, rowsCached: 0, boundItemIDs: [], missingItemIDs: [])
        }
        for id in fetch.itemIDs where fetchOfItem[id] == fetchID { fetchOfItem[id] = nil }
        // Membership by a linear scan for a batch of a few ids (a grid row's: 3), by hashed sets
        // beyond: the same answers, without two tables allocated per batch (more than half of a
        // load session's row-arrival cost in callgrind: 36.0M → 15.3M instructions, 16 sessions).
        let small = fetch.itemIDs.count <= Self.linearMembershipLimit
        let askedSet = small ? ItemIDSet() : ItemIDSet(fetch.itemIDs)
        var arrival = RowArrival(accepted: true, rowsCached: 0, boundItemIDs: [], missingItemIDs: [])
        var visibleFlagChanged = false
        for row in batch.rows where small ? fetch.itemIDs.contains(row.id) : askedSet.contains(row.id) {
            counters.rowsEvicted += rowCache.store(row.id, row: row, pinned: preloadItemIDs.contains(row.id))
            arrival.rowsCached += 1
            var bound = false
            if let cellID = cellOfItem[row.id], cells[cellID]!.itemID == row.id {
                cells[cellID]!.boundRowItemID = row.id
                arrival.boundItemIDs.append(row.id)
                bound = true
            }
            // A visible cell's flag: its row bound (with cells) or cached (without).
            if !visibleFlagChanged, bound || !keepsCells, visibleCellItemIDsStorage.contains(row.id) {
                visibleFlagChanged = true
            }
        }
        // Ids reported missing, and ids the source left out of both lists, are cached as missing
        // so they are not asked for again while they stay in range.
        let returnedSet = small ? ItemIDSet() : ItemIDSet(batch.rows.lazy.map(\.id))
        for id in fetch.itemIDs
        where small ? !batch.rows.contains(where: { $0.id == id }) : !returnedSet.contains(id) {
            counters.rowsEvicted += rowCache.store(id, row: nil, pinned: preloadItemIDs.contains(id))
            arrival.missingItemIDs.append(id)
        }
        counters.rowsReceived += arrival.rowsCached
        // The visible flags change only when a visible item's row was cached (without cells: a
        // visible cell shows its row when the row is cached) or bound to its cell (with cells). A
        // row for an item off screen, most of a preload or prefetch range's, changes none, and the
        // replay's blank-area cache is then kept.
        if visibleFlagChanged { visibleGeneration &+= 1 }
        counters.rowsBound += arrival.boundItemIDs.count
        counters.rowsMissing += arrival.missingItemIDs.count
        return arrival
    }
}
