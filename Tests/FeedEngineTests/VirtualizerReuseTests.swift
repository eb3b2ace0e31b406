import FeedLayout
import FeedModel
import Testing

@testable import FeedEngine

@Suite struct VirtualizerReuseTests {
    /// Viewport only (no overscan), rows out of the way: cells exactly for the viewport.
    static let cellsOnly = RangeConfiguration(prefetch: .viewportOnly, preload: .viewportOnly)

    private func counts(_ u: VirtualizerUpdate) -> [Int] {
        [u.cellsCreated, u.cellsReused, u.cellsRecycled, u.cellsDiscarded]
    }

    @Test func scrollingOneItemRecyclesTheLeavingCellIntoTheEnteringItem() throws {
        let viewport = Size(width: 320, height: 300)
        let layout = VirtualizerTestLayout.list(heights: Array(repeating: 100, count: 20), viewport: viewport)
        let v = try Virtualizer(layout: layout, configuration: Self.cellsOnly)
        let items = virtualizerTestItems(count: 20)

        // 0..<300 holds items 0, 1, 2 (item 3 starts at 300: half-open, not visible).
        let first = v.update(contentOffset: .zero, viewport: viewport, items: items)
        #expect(counts(first) == [3, 0, 0, 0])
        #expect(first.enteredItemIDs == [1000, 1001, 1002])

        // 100..<400: item 0 leaves, item 3 enters and takes its cell.
        let cellOfItem0 = v.cell(forItem: 1000)!.id
        let second = v.update(contentOffset: Point(x: 0, y: 100), viewport: viewport, items: items)
        #expect(counts(second) == [0, 1, 1, 0])
        #expect(second.leftItemIDs == [1000])
        #expect(v.cell(forItem: 1003)?.id == cellOfItem0)
        #expect(v.cell(forItem: 1000) == nil)

        // Jump to 1000..<1300: items 1, 2, 3 leave, 10, 11, 12 enter, all from the pool.
        let third = v.update(contentOffset: Point(x: 0, y: 1000), viewport: viewport, items: items)
        #expect(counts(third) == [0, 3, 3, 0])
        #expect(v.counters.cellsCreated == 3)
        #expect(v.maxLiveCells == 3)
    }

    @Test func poolOverItsLimitDiscardsAndOtherKindsGetNewCells() throws {
        let viewport = Size(width: 320, height: 300)
        let layout = VirtualizerTestLayout.list(heights: Array(repeating: 100, count: 20), viewport: viewport)
        let v = try Virtualizer(layout: layout, configuration: Self.cellsOnly, reusePoolLimit: 1)
        let items = virtualizerTestItems(count: 20) { $0 < 10 ? "photo" : "ad" }

        #expect(counts(v.update(contentOffset: .zero, viewport: viewport, items: items)) == [3, 0, 0, 0])
        // To items 10–12 ("ad"): 3 photo cells recycled; no ad cell pooled, so 3 created; the
        // photo pool holds 3 > 1, so 2 are discarded.
        let toAds = v.update(contentOffset: Point(x: 0, y: 1000), viewport: viewport, items: items)
        #expect(counts(toAds) == [3, 0, 3, 2])
        #expect(v.pooledCellCounts == ["photo": 1])
        // Back to items 0–2: 3 ad cells recycled; 1 photo cell reused, 2 created; ad pool 3 → 1.
        let back = v.update(contentOffset: .zero, viewport: viewport, items: items)
        #expect(counts(back) == [2, 1, 3, 2])
        #expect(v.pooledCellCounts == ["ad": 1])
        // Every cell ever made is live, pooled or discarded: created 3 + 3 + 2 = 8 = live 3 +
        // pooled 1 + discarded (2 + 2).
        #expect(v.counters.cellsCreated == 8)
        #expect(v.counters.cellsDiscarded == 4)
        #expect(v.liveCellCount + v.pooledCellCount == 4)
        for cell in v.liveCells {
            #expect(cell.kind == items.first { $0.id == cell.itemID }!.kind)
        }
    }

    @Test func defaultPoolKeepsFiveCellsPerKindLikeRecyclerView() throws {
        let viewport = Size(width: 320, height: 800)
        let layout = VirtualizerTestLayout.list(heights: Array(repeating: 100, count: 40), viewport: viewport)
        let v = try Virtualizer(layout: layout, configuration: Self.cellsOnly)
        let items = virtualizerTestItems(count: 40) { $0 < 20 ? "photo" : "text" }
        #expect(v.reusePoolLimit == 5)
        _ = v.update(contentOffset: .zero, viewport: viewport, items: items)  // 8 photo cells
        let jump = v.update(contentOffset: Point(x: 0, y: 3000), viewport: viewport, items: items)
        // 8 photo cells recycled, 8 text cells created, photo pool 8 → 5: 3 discarded.
        #expect(counts(jump) == [8, 0, 8, 3])
        #expect(v.pooledCellCounts == ["photo": 5])
    }

    @Test func presetsCarryTheirFrameworksPoolPolicy() {
        // UIKit: dequeueReusableCell creates a cell only when none is queued; no cap is documented.
        #expect(RangeConfiguration.uikit.reusePoolLimit == nil)
        // Texture: ASCollectionView's cells go through UIKit's queues.
        #expect(RangeConfiguration.texture.reusePoolLimit == nil)
        // RecyclerView: RecycledViewPool.DEFAULT_MAX_SCRAP = 5 per view type.
        #expect(RangeConfiguration.paging3.reusePoolLimit == 5)
        #expect(RangeConfiguration.paging3(pageSize: 40).reusePoolLimit == 5)
        // react-window: elements keyed by index are unmounted and mounted, never recycled.
        #expect(RangeConfiguration.reactWindow.reusePoolLimit == 0)
        // FlashList v1 (recyclerlistview's RecycleItemPool): a set per type, no cap.
        #expect(RangeConfiguration.flashlist.reusePoolLimit == nil)
        #expect(RangeConfiguration.uikit.reusePoolDescription == "unbounded")
        #expect(RangeConfiguration.paging3.reusePoolDescription == "5/kind")
        #expect(RangeConfiguration.reactWindow.reusePoolDescription == "none")
    }

