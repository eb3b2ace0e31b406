import FeedLayout
import FeedModel
import Testing

@testable import FeedEngine

@Suite struct VirtualizerRowFetchTests {
    let viewport = Size(width: 320, height: 300)

    /// 100 items of 100 pt; cells for the viewport only; rows 200 pt ahead, nothing behind.
    private func make(batch: Int = 3, preload: RangeExtent = .points(leading: 200, trailing: 0)) throws
        -> (Virtualizer, [Item])
    {
        let layout = VirtualizerTestLayout.list(heights: Array(repeating: 100, count: 100), viewport: viewport)
        let v = try Virtualizer(
            layout: layout, configuration: RangeConfiguration(prefetch: .viewportOnly, preload: preload),
            rowBatchLimit: batch)
        return (v, virtualizerTestItems(count: 100))
    }

    private func deliver(_ v: Virtualizer, _ fetch: RowFetch) -> RowArrival {
        v.rowsArrived(fetchID: fetch.id, batch: RowBatch(rows: fetch.itemIDs.map(virtualizerTestRow), missing: []))
    }

    @Test func rowsAreFetchedInBatchesOnlyForThePreloadRange() throws {
        let (v, items) = try make()
        let update = v.update(contentOffset: .zero, viewport: viewport, items: items)
        // Preload 0..<500: items 0–4, nearest first (0–3 all touch the viewport: distance 0; item 4
        // is 100 pt below), in batches of 3.
        #expect(
            update.rowFetches == [
                RowFetch(id: 0, itemIDs: [1000, 1001, 1002]), RowFetch(id: 1, itemIDs: [1003, 1004]),
            ])
        #expect(update.cancelledFetchIDs.isEmpty)
        #expect(v.itemsBeingFetched == [1000, 1001, 1002, 1003, 1004])
    }

    @Test func aFetchStillNeededAfterARangeChangeIsKeptAndNotRequestedAgain() throws {
        let (v, items) = try make()
        _ = v.update(contentOffset: .zero, viewport: viewport, items: items)
        // 100..<400, preload 100..<600: item 0 leaves but fetch 0 still serves items 1 and 2;
        // only item 5 is new.
        let down = v.update(contentOffset: Point(x: 0, y: 100), viewport: viewport, items: items)
        #expect(down.cancelledFetchIDs.isEmpty)
        #expect(down.rowFetches == [RowFetch(id: 2, itemIDs: [1005])])
        // Back up to 0 (backward): preload −200..<300 holds items 0–2. Item 0 re-enters while
        // fetch 0 is in flight: not requested again. Items 3, 4, 5 leave: fetches 1 and 2 have
        // nothing left in range and are cancelled.
        let up = v.update(contentOffset: .zero, viewport: viewport, items: items)
        #expect(up.direction == .backward)
        #expect(up.rowFetches.isEmpty)
        #expect(up.cancelledFetchIDs == [1, 2])
        #expect(v.pendingFetchIDs == [0])
        #expect(v.counters.rowsRequested == 6)
    }

    @Test func aFetchWhoseItemsAllLeftIsCancelledAndItsLateRowsDropped() throws {
        let (v, items) = try make()
        let first = v.update(contentOffset: .zero, viewport: viewport, items: items)
        let jump = v.update(contentOffset: Point(x: 0, y: 5000), viewport: viewport, items: items)
        #expect(jump.cancelledFetchIDs == [0, 1])
        #expect(jump.rowFetches.map(\.itemIDs) == [[1050, 1051, 1052], [1053, 1054]])
        let late = deliver(v, first.rowFetches[0])
        #expect(late.accepted == false)
        #expect(!v.isRowLoaded(1000))
        #expect(v.counters.rowBatchesDropped == 1)
        #expect(v.counters.rowFetchesCancelled == 2)
    }

    @Test func arrivingRowsBindToTheLiveCellsShowingThoseItems() throws {
        let (v, items) = try make()
        let update = v.update(contentOffset: .zero, viewport: viewport, items: items)
        #expect(v.visibleElements.map(\.isRowBound) == [false, false, false])
        let arrival = deliver(v, update.rowFetches[0])
        #expect(arrival.boundItemIDs == [1000, 1001, 1002])
        #expect(v.visibleElements.map(\.isRowBound) == [true, true, true])
        // Item 3 has a row coming (fetch 1) but no cell yet: cached, not bound.
        let second = deliver(v, update.rowFetches[1])
        #expect(second.boundItemIDs.isEmpty)
        #expect(second.rowsCached == 2)
        #expect(v.isRowLoaded(1003))
        // Scrolling item 3 into view dequeues a cell and binds the cached row at once.
        _ = v.update(contentOffset: Point(x: 0, y: 100), viewport: viewport, items: items)
        #expect(v.cell(forItem: 1003)?.isRowBound == true)
    }

    @Test func aRowForAnItemWhoseCellWasReusedIsNotBoundToIt() throws {
        // One id per fetch; rows 1000 pt either side, so item 0 stays in the preload range.
        let (v, items) = try make(batch: 1, preload: .points(leading: 1000, trailing: 1000))
        let first = v.update(contentOffset: .zero, viewport: viewport, items: items)
        let fetchOfItem0 = first.rowFetches.first { $0.itemIDs == [1000] }!
        let cellOfItem0 = v.cell(forItem: 1000)!.id
        // 300..<600: items 0, 1, 2 leave, 3, 4, 5 take their cells (last in, first out: the cell
        // of item 2 goes to item 3, item 1's to item 4, item 0's to item 5).
        let scrolled = v.update(contentOffset: Point(x: 0, y: 300), viewport: viewport, items: items)
        #expect(scrolled.cellsReused == 3)
        #expect(v.cell(forItem: 1005)?.id == cellOfItem0)

        let arrival = deliver(v, fetchOfItem0)
        #expect(arrival.accepted)
        #expect(arrival.boundItemIDs.isEmpty)
        let reusedCell = v.cell(forItem: 1005)!
        #expect(reusedCell.boundRowItemID == nil)
        #expect(!reusedCell.isRowBound)
        #expect(v.isRowLoaded(1000))  // cached for when item 0 comes back
        _ = v.update(contentOffset: .zero, viewport: viewport, items: items)
        #expect(v.cell(forItem: 1000)?.isRowBound == true)
    }

    @Test func missingRowsAreNotRequestedAgainWhileInRange() throws {
        let (v, items) = try make()
        let update = v.update(contentOffset: .zero, viewport: viewport, items: items)
        let arrival = v.rowsArrived(
            fetchID: 0, batch: RowBatch(rows: [virtualizerTestRow(1000)], missing: [1001]))
        // 1002 was asked for and left out of both lists: counted missing too.
        #expect(arrival.missingItemIDs == [1001, 1002])
        #expect(!v.isRowLoaded(1001))
        #expect(update.rowFetches.count == 2)
        // 10..<310, preload 10..<510: item 5 enters and is fetched; 1001 and 1002 stay in range
        // and are not asked for again.
        let again = v.update(contentOffset: Point(x: 0, y: 10), viewport: viewport, items: items)
        #expect(again.rowFetches.flatMap(\.itemIDs) == [1005])
        #expect(v.counters.rowsMissing == 2)
    }

    @Test func rowsOutsideThePreloadRangeAreEvictedLeastRecentlyUsedFirst() throws {
        let layout = VirtualizerTestLayout.list(heights: Array(repeating: 100, count: 100), viewport: viewport)
        let v = try Virtualizer(
            layout: layout, configuration: RangeConfiguration(prefetch: .viewportOnly, preload: .viewportOnly),
            rowCacheCapacity: 4)
        let items = virtualizerTestItems(count: 100)
        // Three screens of 3 items each, every row delivered.
        for offset in [0.0, 300, 600] {
            let update = v.update(contentOffset: Point(x: 0, y: offset), viewport: viewport, items: items)
            for fetch in update.rowFetches { _ = deliver(v, fetch) }
        }
        // In range: items 6–8 (pinned). Left: 0–2 at the first move, 3–5 at the second: the LRU
        // holds the 4 most recent, 2–5; rows 0 and 1 were evicted.
        #expect(v.cachedRowCount == 7)  // 3 pinned + 4
        #expect(v.counters.rowsEvicted == 2)
        #expect((1003...1008).allSatisfy { v.isRowLoaded($0) })
        // Coming back to 0 fetches again only the evicted rows.
        let back = v.update(contentOffset: .zero, viewport: viewport, items: items)
        #expect(back.rowFetches.flatMap(\.itemIDs).count == 2)
    }
}

