import FeedEngine
import FeedLayout
import FeedModel
import FeedStore
import Testing

/// Refresh, gap-fill and prepends against a database file that a second connection writes to.
///
/// The feed: 100 items (ids from 1…1000, 40 distinct seconds after the base). New items are
/// published 100 s after the base or later, so they are newer than every seeded one; their ids come
/// from 2001…3000 and they share 2 distinct times, so ties at the head are broken by id.
@Suite struct EngineWithStoreRefreshTests {
    /// A reader fixture (the controller's connection) and a writer connection on the same file.
    struct TwoConnections {
        var fixture: StoreFeedFixture
        let writer: ItemStore
        let directory: EngineTemporaryDirectory
        let old: [Item]

        init(seed: UInt64) throws {
            directory = try EngineTemporaryDirectory()
            fixture = try StoreFeedFixture(store: try ItemStore(path: directory.databasePath))
            writer = try ItemStore(path: directory.databasePath)
            var rng = SplitMix64(seed: seed)
            try fixture.insert(StoreItems.make(count: 100, ids: 1...1000, distinctTimes: 40, rng: &rng))
            old = fixture.feedOrder
        }

        /// Inserts `count` items newer than every seeded one through the writer connection.
        /// - Returns: them, in feed order by a plain sort.
        mutating func insertNewer(_ count: Int, seed: UInt64) throws -> [NewItem] {
            var rng = SplitMix64(seed: seed)
            let added = StoreItems.make(
                count: count, ids: 2001...3000, distinctTimes: 2, start: StoreItems.base + 100_000, rng: &rng)
            try fixture.insert(added, through: writer)
            return added
        }
    }

    /// Sum of the heights plus one 8 pt gap per item: what a list with 8 pt spacing grows by when
    /// these rows are inserted above a row.
    static func listGrowth(_ items: [NewItem]) -> Double {
        items.reduce(0) { $0 + $1.height + 8 }
    }

    @Test func insertsBetweenPagesLeaveMoreAloneAndRefreshPrependsExactlyThemAnchored() throws {
        var db = try TwoConnections(seed: 11)
        defer { db.directory.cleanUp() }
        let feed = try StoreDrivenFeed(
            source: db.fixture.source, configuration: .init(pageSize: 20), layout: .storeTestList,
            viewport: storeTestViewport)
        try feed.start()
        try feed.settle()
        try feed.scroll(to: feed.maxOffset)
        #expect(feed.queue.map(\.kind) == [.more])

        // Another connection publishes 5 items at the head while More is in flight.
        let added = try db.insertNewer(5, seed: 12)
        try feed.scroll(to: 1000)
        let more = try feed.answerNext()
        #expect(more.items == Array(db.old[60..<80]))
        #expect(feed.controller.items == Array(db.old.prefix(80)))
        #expect(feed.queue.isEmpty)

        // A Refresh while scrolled (as an app returning to the foreground does): the 5 new items,
        // and only they, go on top; the item on screen stays where it is.
        let anchor = try #require(feed.anchorOnScreen())
        #expect(feed.contentOffset.y == 1000)
        try feed.pull(distance: 60)
        try feed.settle()
        let newOrder = StoreFeedFixture.feedOrder(added)
        #expect(feed.fetches.last?.kind == .refresh)
        #expect(feed.fetches.last?.query == .newest)
        #expect(feed.changes.last?.change == .prepend(newOrder))
        #expect(feed.controller.items == newOrder + db.old.prefix(80))
        #expect(feed.controller.items == Array(db.fixture.feedOrder.prefix(85)))
        #expect(feed.changes.last?.outcome.rule == .anchored)
        #expect(feed.changes.last?.outcome.adjustment == Self.listGrowth(added))
        #expect(feed.contentOffset.y == 1000 + Self.listGrowth(added))
        #expect(feed.screenY(of: anchor.id) == anchor.screenY)
        #expect(feed.changes.last?.drift == 0)
        #expect(feed.changes.last?.movedVisibleItemIDs == [])
        #expect(feed.controller.loadState(.top) == .endReached)
        #expect(feed.controller.counters.gapFillPages == 0)

        // More carries on from where it was: the whole feed, new items included, once each.
        try feed.walkToEnd()
        #expect(feed.controller.items == db.fixture.feedOrder)
    }

    /// Grid of 4 columns, rows 90 + 12 = 102 pt apart. The anchor is the first item of the first
    /// fully visible row (column 0). 8 new items are 2 whole rows: everything moves down 204 pt
    /// and the offset follows, so nothing moves on screen. 5 new items move the anchor (column 0)
    /// to column 1 of the next row: the offset moves 102 pt and the anchor keeps its y, but the
    /// other items shift by a column — a grid cannot insert a part-row above without that.
    @Test(arguments: [(8, 204.0, true), (5, 102.0, false)])
    func refreshInAGridAnchorsTheFirstFullyVisibleRow(count: Int, adjustment: Double, nothingMoves: Bool) throws {
        var db = try TwoConnections(seed: 21)
        defer { db.directory.cleanUp() }
        let feed = try StoreDrivenFeed(
            source: db.fixture.source, configuration: .init(pageSize: 20), layout: .storeTestGrid,
            viewport: storeTestViewport)
        try feed.start()
        try feed.settle()
        // Row r spans 30 + 102r ..< +90. At 500 pt (500 ..< 1300) row 4 (438 ..< 528) is cut and
        // row 5 (540 ..< 630) is the first fully visible one: item 20, 40 pt below the top edge.
        // The last visible row is 12 (1254 < 1300), item 51: 59 − 51 ≤ 20, so one More (to 80).
        try feed.scroll(to: 500)
        #expect(feed.queue.map(\.kind) == [.more])
        try feed.settle()
        #expect(feed.controller.items.count == 80)
        let anchor = try #require(feed.anchorOnScreen())
        #expect(anchor.id == db.old[20].id)
        #expect(anchor.screenY == 40)

        let added = try db.insertNewer(count, seed: 22)
        try feed.pull(distance: 80)
        try feed.settle()
        #expect(feed.changes.last?.change == .prepend(StoreFeedFixture.feedOrder(added)))
        #expect(feed.changes.last?.outcome.adjustment == adjustment)
        #expect(feed.screenY(of: anchor.id) == 40)
        #expect(feed.changes.last?.drift == 0)
        #expect(feed.changes.last?.movedVisibleItemIDs.isEmpty == nothingMoves)
    }