    /// The jump of `defaultPoolKeepsFiveCellsPerKindLikeRecyclerView` and back, under each policy:
    /// 8 photo cells at the top, a jump to 8 text items, and back to the 8 photos.
    @Test(arguments: [
        // UIKit keeps all 8 photo cells: back at the top all 8 are reused. Created 8 + 8.
        (RangeConfiguration.uikit, 16, 8, ["photo": 0, "text": 8]),
        // RecyclerView keeps 5: 5 reused, 3 created on the way back. Created 8 + 8 + 3.
        (RangeConfiguration.paging3, 19, 5, ["photo": 0, "text": 5]),
        // react-window recycles nothing: every entering item is new. Created 8 + 8 + 8.
        (RangeConfiguration.reactWindow, 24, 0, ["photo": 0, "text": 0]),
    ])
    func poolPolicyDecidesHowManyCellsAJumpBackCreates(
        preset: RangeConfiguration, created: Int, reused: Int, pooledAfter: [String: Int]
    ) throws {
        let viewport = Size(width: 320, height: 800)
        let layout = VirtualizerTestLayout.list(heights: Array(repeating: 100, count: 40), viewport: viewport)
        let configuration = RangeConfiguration(
            name: preset.name, prefetch: .viewportOnly, preload: .viewportOnly, reusePoolLimit: preset.reusePoolLimit)
        let v = try Virtualizer(layout: layout, configuration: configuration)
        let items = virtualizerTestItems(count: 40) { $0 < 20 ? "photo" : "text" }
        _ = v.update(contentOffset: .zero, viewport: viewport, items: items)
        _ = v.update(contentOffset: Point(x: 0, y: 3000), viewport: viewport, items: items)
        _ = v.update(contentOffset: .zero, viewport: viewport, items: items)
        #expect(v.counters.cellsCreated == created)
        #expect(v.counters.cellsReused == reused)
        #expect(v.counters.cellsByKind["photo"] == .init(created: created - 8, reused: reused))
        #expect(v.counters.cellsByKind["text"] == .init(created: 8, reused: 0))
        #expect(pooledAfter.allSatisfy { v.pooledCellCounts[$0.key, default: 0] == $0.value })
    }

    @Test func prependShiftsIndexPathsButKeepsEveryCell() throws {
        let viewport = Size(width: 320, height: 300)
        let layout = VirtualizerTestLayout.list(heights: Array(repeating: 100, count: 10), viewport: viewport)
        let v = try Virtualizer(layout: layout, configuration: Self.cellsOnly)
        var items = virtualizerTestItems(count: 10)
        _ = v.update(contentOffset: .zero, viewport: viewport, items: items)
        let cellIDs = v.liveCells.map(\.id)

        // Refresh prepends 5 newer items of 100 pt; scroll anchoring moves the offset by 500.
        let newer = (1...5).map {
            Item(id: Int64(2000 + $0), publishedAt: 20_000, kind: "post", width: 320, height: 100)
        }
        items = newer + items
        layout.prepend(sizes: newer.map { _ in Size(width: 320, height: 100) })
        let update = v.update(contentOffset: Point(x: 0, y: 500), viewport: viewport, items: items)
        #expect(counts(update) == [0, 0, 0, 0])
        #expect(v.liveCells.map(\.id) == cellIDs)
        #expect(v.liveCells.map(\.indexPath) == [5, 6, 7].map { IndexPath(item: $0) })
    }

    @Test func anItemThatChangesKindGetsACellOfItsNewKind() throws {
        let viewport = Size(width: 320, height: 100)
        let layout = VirtualizerTestLayout.list(heights: [100, 100], viewport: viewport)
        let v = try Virtualizer(layout: layout, configuration: Self.cellsOnly)
        var items = virtualizerTestItems(count: 2)
        _ = v.update(contentOffset: .zero, viewport: viewport, items: items)
        items[0].kind = "ad"
        let update = v.update(contentOffset: .zero, viewport: viewport, items: items)
        // The "post" cell is recycled; no "ad" cell is pooled, so one is created.
        #expect(counts(update) == [1, 0, 1, 0])
        #expect(v.cell(forItem: 1000)?.kind == "ad")
        #expect(v.pooledCellCounts == ["post": 1])
    }

    @Test func headersInTheRangeAreTrackedButTakeNoCell() throws {
        let viewport = Size(width: 320, height: 100)
        let layout = VirtualizerTestLayout.list(heights: [100, 100, 100], viewport: viewport, headerHeight: 50)
        let v = try Virtualizer(layout: layout, configuration: Self.cellsOnly)
        let items = virtualizerTestItems(count: 3)
        // 0..<100: header (0..50) and item 0 (50..150).
        let update = v.update(contentOffset: .zero, viewport: viewport, items: items)
        #expect(update.cellsCreated == 1)
        #expect(v.liveSupplementaryViews == [.header])
        #expect(v.visibleElements.map(\.attributes.category) == [.supplementary(.header), .cell])
        _ = v.update(contentOffset: Point(x: 0, y: 60), viewport: viewport, items: items)
        #expect(v.liveSupplementaryViews.isEmpty)
    }
}
