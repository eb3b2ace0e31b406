import FeedEngine
import FeedModel
import Testing

/// Refresh, generations, gap-fill, upstream inserts and page dropping, step by step.
@Suite struct FeedControllerRefreshTests {
    typealias Request = FeedController.FetchRequest
    let make = FeedControllerTransitionTests.loaded
    let viewport = FeedControllerTransitionTests.viewport

    @Test func pullBelowTheThresholdDoesNothingAndAtTheThresholdStartsANewGeneration() throws {
        let feed = ControllerTestFeed(items: controllerTestItems(20, through: 1))
        var controller = try make(feed, { _ in })
        #expect(controller.pullReleased(distance: 49.9, now: 20) == [])
        let refresh = Request.expected(2, .top, .refresh, .newest, limit: 2, generation: 1)
        #expect(
            controller.pullReleased(distance: 50, now: 21) == [.fetch(refresh), .phaseChanged(from: .idle, to: .refresh)])
        #expect(controller.generation == 1)
        #expect(controller.pullReleased(distance: 80, now: 22) == [])
        #expect(controller.counters.coalescedRefreshes == 1)
    }

    @Test func refreshThatReachesTheFirstItemPrependsOnlyTheNewOnes() throws {
        var feed = ControllerTestFeed(items: controllerTestItems(20, through: 1))
        var controller = try make(feed, { _ in })
        feed.items.insert(controllerTestItem(21), at: 0)
        let refresh = try #require(onlyFetch(controller.pullReleased(distance: 60, now: 20)))
        // newest(2) = [21, 20]: 20 is the loaded first item, so only 21 is new.
        #expect(
            controller.pageArrived(refresh, page: feed.newest(limit: 2), now: 30)
                == [.apply(.prepend([controllerTestItem(21)])), .phaseChanged(from: .refresh, to: .idle)])
        #expect(controller.items.map(\.id) == [21, 20, 19, 18, 17, 16, 15])
        #expect(controller.loadState(.top) == .endReached)
    }

    @Test func moreInFlightAtARefreshIsAbandonedAtOnceAndItsAnswerDroppedWhenItLands() throws {
        // Paging 3 cancels the old generation's loads on invalidation (PageFetcher.refresh closes the
        // old PageFetcherSnapshot; an old load that still completes is skipped by `insert`'s generation
        // check). The bottom is idle at the pull, so the new generation's More starts at once.
        let feed = ControllerTestFeed(items: controllerTestItems(20, through: 1))
        var controller = try make(feed, { _ in })
        let more = try #require(onlyFetch(controller.viewportChanged(viewport(0, 5, 6), now: 20)))
        #expect(more.generation == 0)
        #expect(controller.phase == .more)
        let refresh = Request.expected(3, .top, .refresh, .newest, limit: 2, generation: 1)
        let again = Request.expected(4, .bottom, .more, .after(controllerTestItem(15).cursor), limit: 2, generation: 1)
        #expect(
            controller.pullReleased(distance: 60, now: 21)
                == [.fetch(refresh), .fetch(again), .phaseChanged(from: .more, to: .refresh)])
        #expect(controller.loadState(.bottom) == .loading(again))
        #expect(controller.counters.abandoned == 1)
        #expect(controller.counters.staleDropped == 0)
        // Refresh, the new More and the abandoned one are in flight; two are the controller's.
        #expect(controller.inFlightCount == 3)
        #expect(controller.activeRequestCount == 2)
        // The old answer lands: dropped and counted, nothing else changes.
        #expect(
            controller.pageArrived(more, page: feed.after(controllerTestItem(15).cursor, limit: 2), now: 30)
                == [.dropStale(more)])
        #expect(controller.items.count == 6)
        #expect(controller.counters.staleDropped == 1)
        #expect(controller.counters.morePages == 0)
        #expect(controller.inFlightCount == 2)
        #expect(controller.loadState(.bottom) == .loading(again))
        #expect(controller.phase == .refresh)
        // A second delivery of the same old answer is still stale (not the bottom's request).
        #expect(controller.pageArrived(more, page: feed.after(controllerTestItem(15).cursor, limit: 2), now: 31)
            == [.dropStale(more)])
        #expect(controller.counters.staleDropped == 2)
        // The new generation's More is accepted.
        #expect(
            controller.pageArrived(again, page: feed.after(controllerTestItem(15).cursor, limit: 2), now: 40)
                == [.apply(.append(controllerTestItems(14, through: 13)))])
        #expect(controller.counters.morePages == 1)
        #expect(controller.phase == .refresh)
    }

    @Test func moreInFlightAtARefreshOutsideThePrefetchDistanceLeavesTheBottomIdle() throws {
        // Far from the end at the pull: the old More is abandoned and no new one is needed; the phase
        // goes from more to refresh and, when the refresh lands, to idle, while the old More is still out.
        var feed = ControllerTestFeed(items: controllerTestItems(20, through: 1))
        var controller = try make(feed, { _ in })
        let more = try #require(onlyFetch(controller.viewportChanged(viewport(0, 5, 6), now: 20)))
        #expect(controller.viewportChanged(viewport(0, 1, 6), now: 21) == [])
        let refresh = Request.expected(3, .top, .refresh, .newest, limit: 2, generation: 1)
        #expect(
            controller.pullReleased(distance: 60, now: 22) == [.fetch(refresh), .phaseChanged(from: .more, to: .refresh)])
        #expect(controller.loadState(.bottom) == .idle)
        feed.items.insert(controllerTestItem(21), at: 0)
        #expect(
            controller.pageArrived(refresh, page: feed.newest(limit: 2), now: 30)
                == [.apply(.prepend([controllerTestItem(21)])), .phaseChanged(from: .refresh, to: .idle)])
        #expect(controller.inFlightCount == 1)
        #expect(controller.activeRequestCount == 0)
        #expect(controller.pageArrived(more, page: feed.after(controllerTestItem(15).cursor, limit: 2), now: 40)
            == [.dropStale(more)])
        #expect(controller.inFlightCount == 0)
        #expect(controller.counters.staleDropped == 1)
        #expect(controller.counters.abandoned == 1)
        #expect(controller.items.map(\.id) == [21, 20, 19, 18, 17, 16, 15])
    }

    @Test func failureOfAnAbandonedMoreIsDroppedNotRetried() throws {
        let feed = ControllerTestFeed(items: controllerTestItems(20, through: 1))
        var controller = try make(feed, { _ in })
        let more = try #require(onlyFetch(controller.viewportChanged(viewport(0, 5, 6), now: 20)))
        #expect(controller.viewportChanged(viewport(0, 1, 6), now: 21) == [])
        _ = controller.pullReleased(distance: 60, now: 22)
        #expect(controller.pageFailed(more, error: "boom", now: 30) == [.dropStale(more)])
        #expect(controller.counters.failures == 0)
        #expect(controller.counters.staleDropped == 1)
        #expect(controller.loadState(.bottom) == .idle)
    }

    @Test func gapIsFilledWithBeforePagesAndMergedInOneChange() throws {
        var feed = ControllerTestFeed(items: controllerTestItems(20, through: 1))
        var controller = try make(feed, { _ in })
        feed.items.insert(contentsOf: controllerTestItems(25, through: 21), at: 0)
        let refresh = try #require(onlyFetch(controller.pullReleased(distance: 60, now: 20)))
        // newest(2) = [25, 24], still newer than the loaded 20: a gap. Fill upward from 20.
        let fill1 = Request.expected(3, .top, .gapFill, .before(controllerTestItem(20).cursor), limit: 2, generation: 1)
        #expect(controller.pageArrived(refresh, page: feed.newest(limit: 2), now: 30) == [.fetch(fill1)])
        #expect(controller.phase == .refresh)
        // before(20, 2) = [22, 21]: not yet at 24.
        let fill2 = Request.expected(4, .top, .gapFill, .before(controllerTestItem(22).cursor), limit: 2, generation: 1)
        #expect(controller.pageArrived(fill1, page: feed.before(controllerTestItem(20).cursor, limit: 2), now: 40) == [.fetch(fill2)])
        // before(22, 2) = [24, 23]: reaches 24, closed. Merged: [25, 24] + [23, 22, 21].
        #expect(
            controller.pageArrived(fill2, page: feed.before(controllerTestItem(22).cursor, limit: 2), now: 50)
                == [.apply(.prepend(controllerTestItems(25, through: 21))), .phaseChanged(from: .refresh, to: .idle)])
        #expect(controller.items.map(\.id) == Array(stride(from: 25, through: 15, by: -1)))
        #expect(controller.counters.refreshPages == 1)
        #expect(controller.counters.gapFillPages == 2)
        #expect(controller.generation == 1)
    }

    @Test func gapLargerThanTheBoundReplacesTheListInANewGeneration() throws {
        var feed = ControllerTestFeed(items: controllerTestItems(20, through: 1))
        var controller = try make(feed, { $0.maxGapPages = 1 })
        feed.items.insert(contentsOf: controllerTestItems(25, through: 21), at: 0)
        let refresh = try #require(onlyFetch(controller.pullReleased(distance: 60, now: 20)))
        let fill = try #require(onlyFetch(controller.pageArrived(refresh, page: feed.newest(limit: 2), now: 30)))
        #expect(
            controller.pageArrived(fill, page: feed.before(controllerTestItem(20).cursor, limit: 2), now: 40)
                == [.apply(.replace(controllerTestItems(25, through: 24))), .phaseChanged(from: .refresh, to: .idle)])
        #expect(controller.generation == 2)
        #expect(controller.counters.replacements == 1)
        #expect(controller.loadState(.bottom) == .idle)
        #expect(controller.loadState(.top) == .endReached)
    }

    @Test func upstreamInsertsWaitForAPullAndARefreshMergesThem() throws {
        var feed = ControllerTestFeed(items: controllerTestItems(20, through: 1))
        var controller = try make(feed, { _ in })
        // Items 0...2 visible: 3 items below the last visible one > 2, so no More.
        #expect(controller.viewportChanged(viewport(0, 2, 6), now: 20) == [])
        feed.items.insert(contentsOf: controllerTestItems(23, through: 21), at: 0)
        // Counted for a "new posts" pill; nothing is loaded above the user's items unasked.
        #expect(controller.upstreamInserted(count: 3, now: 30) == [])
        #expect(controller.newerItemsAvailable == 3)
        #expect(controller.loadState(.top) == .endReached)
        #expect(controller.viewportChanged(viewport(0, 2, 6), now: 31) == [])
        // A pull loads the newest page: newest(2) = [23, 22] does not reach item 20 (a gap), so the
        // Refresh loads the items just above item 20: before(20, 2) = [22, 21], which overlaps the
        // newest page, so the gap is closed and 23, 22, 21 are merged above item 20.
        let refresh = Request.expected(2, .top, .refresh, .newest, limit: 2, generation: 1)
        #expect(
            controller.pullReleased(distance: 80, now: 40) == [.fetch(refresh), .phaseChanged(from: .idle, to: .refresh)])
        let gap = Request.expected(3, .top, .gapFill, .before(controllerTestItem(20).cursor), limit: 2, generation: 1)
        #expect(controller.pageArrived(refresh, page: feed.newest(limit: 2), now: 50) == [.fetch(gap)])
        #expect(
            controller.pageArrived(gap, page: feed.before(controllerTestItem(20).cursor, limit: 2), now: 60)
                == [.apply(.prepend(controllerTestItems(23, through: 21))), .phaseChanged(from: .refresh, to: .idle)])
        #expect(controller.loadState(.top) == .endReached)
        #expect(controller.newerItemsAvailable == 0)
    }

    @Test func pagesFarFromTheViewportAreDroppedAndThatEndLoadsAgain() throws {
        // pageSize 2, Init 6, maxLoadedItems 10 (≥ 6 + 2 and ≥ 2 + 2 × 2).
        let feed = ControllerTestFeed(items: controllerTestItems(40, through: 1))
        var controller = try make(feed, { $0.maxLoadedItems = 10 })
        var next: Int64 = 35
        for (first, count) in [(4, 6), (6, 8)] {
            let more = try #require(onlyFetch(controller.viewportChanged(viewport(first, first + 1, count), now: 20)))
            _ = controller.pageArrived(more, page: feed.after(controllerTestItem(next).cursor, limit: 2), now: 30)
            next -= 2
        }
        #expect(controller.items.count == 10)
        // Visible 8...9 of 10: More brings 30, 29 → 12 > 10. The first page (40, 39) ends 8 − 2 = 6 > 2
        // items above the first visible one, so it goes; 10 remain.
        let more = try #require(onlyFetch(controller.viewportChanged(viewport(8, 9, 10), now: 40)))
        #expect(
            controller.pageArrived(more, page: feed.after(controllerTestItem(31).cursor, limit: 2), now: 50)
                == [
                    .apply(.append(controllerTestItems(30, through: 29))), .apply(.dropFirst(2)),
                    .phaseChanged(from: .more, to: .idle),
                ])
        #expect(controller.items.map(\.id) == Array(stride(from: 38, through: 29, by: -1)))
        #expect(controller.loadState(.top) == .idle)
        #expect(controller.counters.pagesDropped == 1)
        // Back at the top: a prepend reloads 40, 39; the last page (30, 29) starts (12 − 2) − 1 − 3 = 6 > 2
        // items below the last visible one (index 1 + 2 shifted), so it goes.
        // Requests so far: Init 1, More 2, 3, 4.
        let prepend = Request.expected(5, .top, .prepend, .before(controllerTestItem(38).cursor), limit: 2)
        #expect(
            controller.viewportChanged(viewport(0, 1, 10), now: 60)
                == [.fetch(prepend), .phaseChanged(from: .idle, to: .prepend)])
        #expect(
            controller.pageArrived(prepend, page: feed.before(controllerTestItem(38).cursor, limit: 2), now: 70)
                == [
                    .apply(.prepend(controllerTestItems(40, through: 39))), .apply(.dropLast(2)),
                    .phaseChanged(from: .prepend, to: .idle),
                ])
        #expect(controller.items.map(\.id) == Array(stride(from: 40, through: 31, by: -1)))
        #expect(controller.loadState(.top) == .endReached)
        #expect(controller.loadState(.bottom) == .idle)
    }
}
