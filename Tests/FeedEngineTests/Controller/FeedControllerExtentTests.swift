import FeedEngine
import FeedModel
import Testing

/// Pages that add no extent along the scroll axis (a strip, a grid with more columns than items):
/// the short-content rule must not load the whole feed. Step by step, full action lists.
/// pageSize 2, so Init asks for 3 × 2 = 6 items; the prefetch distance defaults to 2 items.
@Suite struct FeedControllerExtentTests {
    typealias Request = FeedController.FetchRequest
    typealias Viewport = FeedController.Viewport

    static func make(_ adjust: (inout FeedController.Configuration) -> Void = { _ in }) throws -> FeedController {
        var configuration = FeedController.Configuration(pageSize: 2)
        adjust(&configuration)
        return try FeedController(configuration: configuration)
    }

    /// A strip: content length = viewport length = 800 pt whatever it holds, every item visible.
    static func strip(offset: Double = 0, count: Int) -> Viewport {
        Viewport(
            contentOffset: offset, viewportLength: 800, contentLength: 800,
            firstVisibleIndex: count == 0 ? nil : 0, lastVisibleIndex: count == 0 ? nil : count - 1)
    }

    @Test func initAndMorePagesThatAddNoExtentWaitUntilTheViewportMoves() throws {
        let feed = ControllerTestFeed(items: controllerTestItems(20, through: 1))
        var controller = try Self.make()
        let initial = try #require(onlyFetch(controller.start(now: 0)))
        // The empty strip is already 800 pt long; nothing loaded, so no More.
        #expect(controller.viewportChanged(Self.strip(count: 0), now: 1) == [])
        #expect(
            controller.pageArrived(initial, page: feed.newest(limit: 6), now: 10)
                == [.apply(.replace(controllerTestItems(20, through: 15))), .phaseChanged(from: .initial, to: .idle)])
        // 6 items visible, 6 − 1 − 5 = 0 ≤ 2 items: the short-content rule would fire More, but Init
        // left the content at 800 pt ≤ 800 pt with the offset still 0: the bottom stalls.
        #expect(controller.viewportChanged(Self.strip(count: 6), now: 11) == [])
        #expect(controller.viewportChanged(Self.strip(count: 6), now: 27) == [])
        #expect(controller.loadState(.bottom) == .idle)
        #expect(controller.phase == .idle)

