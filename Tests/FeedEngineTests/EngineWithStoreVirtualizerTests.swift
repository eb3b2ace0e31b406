import FeedEngine
import FeedLayout
import FeedModel
import FeedStore
import Testing

/// The virtualizer over a real layout of a feed loaded from the store, its row fetches answered by
/// the store's `rows(ids:)`. Expected ranges are worked out from the layout's frames by testing
/// every item; expected rows come from what was inserted.
@Suite struct EngineWithStoreVirtualizerTests {
    /// The 257-item feed loaded to its end through the controller, on `layout`.
    static func loadedFeed(_ layout: StoreTestLayout) throws -> (StoreFeedFixture, StoreDrivenFeed) {
        let fixture = try EngineWithStoreTests.seeded257()
        let feed = try StoreDrivenFeed(
            source: fixture.source, configuration: .init(pageSize: 20), layout: layout.configuration,
            viewport: storeTestViewport)
        try feed.start()
        try feed.settle()
        try feed.walkToEnd()
        try #require(feed.shown == fixture.feedOrder)
        return (fixture, feed)
    }

    /// The viewport at `y` grown by `before` points above and `after` below, full width.
    static func band(_ y: Double, before: Double, after: Double) -> Rect {
        Rect(x: 0, y: y - before, width: storeTestViewport.width, height: before + storeTestViewport.height + after)
    }

    @Test(arguments: StoreTestLayout.allCases)
    func rowsAreFetchedOnlyForThePreloadRangeAndEqualTheStoresRows(layout: StoreTestLayout) throws {
        let (fixture, feed) = try Self.loadedFeed(layout)
        let items = feed.shown
        let v = try Virtualizer(
            layout: feed.layout,
            configuration: RangeConfiguration(
                prefetch: .points(leading: 100, trailing: 50), preload: .points(leading: 600, trailing: 200)))
        var requested: [Int64] = []
        var everInPreload = Set<Int64>()
        var previous: Double?
        for y in [0.0, 400, 1200, 900, 2500, 2400, 6000, 5990] {
            let forward = previous.map { y > $0 } ?? true  // the first update counts as forward
            previous = y
            // Leading is the side scrolled toward: below when forward, above when backward.
            let preload = forward ? Self.band(y, before: 200, after: 600) : Self.band(y, before: 600, after: 200)
            let prefetch = forward ? Self.band(y, before: 50, after: 100) : Self.band(y, before: 100, after: 50)
            let inPreload = Set(feed.indices(intersecting: preload).map { items[$0].id })
            let inPrefetch = Set(feed.indices(intersecting: prefetch).map { items[$0].id })
            everInPreload.formUnion(inPreload)

            let update = v.update(contentOffset: Point(x: 0, y: y), viewport: storeTestViewport, items: items)
            #expect(update.direction == (forward ? .forward : .backward))
            let asked = update.rowFetches.flatMap(\.itemIDs)
            #expect(Set(asked).isSubset(of: inPreload), "rows only for the preload range at y = \(y)")
            #expect(Set(asked).isDisjoint(with: requested), "each row once (the cache holds all 257) at y = \(y)")
            requested += asked
            #expect(update.cancelledFetchIDs.isEmpty)
            #expect(v.preloadRangeItemIDs == inPreload.sorted())
            #expect(Set(v.liveCells.compactMap(\.itemID)) == inPrefetch)
            for cell in v.liveCells {
                #expect(cell.kind == items.first { $0.id == cell.itemID }?.kind)
            }

            for fetch in update.rowFetches {
                let arrival = v.rowsArrived(fetchID: fetch.id, batch: try fixture.source.rows(ids: fetch.itemIDs))
                #expect(arrival.accepted)
                #expect(arrival.missingItemIDs.isEmpty)
            }
            for id in inPreload {
                #expect(v.row(for: id) == fixture.expectedRow(id), "row \(id) as inserted")
            }
            #expect(v.visibleElements.allSatisfy { $0.isRowBound })
        }
        #expect(requested.count == Set(requested).count)
        #expect(Set(requested) == everInPreload)
        #expect(v.counters.rowsRequested == everInPreload.count)
    }

