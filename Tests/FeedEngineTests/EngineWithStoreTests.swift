import FeedEngine
import FeedLayout
import FeedModel
import FeedStore
import Testing

/// Init and More through a real layout against the real SQLite store, with the oracle's feed
/// order from a plain sort of the inserted items.
@Suite struct EngineWithStoreTests {
    /// 257 items at 50 distinct times (ties everywhere), ids 1…10 000 shuffled.
    static func seeded257() throws -> StoreFeedFixture {
        var fixture = try StoreFeedFixture(store: try .inMemory())
        var rng = SplitMix64(seed: 257)
        try fixture.insert(StoreItems.make(count: 257, ids: 1...10_000, distinctTimes: 50, rng: &rng))
        return fixture
    }

    @Test(arguments: StoreTestLayout.allCases)
    func initAndMoreWalkToTheEndInTheStoresFeedOrder(layout: StoreTestLayout) throws {
        let fixture = try Self.seeded257()
        let oracle = fixture.feedOrder
        let feed = try StoreDrivenFeed(
            source: fixture.source, configuration: .init(pageSize: 20), layout: layout.configuration,
            viewport: storeTestViewport)
        try feed.start()
        try feed.settle()
        #expect(feed.shown == Array(oracle.prefix(60)))

        try feed.walkToEnd()

        #expect(feed.controller.items == oracle)
        #expect(feed.layout.itemCount == 257)
        #expect(feed.controller.loadState(.bottom) == .endReached)
        #expect(feed.controller.phase == .endOfFeed)
        // 257 = 60 (Init, 3 × 20) + 9 × 20 + 17: one Init and ten Mores, each after the last loaded item.
        let expectedQueries: [FeedController.PageQuery] =
            [.newest] + (0..<10).map { .after(oracle[59 + 20 * $0].cursor) }
        #expect(feed.fetches.map(\.query) == expectedQueries)
        #expect(feed.fetches.map(\.limit) == [60] + Array(repeating: 20, count: 10))
        #expect(feed.answered.last?.page.items.count == 17)
        #expect(feed.answered.last?.page.hasMoreAfter == false)
        #expect(feed.controller.counters.sourceFaults == 0)

        // Resting, bouncing past the end and coming back: no further More.
        for y in [feed.maxOffset, feed.maxOffset + 40, feed.maxOffset, feed.maxOffset - 300, feed.maxOffset] {
            try feed.scroll(to: y)
        }
        #expect(feed.fetches.count == 11)
        #expect(feed.queue.isEmpty)
    }

    @Test(arguments: StoreTestLayout.allCases)
    func everyAppendKeepsTheItemsOnScreenStill(layout: StoreTestLayout) throws {
        let fixture = try Self.seeded257()
        let feed = try StoreDrivenFeed(
            source: fixture.source, configuration: .init(pageSize: 20), layout: layout.configuration,
            viewport: storeTestViewport)
        try feed.start()
        try feed.settle()
        try feed.walkToEnd()
        let appends = feed.changes.filter { if case .append = $0.change { return true } else { return false } }
        #expect(appends.count == 10)
        for applied in appends {
            #expect(applied.outcome.adjustment == 0)
            #expect(applied.drift == 0)
            #expect(applied.movedVisibleItemIDs.isEmpty)
        }
    }

    /// 3 distinct times for 95 items: each tie group holds about 32 items, so page boundaries fall
    /// inside tie groups whatever the page size.
    @Test(arguments: [(StoreTestLayout.list, 7), (.list, 20), (.grid, 13)])
    func tiesInPublishedAtAcrossPageBoundariesLoseAndRepeatNothing(layout: StoreTestLayout, pageSize: Int)
        throws
    {
        var fixture = try StoreFeedFixture(store: try .inMemory())
        var rng = SplitMix64(seed: 95)
        try fixture.insert(StoreItems.make(count: 95, ids: 1...500, distinctTimes: 3, rng: &rng))
        let oracle = fixture.feedOrder
        let feed = try StoreDrivenFeed(
            source: fixture.source, configuration: .init(pageSize: pageSize, initialLoadPages: 1),
            layout: layout.configuration,
            viewport: storeTestViewport)
        try feed.start()
        try feed.settle()
        try feed.walkToEnd()

        #expect(feed.controller.items.map(\.id) == oracle.map(\.id))
        #expect(Set(feed.controller.items.map(\.id)).count == 95)
        #expect(feed.controller.counters.sourceFaults == 0)
        // 95 items in pages of `pageSize`: ⌈95 / pageSize⌉ pages (7, 20 and 13 do not divide 95, so the
        // last page is short and says nothing more: no empty page).
        #expect(feed.answered.count == (95 + pageSize - 1) / pageSize)
        // Not vacuous: some page boundary splits a tie group (same published_at either side).
        let splitTies = feed.answered.indices.dropFirst().filter { index in
            guard let previous = feed.answered[index - 1].page.items.last,
                let next = feed.answered[index].page.items.first
            else { return false }
            return previous.publishedAt == next.publishedAt
        }
        #expect(!splitTies.isEmpty)
    }

    @Test func aShortFeedLoadsWithoutScrollingAndStops() throws {
        // 5 items of 40–120 pt fill at most 600 + header of an 800 pt list: Init asks for 60, gets 5,
        // and the source says nothing more: end reached at once, no More ever.
        var fixture = try StoreFeedFixture(store: try .inMemory())
        var rng = SplitMix64(seed: 5)
        try fixture.insert(StoreItems.make(count: 5, ids: 1...100, distinctTimes: 2, rng: &rng))
        let feed = try StoreDrivenFeed(
            source: fixture.source, configuration: .init(pageSize: 20), layout: .storeTestList,
            viewport: storeTestViewport)
        try feed.start()
        try feed.settle()
        try feed.scroll(to: 0)
        try feed.scroll(to: 30)
        #expect(feed.controller.items == fixture.feedOrder)
        #expect(feed.fetches.map(\.kind) == [.initial])
        #expect(feed.controller.phase == .endOfFeed)
    }

    @Test func contentShorterThanTheViewportLoadsMoreWithoutScrolling() throws {
        // 30 items of 40 pt in pages of 4 (Init 4): 4 rows = 50 + 4·40 + 3·8 + 10 = 244 pt < 800, so
        // More fires after each page with no scrolling until the viewport is filled. Filled means
        // fewer than `prefetchDistance` (.points(0)) to the end: content ≥ 800 pt, i.e.
        // 50 + n·40 + (n − 1)·8 + 10 ≥ 800 ⇔ 48n ≥ 748 ⇔ n ≥ 16 (15.58…): 4 pages of 4 = 16 items.
        var fixture = try StoreFeedFixture(store: try .inMemory())
        var rng = SplitMix64(seed: 30)
        try fixture.insert(StoreItems.make(count: 30, ids: 1...100, distinctTimes: 30, rng: &rng, fixedHeight: 40))
        let feed = try StoreDrivenFeed(
            source: fixture.source,
            configuration: .init(pageSize: 4, initialLoadPages: 1, prefetchDistance: .points(0)),
            layout: .storeTestList, viewport: storeTestViewport)
        try feed.start()
        try feed.settle()
        #expect(feed.controller.items == Array(fixture.feedOrder.prefix(16)))
        #expect(feed.fetches.map(\.kind) == [.initial, .more, .more, .more])
        #expect(feed.contentOffset == .zero)
    }
}
