import FeedEngine
import FeedModel
import Testing

/// Step-by-step transitions: after each event the full action list and the state are asserted.
/// pageSize 2, so Init asks for 3 × 2 = 6 items; prefetch distance defaults to 2 items.
@Suite struct FeedControllerTransitionTests {
    typealias Request = FeedController.FetchRequest

    static func make(_ adjust: (inout FeedController.Configuration) -> Void = { _ in }) throws -> FeedController {
        var configuration = FeedController.Configuration(
            pageSize: 2,
            retry: .init(baseMilliseconds: 100, factor: 2, capMilliseconds: 300, maxAttempts: 3, jitter: 0, seed: 7))
        adjust(&configuration)
        return try FeedController(configuration: configuration)
    }

    /// A viewport showing items `first...last` of `count` items 100 pt tall in an 800 pt viewport.
    static func viewport(_ first: Int, _ last: Int, count: Int) -> FeedController.Viewport {
        .init(
            contentOffset: Double(first) * 100, viewportLength: 800, contentLength: Double(count) * 100,
            firstVisibleIndex: first, lastVisibleIndex: last)
    }

    /// Started and Init answered with the newest 6 of `feed`.
    static func loaded(_ feed: ControllerTestFeed, _ adjust: (inout FeedController.Configuration) -> Void = { _ in })
        throws -> FeedController
    {
        var controller = try make(adjust)
        let initial = try #require(onlyFetch(controller.start(now: 0)))
        _ = controller.pageArrived(initial, page: feed.newest(limit: initial.limit), now: 10)
        return controller
    }

    @Test func startRequestsThreePagesOfTheNewestItems() throws {
        var controller = try Self.make()
        let initial = Request.expected(1, .top, .initial, .newest, limit: 6)
        #expect(controller.start(now: 0) == [.fetch(initial), .phaseChanged(from: .idle, to: .initial)])
        #expect(controller.phase == .initial)
        #expect(controller.loadState(.top) == .loading(initial))
        #expect(controller.loadState(.bottom) == .idle)
        #expect(controller.inFlightCount == 1)
        #expect(controller.start(now: 1) == [])
    }

