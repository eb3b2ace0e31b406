import FeedEngine
import FeedLayout
import FeedModel
import FeedStore
import Testing

/// Page dropping (`maxLoadedItems`) on real layouts, the store serving the pages that come back.
@Suite struct EngineWithStoreDroppingTests {
    /// 257 items of 100 pt at 50 distinct times.
    static func seededFixed() throws -> StoreFeedFixture {
        var fixture = try StoreFeedFixture(store: try .inMemory())
        var rng = SplitMix64(seed: 100)
        try fixture.insert(
            StoreItems.make(count: 257, ids: 1...10_000, distinctTimes: 50, rng: &rng, fixedHeight: 100))
        return fixture
    }

    /// A plain list (no header, insets or spacing): item i spans 100i ..< 100(i + 1), so a 800 pt
    /// viewport at offset y shows items ⌊y / 100⌋ … ⌈(y + 800) / 100⌉ − 1. Pages of 20, Init 60,
    /// prefetch 20 items, at most 100 loaded.
    @Test func droppingAndReloadingPagesMovesNothingOnScreenInAList() throws {
        let fixture = try Self.seededFixed()
        let oracle = fixture.feedOrder
        let feed = try StoreDrivenFeed(
            source: fixture.source, configuration: .init(pageSize: 20, maxLoadedItems: 100),
            layout: LayoutConfiguration(kind: .list), viewport: storeTestViewport)
        try feed.start()
        try feed.settle()
        // Paging 3's rule: More when fewer than 20 items remain below the last visible one.
        // 3300: items 33–40 visible, 59 − 40 = 19 < 20 → More (80). 5300: 53–60, 79 − 60 = 19 → More (100).
        try feed.scroll(to: 3300)
        try feed.settle()
        try feed.scroll(to: 5300)
        try feed.settle()
        #expect(feed.shown == Array(oracle.prefix(100)))
        #expect(feed.controller.counters.pagesDropped == 0)

        // 7300: items 73–80, 99 − 80 = 19 → More: 120 items > 100. The first page (items 0–19) is
        // dropped: after it the first visible item, 73 − 20 = 53, is at least 20 items from the
        // start. Item 73 stays at the top edge: the offset moves up by 20 × 100 = 2000 to 5300.
        try feed.scroll(to: 7300)
        try feed.settle()
        #expect(feed.shown == Array(oracle[20..<120]))
        #expect(feed.changes.suffix(2).map(\.change) == [.append(Array(oracle[100..<120])), .dropFirst(20)])
        #expect(feed.changes.last?.outcome.adjustment == -2000)
        #expect(feed.contentOffset.y == 5300)
        #expect(feed.screenY(of: oracle[73].id) == 0)
        #expect(feed.controller.counters.pagesDropped == 1)
        #expect(feed.controller.loadState(.top) == .idle)

        // Up to 1500: items 15–22 of the window (oracle 35–42); 15 < 20 → prepend the 20 items
        // before oracle[20]. Oracle[35] (fully visible at the top edge) moves from index 15 to 35:
        // offset + 2000 = 3500. 120 > 100: the last page (oracle 100–119) is dropped, since
        // 100 − 1 − 42 = 57 ≥ 20 items remain below the last visible one.
        try feed.scroll(to: 1500)
        #expect(feed.queue.map(\.query) == [.before(oracle[20].cursor)])
        try feed.settle()
        #expect(feed.changes.suffix(2).map(\.change) == [.prepend(Array(oracle[0..<20])), .dropLast(20)])
        #expect(feed.shown == Array(oracle.prefix(100)))
        #expect(feed.contentOffset.y == 3500)
        #expect(feed.screenY(of: oracle[35].id) == 0)
        #expect(feed.changes.suffix(2).map(\.outcome.adjustment) == [2000, 0])
        #expect(feed.controller.counters.pagesDropped == 2)
        #expect(feed.controller.loadState(.top) == .endReached)
        #expect(feed.controller.loadState(.bottom) == .idle)
        #expect(feed.changes.allSatisfy { $0.outcome.rule != .anchored || $0.movedVisibleItemIDs.isEmpty })
    }