@Suite struct VirtualizerRowCacheTests {
    @Test func pinnedRowsAreNeverEvictedAndUnpinnedOnesLeaveOldestFirst() {
        var cache = VirtualizerRowCache(capacity: 2)
        #expect(cache.store(1, row: virtualizerTestRow(1), pinned: true) == 0)
        #expect(cache.store(2, row: virtualizerTestRow(2), pinned: false) == 0)
        #expect(cache.store(3, row: virtualizerTestRow(3), pinned: false) == 0)
        #expect(cache.unpinnedIDsByRecency == [3, 2])
        // Unpinning 1 makes it the most recent; 2 is the oldest and goes.
        #expect(cache.unpin(1) == 1)
        #expect(cache.unpinnedIDsByRecency == [1, 3])
        #expect(cache.row(for: 2) == nil)
        // Pinning 3 takes it out of the LRU; storing 4 and 5 evicts 1 only.
        cache.pin(3)
        #expect(cache.store(4, row: virtualizerTestRow(4), pinned: false) == 0)
        #expect(cache.store(5, row: virtualizerTestRow(5), pinned: false) == 1)
        #expect(cache.unpinnedIDsByRecency == [5, 4])
        #expect(cache.row(for: 3)?.id == 3)
        #expect(cache.count == 3)
    }

