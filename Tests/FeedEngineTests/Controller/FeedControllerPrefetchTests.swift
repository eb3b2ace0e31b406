import FeedEngine
import FeedModel
import Testing

/// `--prefetch items:N` against Paging 3's own rule and tests.
///
/// Paging 3 (androidx paging-common, `PageFetcherSnapshot.nextLoadKeyOrNull`) loads while
/// `presentedItemsBeyondAnchor < prefetchDistance`: the items after the last accessed one, plus those
/// loaded since for the same hint. The scenarios below are the ones of `PageFetcherSnapshotTest`
/// (`loadStates_appendDone`, `rapidViewportHints`, `prependMultiplePages` read as appends), with the
/// same page sizes, initial loads and distances, and the load counts Paging 3's expected events list.
@Suite struct FeedControllerPrefetchTests {
    /// A controller with `pageSize` items a page, `initialPages` pages in Init and `.items(distance)`,
    /// after Init answered with the newest items of `feed`.
    static func loaded(
        _ feed: ControllerTestFeed, pageSize: Int, initialPages: Int, distance: Int
    ) throws -> FeedController {
        var controller = try FeedController(
            configuration: .init(pageSize: pageSize, initialLoadPages: initialPages, prefetchDistance: .items(distance)))
        let initial = try #require(onlyFetch(controller.start(now: 0)))
        _ = controller.pageArrived(initial, page: feed.newest(limit: initial.limit), now: 10)
        return controller
    }

    /// A tall viewport (no short-content rule) whose last visible item is `last`, of `count` loaded.
    static func at(last: Int, count: Int) -> FeedController.Viewport {
        .init(
            contentOffset: 0, viewportLength: 100, contentLength: Double(count) * 1000, firstVisibleIndex: max(0, last - 1),
            lastVisibleIndex: last)
    }

    /// Runs every fetch a viewport report asks for, answering each from `feed` and reporting the same
    /// viewport again after each page (the viewport rests): returns how many More pages were loaded.
    static func settle(
        _ controller: inout FeedController, _ feed: ControllerTestFeed, last: Int, now: Double = 100
    ) -> Int {
        var loaded = 0
        var actions = controller.viewportChanged(at(last: last, count: controller.items.count), now: now)
        while let request = onlyFetch(actions), request.kind == .more {
            guard case .after(let cursor) = request.query else { return loaded }
            _ = controller.pageArrived(request, page: feed.after(cursor, limit: request.limit), now: now + 1)
            loaded += 1
            actions = controller.viewportChanged(at(last: last, count: controller.items.count), now: now + 2)
        }
        return loaded
    }

    @Test func accessOfTheLastItemLoadsOnePageAndThePageThatLandsDoesNotFireAnother() throws {
        // PageFetcherSnapshotTest.loadStates_appendDone: pageSize 1, prefetchDistance 1, initialLoadSize 2;
        // access of the second item (presentedItemsAfter 0 < 1) appends one page, then 0 + 1 ≥ 1 stops.
        let feed = ControllerTestFeed(items: controllerTestItems(100, through: 1))
        var controller = try Self.loaded(feed, pageSize: 1, initialPages: 2, distance: 1)
        #expect(Self.settle(&controller, feed, last: 0) == 0)  // presentedItemsAfter 1, not < 1
        #expect(Self.settle(&controller, feed, last: 1) == 1)
        #expect(controller.items.count == 3)
        #expect(controller.loadState(.bottom) == .idle)
    }

    @Test func restingViewportKeepsLoadingWhileFewerThanTheDistanceRemain() throws {
        // PageFetcherSnapshotTest.prependMultiplePages, as appends: pageSize 1, prefetchDistance 2,
        // initialLoadSize 3; access of the edge item loads two pages (0 < 2, 0 + 1 < 2, 0 + 2 stops).
        let feed = ControllerTestFeed(items: controllerTestItems(100, through: 1))
        var controller = try Self.loaded(feed, pageSize: 1, initialPages: 3, distance: 2)
        #expect(Self.settle(&controller, feed, last: 2) == 2)
        #expect(controller.items.map(\.id) == [100, 99, 98, 97, 96])
    }