    /// Page size 20, `maxGapPages` 3. With N new items the Refresh's newest page holds new[0..<20];
    /// gap-fill page k (before the last filled item) holds new[N − 20k ..< N − 20(k − 1)]. The gap
    /// closes when a page reaches new[19]: N − 20k ≤ 19. Within 3 pages: N ≤ 79. At N = 80 the
    /// third page stops at new[20] and the list is replaced by new[0..<20].
    @Test(arguments: [79, 80])
    func aRefreshGapLargerThanMaxGapPagesReplacesTheList(newCount: Int) throws {
        var db = try TwoConnections(seed: 31)
        defer { db.directory.cleanUp() }
        let feed = try StoreDrivenFeed(
            source: db.fixture.source, configuration: .init(pageSize: 20, maxGapPages: 3), layout: .storeTestList,
            viewport: storeTestViewport)
        try feed.start()
        try feed.settle()
        try feed.scroll(to: 1000)
        #expect(feed.queue.isEmpty)
        let anchor = try #require(feed.anchorOnScreen())

        let added = try db.insertNewer(newCount, seed: 32)
        let new = StoreFeedFixture.feedOrder(added)
        try feed.pull(distance: 60)
        try feed.settle()

        let refreshAndGap = Array(feed.fetches[1..<5])
        #expect(refreshAndGap.map(\.kind) == [.refresh, .gapFill, .gapFill, .gapFill])
        #expect(
            refreshAndGap.map(\.query) == [
                .newest, .before(db.old[0].cursor), .before(new[newCount - 20].cursor),
                .before(new[newCount - 40].cursor),
            ])
        #expect(feed.controller.counters.gapFillPages == 3)
        if newCount == 79 {
            #expect(feed.controller.counters.replacements == 0)
            #expect(feed.changes.last?.change == .prepend(new))
            #expect(feed.controller.items == new + db.old.prefix(60))
            #expect(feed.changes.last?.outcome.adjustment == Self.listGrowth(added))
            #expect(feed.screenY(of: anchor.id) == anchor.screenY)
            #expect(feed.fetches.count == 5)
            #expect(feed.controller.generation == 1)
        } else {
            #expect(feed.controller.counters.replacements == 1)
            let replacements = feed.changes.filter { $0.change == .replace(Array(new.prefix(20))) }
            #expect(replacements.count == 1)
            #expect(replacements.first?.outcome.rule == .reset)
            #expect(replacements.first?.outcome.contentOffset == .zero)
            // Refresh and replacement each start a generation: 0 → 1 → 2.
            #expect(feed.controller.generation == 2)
            #expect(feed.screenY(of: anchor.id) == nil)
            // Replaced, back at the top; More then walks the whole feed: new items, then old ones.
            try feed.walkToEnd()
            #expect(feed.controller.items == new + db.old)
            #expect(feed.controller.items == db.fixture.feedOrder)
        }
    }

    @Test func upstreamInsertsWaitForARefreshWhichPrependsThemAnchored() throws {
        var db = try TwoConnections(seed: 41)
        defer { db.directory.cleanUp() }
        let feed = try StoreDrivenFeed(
            source: db.fixture.source, configuration: .init(pageSize: 20), layout: .storeTestList,
            viewport: storeTestViewport)
        try feed.start()
        try feed.settle()
        // Rows are 40–120 pt + 8 pt apart, row i starts at ≥ 50 + 48i: at 600 pt row 0 (50 ..< ≤ 170)
        // is off screen (no "at the top" rule).
        try feed.scroll(to: 600)
        let anchor = try #require(feed.anchorOnScreen())
        let added = try db.insertNewer(3, seed: 42)
        // Inserts upstream only count toward a "new posts" pill: nothing is loaded unasked.
        try feed.upstreamInserted(3)
        #expect(feed.queue.isEmpty)
        #expect(feed.controller.newerItemsAvailable == 3)
        // A pull refreshes: newest(20) reaches the old first item, so the 3 new ones are merged
        // above it, anchored (the user is not at the very top).
        try feed.pull(distance: 60)
        #expect(feed.queue.map(\.kind) == [.refresh])
        try feed.settle()
        #expect(feed.changes.last?.change == .prepend(StoreFeedFixture.feedOrder(added)))
        #expect(feed.changes.last?.outcome.adjustment == Self.listGrowth(added))
        #expect(feed.screenY(of: anchor.id) == anchor.screenY)
        #expect(feed.changes.last?.movedVisibleItemIDs == [])
        #expect(feed.controller.newerItemsAvailable == 0)
    }
}