    @Test func storingOverAnEntryKeepsOrTakesItsPinAndSlotsAreReused() {
        var cache = VirtualizerRowCache(capacity: 2)
        _ = cache.store(1, row: virtualizerTestRow(1), pinned: false)
        _ = cache.store(2, row: virtualizerTestRow(2), pinned: false)
        #expect(cache.unpinnedIDsByRecency == [2, 1])
        // Stored again unpinned: the most recent, nothing evicted.
        #expect(cache.store(1, row: nil, pinned: false) == 0)
        #expect(cache.unpinnedIDsByRecency == [1, 2])
        #expect(cache.contains(1) && !cache.hasRow(for: 1))
        // Stored again pinned: out of the LRU list, still counted once.
        #expect(cache.store(2, row: virtualizerTestRow(2), pinned: true) == 0)
        #expect(cache.unpinnedIDsByRecency == [1])
        #expect(cache.count == 2)
        // A pinned entry stored unpinned stays pinned (its item is still in range).
        #expect(cache.store(2, row: nil, pinned: false) == 0)
        #expect(cache.unpinnedIDsByRecency == [1])
        #expect(cache.contains(2) && !cache.hasRow(for: 2))
        // Pinning twice, unpinning an unknown id or an unpinned one: nothing changes.
        cache.pin(2)
        cache.pin(2)
        #expect(cache.unpin(9) == 0)
        #expect(cache.unpin(1) == 0)
        #expect(cache.unpinnedIDsByRecency == [1])
        // Three more unpinned rows: 1 then 3 are evicted, 2 stays pinned.
        for id in Int64(3)...5 { _ = cache.store(id, row: virtualizerTestRow(id), pinned: false) }
        #expect(cache.unpinnedIDsByRecency == [5, 4])
        #expect(cache.count == 3)
        #expect(!cache.contains(1) && !cache.contains(3) && cache.contains(2))
    }

    @Test func aCapacityOfZeroEvictsAnEntryWhenItIsUnpinned() {
        var cache = VirtualizerRowCache(capacity: 0)
        #expect(cache.store(1, row: virtualizerTestRow(1), pinned: true) == 0)
        #expect(cache.count == 1)
        #expect(cache.unpin(1) == 1)
        #expect(!cache.contains(1) && cache.count == 0)
        #expect(cache.store(2, row: virtualizerTestRow(2), pinned: false) == 1)
        #expect(cache.count == 0)
    }

    @Test func aMissingEntryCountsAsCachedButHasNoRow() {
        var cache = VirtualizerRowCache(capacity: 1)
        _ = cache.store(7, row: nil, pinned: false)
        #expect(cache.contains(7))
        #expect(cache.row(for: 7) == nil)
    }
}