    @Test func moreFiresWhenFewerThanTheDistanceRemainNotAtTheDistance() throws {
        // PageFetcherSnapshotTest.rapidViewportHints: pageSize 10, prefetchDistance 5, initialLoadSize 10;
        // hints at positions 0...9 give exactly one append. Position 4 leaves 5 items after it
        // (5 < 5 is false); position 5 leaves 4 (< 5): the first that loads.
        let feed = ControllerTestFeed(items: controllerTestItems(100, through: 1))
        var controller = try Self.loaded(feed, pageSize: 10, initialPages: 1, distance: 5)
        for position in 0...4 { #expect(Self.settle(&controller, feed, last: position) == 0) }
        #expect(Self.settle(&controller, feed, last: 5) == 1)
        for position in 6...9 { #expect(Self.settle(&controller, feed, last: position) == 0) }
        #expect(controller.items.count == 20)
    }

    @Test func aJumpNearTheEndLoadsByTheSameRule() throws {
        // 30 loaded (3 pages of 10), distance 5: a jump from item 0 to item 24 leaves 5 below (no
        // load); a jump to 25 leaves 4 (< 5): one page, after which 14 remain (no second).
        let feed = ControllerTestFeed(items: controllerTestItems(100, through: 1))
        var controller = try Self.loaded(feed, pageSize: 10, initialPages: 3, distance: 5)
        #expect(Self.settle(&controller, feed, last: 0) == 0)
        #expect(Self.settle(&controller, feed, last: 24) == 0)
        #expect(Self.settle(&controller, feed, last: 25) == 1)
        #expect(controller.items.count == 40)
        // A jump straight to the new last item: 0 below, one more page (10 below then).
        #expect(Self.settle(&controller, feed, last: 39) == 1)
        #expect(controller.items.count == 50)
    }

    @Test func distanceLargerThanAPageLoadsUntilTheDistanceIsFilled() throws {
        // pageSize 2, distance 5, last visible 5 of 6 at rest: 0, 2, 4 below load; 6 stops: 3 pages.
        let feed = ControllerTestFeed(items: controllerTestItems(100, through: 1))
        var controller = try Self.loaded(feed, pageSize: 2, initialPages: 3, distance: 5)
        #expect(Self.settle(&controller, feed, last: 5) == 3)
        #expect(controller.items.count == 12)
    }

    @Test func zeroItemsIsRejectedAsPagingThreeRejectsIt() {
        // PagingConfig: "either placeholders must be enabled, or prefetch distance must be > 0".
        #expect(throws: FeedController.ConfigurationError.self) {
            try FeedController(configuration: .init(pageSize: 5, prefetchDistance: .items(0)))
        }
    }

    @Test func screenfulsFollowTexturesLeadingScreensRule() throws {
        // ASDisplayShouldFetchBatchForContext: remaining = contentLength − viewLength − offset; fetch when
        // remaining ≤ viewLength × leadingScreens. 600 pt content, 200 pt viewport, 1 screen: offset 199
        // leaves 201 > 200 (no fetch), offset 200 leaves 200 ≤ 200 (fetch).
        let feed = ControllerTestFeed(items: controllerTestItems(100, through: 1))
        var controller = try FeedController(configuration: .init(pageSize: 2, prefetchDistance: .screenfuls(1)))
        let initial = try #require(onlyFetch(controller.start(now: 0)))
        _ = controller.pageArrived(initial, page: feed.newest(limit: initial.limit), now: 10)
        func at(_ offset: Double) -> FeedController.Viewport {
            .init(contentOffset: offset, viewportLength: 200, contentLength: 600, firstVisibleIndex: 1, lastVisibleIndex: 3)
        }
        #expect(controller.viewportChanged(at(199), now: 20) == [])
        #expect(onlyFetch(controller.viewportChanged(at(200), now: 21))?.kind == .more)
    }
}