    /// Cells for the viewport only; rows for the viewport and 3000 pt behind it. The first
    /// screen's fetch is left in flight while the viewport moves down past its first items: their
    /// cells go to the pool and are reused for entering items of the same kind, but the items stay
    /// in the preload range, so the fetch is kept. When its rows arrive they bind only to the items
    /// still on screen; a reused cell keeps its new item, unbound.
    @Test(arguments: StoreTestLayout.allCases)
    func aRowArrivingForAnItemWhoseCellWasReusedIsNotBound(layout: StoreTestLayout) throws {
        let (fixture, feed) = try Self.loadedFeed(layout)
        let items = feed.shown
        let v = try Virtualizer(
            layout: feed.layout,
            configuration: RangeConfiguration(prefetch: .viewportOnly, preload: .points(leading: 0, trailing: 3000)))
        let first = v.update(contentOffset: .zero, viewport: storeTestViewport, items: items)
        let screen0 = feed.indices(intersecting: Self.band(0, before: 0, after: 0)).map { items[$0].id }
        try #require(first.rowFetches.count == 1)
        let fetch = first.rowFetches[0]
        #expect(Set(fetch.itemIDs) == Set(screen0))
        let cellsBefore = Dictionary(uniqueKeysWithValues: v.liveCells.map { ($0.id, $0.itemID!) })

        // Down to where the sixth item of the first screen ends: it and everything above it leave.
        let y = feed.frame(5).maxY
        let moved = v.update(contentOffset: Point(x: 0, y: y), viewport: storeTestViewport, items: items)
        let stillVisible = Set(feed.indices(intersecting: Self.band(y, before: 0, after: 0)).map { items[$0].id })
        let left = screen0.filter { !stillVisible.contains($0) }
        #expect(!left.isEmpty && left.count < screen0.count)
        #expect(moved.cancelledFetchIDs.isEmpty, "the first screen is still in the preload range")
        #expect(Set(moved.rowFetches.flatMap(\.itemIDs)).isDisjoint(with: screen0))
        #expect(moved.cellsReused > 0)
        let reused = v.liveCells.filter { cell in cellsBefore[cell.id].map { $0 != cell.itemID } ?? false }
        #expect(!reused.isEmpty)

        let batch = try fixture.source.rows(ids: fetch.itemIDs)
        let arrival = v.rowsArrived(fetchID: fetch.id, batch: batch)
        #expect(arrival.accepted)
        #expect(arrival.rowsCached == fetch.itemIDs.count)
        #expect(arrival.boundItemIDs == fetch.itemIDs.filter(stillVisible.contains))
        for cell in reused {
            let now = try #require(v.cell(forItem: cell.itemID!))
            #expect(now.boundRowItemID == nil, "cell \(cell.id) now shows item \(cell.itemID!), not its old row")
            #expect(!now.isRowBound)
        }
        for cell in v.liveCells {
            #expect(cell.boundRowItemID == nil || cell.boundRowItemID == cell.itemID)
            #expect(cell.kind == items.first { $0.id == cell.itemID }?.kind)
        }
        for id in fetch.itemIDs {
            #expect(v.row(for: id) == fixture.expectedRow(id))
        }

        // Back to the top: the items that left come back with their cached rows, bound at once,
        // and nothing of the first screen is fetched again.
        let back = v.update(contentOffset: .zero, viewport: storeTestViewport, items: items)
        #expect(Set(back.rowFetches.flatMap(\.itemIDs)).isDisjoint(with: screen0))
        for id in screen0 {
            #expect(v.cell(forItem: id)?.isRowBound == true)
        }
    }

    /// A Refresh that prepends 5 items above a scrolled list, anchored: the virtualizer's next update
    /// at the adjusted offset sees the same items in the viewport, so it keeps every cell (cells are
    /// keyed by item id, not index), creates and recycles none, and fetches no row (the new items
    /// are above the viewport; rows are preloaded only ahead, below it).
    @Test func anAnchoredRefreshKeepsEveryCellAndFetchesNoRow() throws {
        var db = try EngineWithStoreRefreshTests.TwoConnections(seed: 51)
        defer { db.directory.cleanUp() }
        let feed = try StoreDrivenFeed(
            source: db.fixture.source, configuration: .init(pageSize: 20), layout: .storeTestList,
            viewport: storeTestViewport)
        try feed.start()
        try feed.settle()
        try feed.scroll(to: 1000)
        try feed.settle()
        let v = try Virtualizer(
            layout: feed.layout,
            configuration: RangeConfiguration(prefetch: .viewportOnly, preload: .points(leading: 400, trailing: 0)))
        let before = v.update(contentOffset: feed.contentOffset, viewport: storeTestViewport, items: feed.shown)
        for fetch in before.rowFetches {
            v.rowsArrived(fetchID: fetch.id, batch: try db.fixture.source.rows(ids: fetch.itemIDs))
        }
        let cells = v.liveCells
        let visible = v.visibleItemIDs

        _ = try db.insertNewer(5, seed: 52)
        try feed.pull(distance: 60)
        try feed.settle()
        #expect(feed.contentOffset.y > 1000)
        let after = v.update(contentOffset: feed.contentOffset, viewport: storeTestViewport, items: feed.shown)
        #expect(after.direction == .forward)
        #expect(after.cellsCreated == 0)
        #expect(after.cellsRecycled == 0)
        #expect(after.enteredItemIDs.isEmpty)
        #expect(after.rowFetches.isEmpty)
        #expect(v.visibleItemIDs == visible)
        #expect(v.liveCells.map(\.id) == cells.map(\.id))
        #expect(v.liveCells.map(\.itemID) == cells.map(\.itemID))
        // Same cells, same items, new index paths: each shifted by the 5 prepended items.
        #expect(v.liveCells.map { $0.indexPath?.item } == cells.map { $0.indexPath.map { $0.item + 5 } })
        #expect(v.visibleElements.allSatisfy { $0.isRowBound })
    }
}