        // The user drags (offset 1 pt, a rubber band): the viewport moved, More fires.
        let more = Request.expected(2, .bottom, .more, .after(controllerTestItem(15).cursor), limit: 2)
        #expect(
            controller.viewportChanged(Self.strip(offset: 1, count: 6), now: 40)
                == [.fetch(more), .phaseChanged(from: .idle, to: .more)])
        #expect(
            controller.pageArrived(more, page: feed.after(controllerTestItem(15).cursor, limit: 2), now: 50)
                == [.apply(.append(controllerTestItems(14, through: 13))), .phaseChanged(from: .more, to: .idle)])
        // Still 800 pt at offset 1: the page added no extent, the bottom stalls again.
        #expect(controller.viewportChanged(Self.strip(offset: 1, count: 8), now: 51) == [])
        #expect(controller.viewportChanged(Self.strip(offset: 1, count: 8), now: 67) == [])
        // Back to rest at 0: moved again, one more More.
        let next = Request.expected(3, .bottom, .more, .after(controllerTestItem(13).cursor), limit: 2)
        #expect(
            controller.viewportChanged(Self.strip(offset: 0, count: 8), now: 80)
                == [.fetch(next), .phaseChanged(from: .idle, to: .more)])
        // 6 (Init) + 2 + 2 items, not the whole 20.
        #expect(controller.counters.morePages == 1)
        #expect(controller.items.count == 8)
    }

    @Test func aMorePageThatAddsNoExtentStallsMoreUntilTheContentGrowsOrTheViewportResizes() throws {
        // A grid with 10 columns of 100 pt rows in an 800 pt viewport: up to 10 items fill one row.
        let feed = ControllerTestFeed(items: controllerTestItems(20, through: 1))
        var controller = try Self.make()
        func grid(rows: Int, count: Int, length: Double = 800) -> Viewport {
            Viewport(
                contentOffset: 0, viewportLength: length, contentLength: Double(rows) * 100,
                firstVisibleIndex: count == 0 ? nil : 0, lastVisibleIndex: count == 0 ? nil : count - 1)
        }
        let initial = try #require(onlyFetch(controller.start(now: 0)))
        #expect(controller.viewportChanged(grid(rows: 0, count: 0), now: 1) == [])
        _ = controller.pageArrived(initial, page: feed.newest(limit: 6), now: 10)
        // Init grew the content from 0 to one row (100 pt): the short-content rule fires More.
        let more = Request.expected(2, .bottom, .more, .after(controllerTestItem(15).cursor), limit: 2)
        #expect(
            controller.viewportChanged(grid(rows: 1, count: 6), now: 11)
                == [.fetch(more), .phaseChanged(from: .idle, to: .more)])
        #expect(
            controller.pageArrived(more, page: feed.after(controllerTestItem(15).cursor, limit: 2), now: 20)
                == [.apply(.append(controllerTestItems(14, through: 13))), .phaseChanged(from: .more, to: .idle)])
        // 8 items still in one 100 pt row: no growth, no move: stalled.
        #expect(controller.viewportChanged(grid(rows: 1, count: 8), now: 21) == [])
        // A self-sizing cell grows the row to 150 pt: the content grew, More fires.
        let grown = Viewport(
            contentOffset: 0, viewportLength: 800, contentLength: 150, firstVisibleIndex: 0, lastVisibleIndex: 7)
        let second = Request.expected(3, .bottom, .more, .after(controllerTestItem(13).cursor), limit: 2)
        #expect(controller.viewportChanged(grown, now: 30) == [.fetch(second), .phaseChanged(from: .idle, to: .more)])
        #expect(
            controller.pageArrived(second, page: feed.after(controllerTestItem(13).cursor, limit: 2), now: 40)
                == [.apply(.append(controllerTestItems(12, through: 11))), .phaseChanged(from: .more, to: .idle)])
        // 10 items, the row still 150 pt: stalled.
        let ten = Viewport(
            contentOffset: 0, viewportLength: 800, contentLength: 150, firstVisibleIndex: 0, lastVisibleIndex: 9)
        #expect(controller.viewportChanged(ten, now: 41) == [])
        // The viewport is resized (rotation, 800 → 600 pt): More fires.
        var rotated = ten
        rotated.viewportLength = 600
        let third = Request.expected(4, .bottom, .more, .after(controllerTestItem(11).cursor), limit: 2)
        #expect(controller.viewportChanged(rotated, now: 50) == [.fetch(third), .phaseChanged(from: .idle, to: .more)])
    }

    @Test func aPrependThatAddsNoExtentStallsTheTopUntilTheContentGrows() throws {
        // A list of 100 pt items in a 400 pt viewport, More and prepends 150 pt from the ends,
        // at most 8 items loaded (≥ Init 6 + one page 2).
        var feed = ControllerTestFeed(items: controllerTestItems(20, through: 1))
        var controller = try Self.make {
            $0.prefetchDistance = .points(150)
            $0.maxLoadedItems = 8
        }
        func list(offset: Double, content: Double, _ first: Int, _ last: Int) -> Viewport {
            Viewport(
                contentOffset: offset, viewportLength: 400, contentLength: content, firstVisibleIndex: first,
                lastVisibleIndex: last)
        }
        let initial = try #require(onlyFetch(controller.start(now: 0)))
        _ = controller.pageArrived(initial, page: feed.newest(limit: 6), now: 10)
        // 600 − (200 + 400) = 0 ≤ 150: More.
        let more = Request.expected(2, .bottom, .more, .after(controllerTestItem(15).cursor), limit: 2)
        #expect(
            controller.viewportChanged(list(offset: 200, content: 600, 2, 5), now: 11)
                == [.fetch(more), .phaseChanged(from: .idle, to: .more)])
        _ = controller.pageArrived(more, page: feed.after(controllerTestItem(15).cursor, limit: 2), now: 20)
        // 8 items, 800 pt; 800 − (400 + 400) = 0 ≤ 150: More.
        let second = Request.expected(3, .bottom, .more, .after(controllerTestItem(13).cursor), limit: 2)
        #expect(
            controller.viewportChanged(list(offset: 400, content: 800, 4, 7), now: 21)
                == [.fetch(second), .phaseChanged(from: .idle, to: .more)])
        // 10 items > 8: the first page (20, 19) is dropped: first visible 4 − 2 = 2 ≥ margin
        // ⌈(150 / 400) × 4 visible⌉ = 2 (Paging 3 drops while itemsAfterDrop ≥ prefetchDistance).
        // The top becomes loadable.
        #expect(
            controller.pageArrived(second, page: feed.after(controllerTestItem(13).cursor, limit: 2), now: 30)
                == [
                    .apply(.append(controllerTestItems(12, through: 11))), .apply(.dropFirst(2)),
                    .phaseChanged(from: .more, to: .idle),
                ])
        #expect(controller.loadState(.top) == .idle)
        // Anchored: offset 400 − 200 = 200, content 8 × 100 = 800; 800 − 600 = 200 > 150 and 200 > 150.
        #expect(controller.viewportChanged(list(offset: 200, content: 800, 2, 5), now: 31) == [])
        // Four newer items arrive upstream, so the top is not the head after the prepend below.
        feed.insertNewer(4) { _ in 100 }
        #expect(controller.upstreamInserted(count: 4, now: 35) == [])
        // Scrolled up to 100 ≤ 150: a prepend before item 18. (10 items then; the last page stays:
        // (10 − 2) − 1 − 6 = 1 item would remain below the last visible one, fewer than 2.)
        let prepend = Request.expected(4, .top, .prepend, .before(controllerTestItem(18).cursor), limit: 2)
        #expect(
            controller.viewportChanged(list(offset: 100, content: 800, 1, 4), now: 40)
                == [.fetch(prepend), .phaseChanged(from: .idle, to: .prepend)])
        let page = feed.before(controllerTestItem(18).cursor, limit: 2)
        #expect(page == Page(items: controllerTestItems(20, through: 19), hasMoreBefore: true, hasMoreAfter: true))
        #expect(
            controller.pageArrived(prepend, page: page, now: 50)
                == [.apply(.prepend(controllerTestItems(20, through: 19))), .phaseChanged(from: .prepend, to: .idle)])
        // The layout reports the same 800 pt at offset 100: the prepend added no extent, the top stalls
        // (offset 100 ≤ 150 would otherwise fire the next prepend).
        #expect(controller.viewportChanged(list(offset: 100, content: 800, 3, 6), now: 51) == [])
        #expect(controller.viewportChanged(list(offset: 100, content: 800, 3, 6), now: 67) == [])
        #expect(controller.loadState(.top) == .idle)
        // The content grows to 1000 pt (the two items measured): the next prepend fires.
        let next = Request.expected(5, .top, .prepend, .before(controllerTestItem(20).cursor), limit: 2)
        #expect(
            controller.viewportChanged(list(offset: 100, content: 1000, 3, 6), now: 80)
                == [.fetch(next), .phaseChanged(from: .idle, to: .prepend)])
    }

    @Test func aReplacedListStartsOverWithoutTheOldStall() throws {
        // maxGapPages 0: a Refresh whose newest page does not reach the first item replaces the list.
        var feed = ControllerTestFeed(items: controllerTestItems(20, through: 1))
        var controller = try Self.make { $0.maxGapPages = 0 }
        let initial = try #require(onlyFetch(controller.start(now: 0)))
        #expect(controller.viewportChanged(Self.strip(count: 0), now: 1) == [])
        _ = controller.pageArrived(initial, page: feed.newest(limit: 6), now: 10)
        #expect(controller.viewportChanged(Self.strip(count: 6), now: 11) == [])
        // 10 newer items: the newest page (30, 29) does not reach item 20; the list is replaced
        // (generation 2) and the bottom, stalled for the old list, may load for the new one.
        feed.insertNewer(10) { _ in 100 }
        let refresh = Request.expected(2, .top, .refresh, .newest, limit: 2, generation: 1)
        #expect(
            controller.pullReleased(distance: 60, now: 20) == [.fetch(refresh), .phaseChanged(from: .idle, to: .refresh)])
        #expect(
            controller.pageArrived(refresh, page: feed.newest(limit: 2), now: 30)
                == [.apply(.replace(controllerTestItems(30, through: 29))), .phaseChanged(from: .refresh, to: .idle)])
        let more = Request.expected(3, .bottom, .more, .after(controllerTestItem(29).cursor), limit: 2, generation: 2)
        #expect(
            controller.viewportChanged(Self.strip(count: 2), now: 31) == [.fetch(more), .phaseChanged(from: .idle, to: .more)])
    }
}
