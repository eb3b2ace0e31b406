import FeedEngine
import FeedModel
import Testing

/// Failures: the list stays, retries back off, and after the limit only a user trigger loads again.
/// Policy in these tests: base 100 ms, factor 2, cap 300 ms, 3 attempts, no jitter.
@Suite struct FeedControllerRetryTests {
    typealias Request = FeedController.FetchRequest

    @Test func initRetriesWithExponentialBackoffThenFailsUntilAPull() throws {
        var controller = try FeedControllerTransitionTests.make()
        let first = try #require(onlyFetch(controller.start(now: 0)))
        // Attempt 1 failed at 1000: wait 100 × 2⁰ = 100 ms.
        #expect(controller.pageFailed(first, error: "timeout", now: 1000) == [.scheduleRetry(at: 1100, direction: .top)])
        #expect(controller.loadState(.top) == .failed(error: "timeout", attempt: 1, retryAt: 1100))
        #expect(controller.phase == .initial)
        #expect(controller.tick(now: 1099) == [])
        let second = Request.expected(2, .top, .initial, .newest, limit: 6, attempt: 2)
        #expect(controller.tick(now: 1100) == [.fetch(second)])
        // Attempt 2 failed at 2000: wait 100 × 2¹ = 200 ms.
        #expect(controller.pageFailed(second, error: "timeout", now: 2000) == [.scheduleRetry(at: 2200, direction: .top)])
        let third = Request.expected(3, .top, .initial, .newest, limit: 6, attempt: 3)
        #expect(controller.tick(now: 2200) == [.fetch(third)])
        // Attempt 3 of 3 failed: give up.
        #expect(controller.pageFailed(third, error: "HTTP 503", now: 3000) == [.phaseChanged(from: .initial, to: .failed)])
        #expect(controller.loadState(.top) == .failed(error: "HTTP 503", attempt: 3, retryAt: nil))
        #expect(controller.tick(now: 100_000) == [])
        #expect(controller.items.isEmpty)
        #expect(controller.counters.failures == 3)
        #expect(controller.counters.retries == 2)
        let restart = Request.expected(4, .top, .initial, .newest, limit: 6)
        #expect(
            controller.pullReleased(distance: 60, now: 200_000)
                == [.fetch(restart), .phaseChanged(from: .failed, to: .initial)])
    }

    @Test func failedMoreLeavesTheListAndWaitsForRetryAfterTheLimit() throws {
        let feed = ControllerTestFeed(items: controllerTestItems(20, through: 1))
        var controller = try FeedControllerTransitionTests.loaded(feed) { $0.retry.maxAttempts = 1 }
        let bottom = FeedControllerTransitionTests.viewport(0, 5, count: 6)
        let more = try #require(onlyFetch(controller.viewportChanged(bottom, now: 20)))
        #expect(controller.pageFailed(more, error: "offline", now: 30) == [.phaseChanged(from: .more, to: .failed)])
        #expect(controller.items.map(\.id) == [20, 19, 18, 17, 16, 15])
        #expect(controller.viewportChanged(bottom, now: 40) == [])
        let again = Request.expected(3, .bottom, .more, .after(controllerTestItem(15).cursor), limit: 2)
        #expect(controller.retry(now: 50) == [.fetch(again), .phaseChanged(from: .failed, to: .more)])
    }

    @Test func backoffGrowsByTheFactorUpToTheCap() {
        let policy = FeedController.RetryPolicy(baseMilliseconds: 100, factor: 2, capMilliseconds: 300, jitter: 0)
        // unit 0.5 → u = 0: no jitter. 100, 200, min(300, 400) = 300, min(300, 800) = 300.
        #expect([1, 2, 3, 4].map { policy.delay(afterAttempt: $0, unit: 0.5) } == [100, 200, 300, 300])
    }

    @Test func jitterSpreadsTheDelayByTheFraction() {
        let policy = FeedController.RetryPolicy(baseMilliseconds: 1000, factor: 2, capMilliseconds: 8000, jitter: 0.2)
        // unit 0 → u = −1: 1000 × 0.8 = 800; unit 0.75 → u = 0.5: 2000 × 1.1 = 2200.
        #expect(policy.delay(afterAttempt: 1, unit: 0) == 800)
        #expect(policy.delay(afterAttempt: 2, unit: 0.75) == 2200)
    }

    @Test func jitterIsSeededSoTheSameSeedGivesTheSameRetryTime() throws {
        func retryTime(seed: UInt64) throws -> Double {
            var controller = try FeedController(
                configuration: .init(pageSize: 2, retry: .init(baseMilliseconds: 1000, jitter: 0.2, seed: seed)))
            let first = try #require(onlyFetch(controller.start(now: 0)))
            guard case .scheduleRetry(let at, _) = controller.pageFailed(first, error: "x", now: 0).first else {
                Issue.record("no retry scheduled")
                return .nan
            }
            return at
        }
        // The first draw of SplitMix64(seed: 42), mapped to ±20 % around 1000 ms.
        var generator = SplitMix64(seed: 42)
        let expected = 1000 * (1 + 0.2 * (2 * generator.nextUnit() - 1))
        #expect(try retryTime(seed: 42) == expected)
        #expect(try retryTime(seed: 42) == retryTime(seed: 42))
        #expect(try retryTime(seed: 42) != retryTime(seed: 43))
        #expect((800.0..<1200).contains(try retryTime(seed: 42)))
    }
}