    /// The list of `droppingAndReloadingPagesMovesNothingOnScreenInAList`, scrolled down until
    /// three pages were dropped, then flung to the top of the loaded window (offset 0) before the
    /// dropped pages come back.
    ///
    /// 3300, 5300: Mores to 100 items. Each 7300: items 73–80 visible, More to 120, first page
    /// dropped, offset back to 5300: after three, the window is oracle[60..<160] at 5300.
    /// At 0, item 0 of the window (oracle[60]) is at the top edge and 0 < 20: prepend oracle[40..<60].
    /// Anchored, oracle[60] goes to index 20 and the offset to 2000, where it stays on screen at 0;
    /// the last page is dropped (120 > 100, 100 − 1 − 27 = 72 ≥ 20). At 2000 the first visible index
    /// is 20, not fewer than 20: done (Paging 3's rule; with the old "at most" rule a second prepend
    /// followed). Window oracle[40..<140], 3 + 1 pages dropped.
    ///
    /// Without the load kind, the restored pages were taken for new items at the head of the feed and
    /// shown at offset 0 (the at-top rule of a Refresh): oracle[60] left the screen and each restored
    /// page triggered the next, until the head of the feed.
    @Test(arguments: [true, false])
    func aFlingToTheTopOfTheLoadedWindowRestoresDroppedPagesAnchored(passesLoadKind: Bool) throws {
        let fixture = try Self.seededFixed()
        let oracle = fixture.feedOrder
        let feed = try StoreDrivenFeed(
            source: fixture.source, configuration: .init(pageSize: 20, maxLoadedItems: 100),
            layout: LayoutConfiguration(kind: .list), viewport: storeTestViewport)
        feed.passesLoadKind = passesLoadKind
        try feed.start()
        try feed.settle()
        for y in [3300.0, 5300, 7300, 7300, 7300] {
            try feed.scroll(to: y)
            try feed.settle()
        }
        #expect(feed.shown == Array(oracle[60..<160]))
        #expect(feed.contentOffset.y == 5300)

        try feed.scroll(to: 0)
        #expect(feed.queue.map(\.query) == [.before(oracle[60].cursor)])
        try feed.settle()
        if passesLoadKind {
            #expect(feed.shown == Array(oracle[40..<140]))
            #expect(feed.contentOffset.y == 2000)
            #expect(feed.screenY(of: oracle[60].id) == 0)
            #expect(feed.controller.counters.pagesDropped == 4)
            #expect(feed.changes.allSatisfy { $0.outcome.rule != .anchored || $0.movedVisibleItemIDs.isEmpty })
        } else {
            #expect(feed.shown == Array(oracle[0..<100]))
            #expect(feed.contentOffset.y == 0)
            #expect(feed.screenY(of: oracle[60].id) == 6000)
        }
    }

    /// Random scrolls (fixed seeds) over 257 items with at most 100 loaded, fetches answered at
    /// once or left in flight for a while. After every step the loaded items are one contiguous
    /// run of the store's feed order, and every anchored change moved nothing that was on screen.
    /// The grid has 4 columns and pages of 20 (5 whole rows), so a drop or prepend moves whole rows.
    @Test(arguments: [(StoreTestLayout.list, UInt64(1)), (.list, 2), (.grid, 3), (.grid, 4)])
    func randomScrollingWithPageDroppingKeepsAContiguousWindowAndMovesNothing(layout: StoreTestLayout, seed: UInt64)
        throws
    {
        var fixture = try StoreFeedFixture(store: try .inMemory())
        var rng = SplitMix64(seed: seed)
        try fixture.insert(StoreItems.make(count: 257, ids: 1...10_000, distinctTimes: 50, rng: &rng))
        let oracle = fixture.feedOrder
        let position = Dictionary(uniqueKeysWithValues: oracle.enumerated().map { ($0.element.id, $0.offset) })
        let feed = try StoreDrivenFeed(
            source: fixture.source, configuration: .init(pageSize: 20, maxLoadedItems: 100),
            layout: layout.configuration, viewport: storeTestViewport)
        try feed.start()
        try feed.settle()

        for step in 0..<80 {
            let y: Double
            if rng.next() % 4 == 0 {
                y = feed.maxOffset * rng.nextUnit()
            } else {
                y = min(feed.maxOffset, max(1, feed.contentOffset.y + (rng.nextUnit() - 0.4) * 1500))
            }
            try feed.scroll(to: y)
            if rng.next() % 10 < 7 { try feed.settle() }

            let ids = feed.shownIDs
            let start = try #require(ids.first.flatMap { position[$0] })
            #expect(ids == oracle[start..<(start + ids.count)].map(\.id), "contiguous window at step \(step)")
            #expect(ids.count <= 100 + 20, "at most one page over the limit at step \(step)")
        }
        try feed.settle()
        #expect(feed.controller.counters.pagesDropped > 0)
        #expect(feed.controller.counters.sourceFaults == 0)
        #expect(feed.changes.allSatisfy { if case .prepend = $0.change { $0.outcome.rule == .anchored } else { true } })
        for applied in feed.changes where applied.outcome.rule == .anchored {
            #expect(abs(try #require(applied.drift)) <= driftTolerance, "\(applied.change)")
            #expect(applied.movedVisibleItemIDs.isEmpty, "\(applied.change)")
        }
    }
}