    @Test func initPageReplacesTheListAndLeavesTheBottomLoadable() throws {
        let feed = ControllerTestFeed(items: controllerTestItems(20, through: 1))
        var controller = try Self.make()
        _ = controller.start(now: 0)
        let initial = Request.expected(1, .top, .initial, .newest, limit: 6)
        let page = Page(items: controllerTestItems(20, through: 15), hasMoreBefore: false, hasMoreAfter: true)
        #expect(feed.newest(limit: 6) == page)
        #expect(
            controller.pageArrived(initial, page: page, now: 5)
                == [.apply(.replace(controllerTestItems(20, through: 15))), .phaseChanged(from: .initial, to: .idle)])
        #expect(controller.items.map(\.id) == [20, 19, 18, 17, 16, 15])
        #expect(controller.loadState(.top) == .endReached)
        #expect(controller.loadState(.bottom) == .idle)
        #expect(controller.counters.initialPages == 1)
        #expect(controller.inFlightCount == 0)
    }

    @Test func shortContentFiresMoreWithoutScrollingAndCoalescesRepeatedTriggers() throws {
        let feed = ControllerTestFeed(items: controllerTestItems(20, through: 1))
        var controller = try Self.loaded(feed)
        // 6 items × 100 pt = 600 pt of content in an 800 pt viewport: all 6 visible, 6 − 1 − 5 = 0 < 2 items.
        let more = Request.expected(2, .bottom, .more, .after(controllerTestItem(15).cursor), limit: 2)
        let shortViewport = FeedController.Viewport(
            contentOffset: 0, viewportLength: 800, contentLength: 600, firstVisibleIndex: 0, lastVisibleIndex: 5)
        #expect(
            controller.viewportChanged(shortViewport, now: 20) == [.fetch(more), .phaseChanged(from: .idle, to: .more)])
        #expect(controller.viewportChanged(shortViewport, now: 21) == [])
        #expect(controller.inFlightCount == 1)
        #expect(
            controller.pageArrived(more, page: feed.after(controllerTestItem(15).cursor, limit: 2), now: 30)
                == [.apply(.append(controllerTestItems(14, through: 13))), .phaseChanged(from: .more, to: .idle)])
        // Still short (800 pt of content, all 8 visible): the report after the apply fires the next More.
        let next = Request.expected(3, .bottom, .more, .after(controllerTestItem(13).cursor), limit: 2)
        #expect(
            controller.viewportChanged(Self.viewport(0, 7, count: 8), now: 31)
                == [.fetch(next), .phaseChanged(from: .idle, to: .more)])
    }

    @Test func moreFiresAtThePrefetchDistanceAndNotBefore() throws {
        let feed = ControllerTestFeed(items: controllerTestItems(20, through: 1))
        var controller = try Self.loaded(feed)
        // Paging 3's rule (PageFetcherSnapshot): a load when fewer than prefetchDistance items remain.
        // Last visible 2 of 6: 6 − 1 − 2 = 3 items below; last visible 3: 2 below, not fewer than 2.
        #expect(controller.viewportChanged(Self.viewport(0, 2, count: 6), now: 20) == [])
        #expect(controller.viewportChanged(Self.viewport(0, 3, count: 6), now: 21) == [])
        // Last visible 4: 6 − 1 − 4 = 1 < 2.
        let more = Request.expected(2, .bottom, .more, .after(controllerTestItem(15).cursor), limit: 2)
        #expect(
            controller.viewportChanged(Self.viewport(0, 4, count: 6), now: 22)
                == [.fetch(more), .phaseChanged(from: .idle, to: .more)])
    }

    @Test func prefetchDistanceInPointsComparesTheDistanceToTheEnd() throws {
        let feed = ControllerTestFeed(items: controllerTestItems(20, through: 1))
        var controller = try Self.loaded(feed) { $0.prefetchDistance = .points(300) }
        func at(_ offset: Double) -> FeedController.Viewport {
            .init(contentOffset: offset, viewportLength: 250, contentLength: 600, firstVisibleIndex: 0, lastVisibleIndex: 0)
        }
        // 600 − (40 + 250) = 310 > 300.
        #expect(controller.viewportChanged(at(40), now: 20) == [])
        // 600 − (50 + 250) = 300 ≤ 300.
        let more = Request.expected(2, .bottom, .more, .after(controllerTestItem(15).cursor), limit: 2)
        #expect(controller.viewportChanged(at(50), now: 21) == [.fetch(more), .phaseChanged(from: .idle, to: .more)])
    }

    @Test func endOfFeedStopsMoreAndBouncesRequestNothing() throws {
        let feed = ControllerTestFeed(items: controllerTestItems(7, through: 1))
        var controller = try Self.loaded(feed)
        let more = try #require(onlyFetch(controller.viewportChanged(Self.viewport(0, 5, count: 6), now: 20)))
        let last = feed.after(controllerTestItem(2).cursor, limit: 2)
        #expect(last == Page(items: [controllerTestItem(1)], hasMoreBefore: true, hasMoreAfter: false))
        #expect(
            controller.pageArrived(more, page: last, now: 30)
                == [.apply(.append([controllerTestItem(1)])), .phaseChanged(from: .more, to: .endOfFeed)])
        #expect(controller.loadState(.bottom) == .endReached)
        for bounce in 0..<3 {
            #expect(controller.viewportChanged(Self.viewport(0, 6, count: 7), now: 40 + Double(bounce)) == [])
        }
        #expect(controller.inFlightCount == 0)
    }

    @Test func emptyPageClaimingMoreIsTheEndAndASourceFault() throws {
        let feed = ControllerTestFeed(items: controllerTestItems(20, through: 1))
        var controller = try Self.loaded(feed)
        let more = try #require(onlyFetch(controller.viewportChanged(Self.viewport(0, 5, count: 6), now: 20)))
        let liar = Page(items: [], hasMoreBefore: true, hasMoreAfter: true)
        #expect(controller.pageArrived(more, page: liar, now: 30) == [.phaseChanged(from: .more, to: .endOfFeed)])
        #expect(controller.counters.sourceFaults == 1)
        #expect(controller.items.count == 6)
        #expect(controller.viewportChanged(Self.viewport(0, 5, count: 6), now: 40) == [])
    }

    @Test func pageItemsOutsideTheCursorOrOutOfOrderAreRemovedAndCounted() throws {
        let feed = ControllerTestFeed(items: controllerTestItems(20, through: 1))
        var controller = try Self.loaded(feed)
        let more = try #require(onlyFetch(controller.viewportChanged(Self.viewport(0, 5, count: 6), now: 20)))
        // 15 is already loaded (not older than the cursor); 13 and 14 arrive swapped.
        let messy = Page(
            items: [controllerTestItem(15), controllerTestItem(13), controllerTestItem(14)], hasMoreBefore: true,
            hasMoreAfter: true)
        #expect(
            controller.pageArrived(more, page: messy, now: 30)
                == [.apply(.append(controllerTestItems(14, through: 13))), .phaseChanged(from: .more, to: .idle)])
        #expect(controller.counters.sourceFaults == 1)
    }

    @Test func pageDeliveredTwiceIsDroppedTheSecondTime() throws {
        let feed = ControllerTestFeed(items: controllerTestItems(20, through: 1))
        var controller = try Self.make()
        let initial = try #require(onlyFetch(controller.start(now: 0)))
        _ = controller.pageArrived(initial, page: feed.newest(limit: 6), now: 10)
        #expect(controller.pageArrived(initial, page: feed.newest(limit: 6), now: 11) == [.dropStale(initial)])
        #expect(controller.items.count == 6)
        #expect(controller.counters.staleDropped == 1)
        #expect(controller.counters.initialPages == 1)
    }

    @Test func invalidConfigurationNamesTheField() throws {
        #expect(throws: FeedController.ConfigurationError.self) {
            try FeedController(configuration: .init(pageSize: 0))
        }
        do {
            // Init 3 × 10 + one page of 10 = 40 > 35.
            _ = try FeedController(configuration: .init(pageSize: 10, maxLoadedItems: 35))
            Issue.record("expected a configuration error")
        } catch {
            #expect(error.field == "maxLoadedItems")
        }
    }
}