@Suite struct FeedControllerUserTriggerTests {
    @Test func pullRevivesABottomThatGaveUp() throws {
        let feed = ControllerTestFeed(items: controllerTestItems(20, through: 1))
        var controller = try FeedControllerTransitionTests.loaded(feed) { $0.retry.maxAttempts = 1 }
        let bottom = FeedControllerTransitionTests.viewport(0, 5, count: 6)
        let more = try #require(onlyFetch(controller.viewportChanged(bottom, now: 20)))
        _ = controller.pageFailed(more, error: "offline", now: 30)
        #expect(controller.phase == .failed)
        // The pull starts Refresh (id 3, generation 1) and frees the bottom, whose More (id 4) fires at once.
        let refresh = FeedController.FetchRequest.expected(3, .top, .refresh, .newest, limit: 2, generation: 1)
        let again = FeedController.FetchRequest.expected(
            4, .bottom, .more, .after(controllerTestItem(15).cursor), limit: 2, generation: 1)
        #expect(
            controller.pullReleased(distance: 70, now: 40)
                == [.fetch(refresh), .fetch(again), .phaseChanged(from: .failed, to: .refresh)])
        #expect(controller.inFlightCount == 2)
    }

    @Test func returningToTheEndRevivesAMoreThatGaveUpButRestingThereDoesNot() throws {
        let feed = ControllerTestFeed(items: controllerTestItems(20, through: 1))
        var controller = try FeedControllerTransitionTests.loaded(feed) { $0.retry.maxAttempts = 1 }
        // Page size 2, prefetch 2 items: 6 items loaded, the end is near when last visible + 2 ≥ 5.
        let bottom = FeedControllerTransitionTests.viewport(0, 5, count: 6)
        let away = FeedControllerTransitionTests.viewport(0, 1, count: 6)  // 1 + 2 < 5
        let more = try #require(onlyFetch(controller.viewportChanged(bottom, now: 20)))
        _ = controller.pageFailed(more, error: "offline", now: 30)
        #expect(controller.phase == .failed)
        // Bouncing at the end: still failed, nothing issued.
        #expect(controller.viewportChanged(bottom, now: 40) == [])
        #expect(controller.viewportChanged(bottom, now: 50) == [])
        // Scrolling away and back is a new trigger: More again, attempt 1.
        #expect(controller.viewportChanged(away, now: 60) == [])
        let again = FeedController.FetchRequest.expected(3, .bottom, .more, .after(controllerTestItem(15).cursor), limit: 2)
        #expect(controller.viewportChanged(bottom, now: 70) == [.fetch(again), .phaseChanged(from: .failed, to: .more)])
    }

    @Test func prefetchDistanceInScreenfulsScalesWithTheViewport() throws {
        let feed = ControllerTestFeed(items: controllerTestItems(20, through: 1))
        var controller = try FeedControllerTransitionTests.loaded(feed) { $0.prefetchDistance = .screenfuls(0.5) }
        func at(_ offset: Double) -> FeedController.Viewport {
            .init(contentOffset: offset, viewportLength: 200, contentLength: 600, firstVisibleIndex: 1, lastVisibleIndex: 3)
        }
        // Half a 200 pt screen = 100 pt. 600 − (299 + 200) = 101 > 100; 600 − (300 + 200) = 100 ≤ 100.
        #expect(controller.viewportChanged(at(299), now: 20) == [])
        #expect(onlyFetch(controller.viewportChanged(at(300), now: 21))?.kind == .more)
    }
}
