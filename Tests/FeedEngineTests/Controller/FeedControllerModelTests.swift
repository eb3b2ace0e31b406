import FeedLayout
import FeedModel
import Testing

@testable import FeedEngine

/// Random event sequences (fixed seeds) against a small reference model of the controller's request
/// rules, written from DESIGN.md's invariants rather than from the controller's code:
/// - a direction owns at most one request; a `.fetch` while the model says the direction still owns
///   one in flight is a second load in that direction;
/// - the generation moves only when a pull is accepted (Init answered, no top request in flight)
///   or when a Refresh replaces a non-empty list, and a More in flight then is the old generation's;
/// - an answer is dropped exactly when it is not its direction's own request or its generation is
///   old: a page or failure the model expects to be taken is never dropped (and is merged or
///   retried), a stale or repeated one always is;
/// - before Init answers the bottom never loads, and the controller's own state checks hold
///   (``FeedController/invariantViolation``) after every event.
@Suite struct FeedControllerModelTests {
    typealias Request = FeedController.FetchRequest

    /// What the model knows: the request each direction owns, the generation, whether Init answered.
    struct Model {
        var generation = 0
        var initAnswered = false
        var owned: [LoadDirection: Request] = [:]
        /// Every request issued and not yet answered, owned or abandoned.
        var outstanding: [Request] = []
        /// Requests already answered (for duplicate deliveries).
        var answered: [Request] = []

        /// Whether an answer to `request` must be taken (merged, or counted as a failure).
        func takes(_ request: Request) -> Bool {
            owned[request.direction]?.id == request.id && request.generation == generation
        }

        /// A new generation: a More in flight stops being the bottom's own.
        mutating func advanceGeneration() {
            generation += 1
            if let more = owned[.bottom], more.generation != generation { owned[.bottom] = nil }
        }
    }

    struct Driver {
        var controller: FeedController
        var feed: ControllerTestFeed
        let layout = ControllerStackLayout()
        let viewportSize = Size(width: 320, height: 800)
        var offset = 0.0
        var mirror: [Item] = []
        var model = Model()
        var now = 0.0
        var taken = 0
        var dropped = 0
        var acceptedPulls = 0

        init(configuration: FeedController.Configuration, feedSize: Int64) throws {
            controller = try FeedController(configuration: configuration)
            feed = ControllerTestFeed(
                items: stride(from: feedSize, through: 1, by: -1).map {
                    controllerTestItem($0, height: FeedControllerPropertyTests.height($0))
                })
            try layout.prepare(sizes: [], viewport: viewportSize)
        }

        func currentViewport() -> FeedController.Viewport {
            let rect = Rect(origin: Point(x: 0, y: offset), size: viewportSize)
            let visible = layout.attributesForElements(in: rect).map(\.indexPath.item)
            return .init(
                contentOffset: offset, viewportLength: viewportSize.height, contentLength: layout.contentSize.height,
                firstVisibleIndex: visible.min(), lastVisibleIndex: visible.max())
        }

        /// Checks and carries out one event's actions; reports the geometry after an `.apply`.
        mutating func perform(_ actions: [FeedAction], sourceLocation: SourceLocation = #_sourceLocation) throws {
            var applied = false
            for action in actions {
                switch action {
                case .fetch(let request):
                    #expect(
                        model.owned[request.direction] == nil,
                        "second \(request.direction) load: \(model.owned[request.direction].map { "\($0.id)" } ?? "") and \(request.id)",
                        sourceLocation: sourceLocation)
                    #expect(request.generation == model.generation, sourceLocation: sourceLocation)
                    if !model.initAnswered {
                        #expect(
                            request.kind == .initial, "\(request.kind) before Init answered",
                            sourceLocation: sourceLocation)
                    }
                    model.owned[request.direction] = request
                    model.outstanding.append(request)
                case .apply(let change):
                    if case .replace = change, !mirror.isEmpty {
                        // A Refresh whose gap could not be closed replaced the list: a new generation.
                        model.advanceGeneration()
                    }
                    offset = try ScrollAnchoring.apply(
                        change, to: layout, contentOffset: Point(x: 0, y: offset), viewport: viewportSize
                    ).contentOffset.y
                    switch change {
                    case .append(let items): mirror += items
                    case .prepend(let items): mirror.insert(contentsOf: items, at: 0)
                    case .replace(let items): mirror = items
                    case .dropFirst(let n): mirror.removeFirst(n)
                    case .dropLast(let n): mirror.removeLast(n)
                    }
                    applied = true
                case .dropStale, .scheduleRetry, .phaseChanged:
                    break
                }
            }
            #expect(
                controller.invariantViolation == nil, "\(controller.invariantViolation ?? "")",
                sourceLocation: sourceLocation)
            #expect(controller.generation == model.generation, sourceLocation: sourceLocation)
            #expect(controller.items == mirror, sourceLocation: sourceLocation)
            #expect(controller.inFlightCount == model.outstanding.count, sourceLocation: sourceLocation)
            if !model.initAnswered {
                #expect(controller.loadState(.bottom) == .idle, sourceLocation: sourceLocation)
            }
            if applied {
                try perform(controller.viewportChanged(currentViewport(), now: now), sourceLocation: sourceLocation)
            }
        }

        /// Delivers an answer (a page, or a failure) to `request` and checks that it is taken or dropped as the model says.
        mutating func answer(_ request: Request, fails: Bool, sourceLocation: SourceLocation = #_sourceLocation) throws
        {
            let takes = model.takes(request)
            if let index = model.outstanding.firstIndex(of: request) { model.outstanding.remove(at: index) }
            if model.owned[request.direction]?.id == request.id { model.owned[request.direction] = nil }
            let failuresBefore = controller.counters.failures
            let actions =
                fails
                ? controller.pageFailed(request, error: "injected", now: now)
                : controller.pageArrived(request, page: try request.run(on: feed), now: now)
            let droppedIt = actions.contains(.dropStale(request))
            #expect(
                droppedIt == !takes,
                "answer \(request.id) (\(request.kind), generation \(request.generation)): dropped \(droppedIt), model says \(takes ? "take" : "drop")",
                sourceLocation: sourceLocation)
            if takes {
                taken += 1
                if fails { #expect(controller.counters.failures == failuresBefore + 1, sourceLocation: sourceLocation) }
                if request.kind == .initial && !fails { model.initAnswered = true }
            } else {
                dropped += 1
                #expect(
                    !actions.contains { if case .apply = $0 { return true } else { return false } },
                    "a dropped answer changed the list", sourceLocation: sourceLocation)
            }
            if !model.answered.contains(request) { model.answered.append(request) }
            try perform(actions, sourceLocation: sourceLocation)
        }

        mutating func step(_ rng: inout SplitMix64) throws {
            now += Double(rng.next() % 200)
            switch rng.next() % 100 {
            case 0..<30:
                let maxOffset = max(0, layout.contentSize.height - viewportSize.height)
                offset = rng.nextUnit() < 0.3 ? (rng.nextUnit() < 0.5 ? 0 : maxOffset) : rng.nextUnit() * maxOffset
                try perform(controller.viewportChanged(currentViewport(), now: now))
            case 30..<60 where !model.outstanding.isEmpty:
                let request = model.outstanding[Int(rng.next() % UInt64(model.outstanding.count))]
                try answer(request, fails: rng.nextUnit() < 0.15)
            case 60..<65 where !model.answered.isEmpty:
                try answer(model.answered[Int(rng.next() % UInt64(model.answered.count))], fails: rng.nextUnit() < 0.3)
            case 65..<74:
                let distance = rng.nextUnit() * 100
                let threshold = controller.configuration.refreshThreshold
                // The model's rule: a pull at or past the threshold starts a Refresh in a new
                // generation once Init answered and no top request is in flight.
                let refreshes = model.initAnswered && distance >= threshold && model.owned[.top] == nil
                if refreshes {
                    model.advanceGeneration()
                    acceptedPulls += 1
                }
                let actions = controller.pullReleased(distance: distance, now: now)
                let refreshFetches = actions.filter {
                    if case .fetch(let r) = $0 { return r.kind == .refresh } else { return false }
                }
                #expect(refreshFetches.count == (refreshes ? 1 : 0), "pull \(distance) pt: \(actions)")
                try perform(actions)
            case 74..<80:
                let count = Int(1 + rng.next() % 12)
                feed.insertNewer(count, height: FeedControllerPropertyTests.height)
                try perform(controller.upstreamInserted(count: count, now: now))
            case 80..<84:
                try perform(controller.retry(now: now))
            default:
                try perform(controller.tick(now: now))
            }
        }
    }

    @Test(arguments: 0..<4, [UInt64(5), 71])
    func answersAreDroppedExactlyWhenTheModelSaysTheyAreStale(configurationIndex: Int, seed: UInt64) throws {
        let (_, configuration) = FeedControllerPropertyTests.configurations[configurationIndex]
        var driver = try Driver(configuration: configuration, feedSize: 300)
        var rng = SplitMix64(seed: seed &* 7919 &+ UInt64(configurationIndex))
        try driver.perform(driver.controller.start(now: 0))
        for _ in 0..<800 {
            try driver.step(&rng)
        }
        // The sequences must exercise both sides of the rule and the generation's moves.
        #expect(driver.taken > 50)
        #expect(driver.dropped > 5)
        #expect(driver.acceptedPulls > 0)
        #expect(driver.controller.counters.failures > 0)
        #expect(driver.controller.counters.morePages > 0)
    }

    @Test func theBottomHasNoLaneUntilInitAnswersEvenThroughFailuresAndPulls() throws {
        var controller = try FeedController(
            configuration: .init(pageSize: 2, retry: .init(baseMilliseconds: 100, maxAttempts: 2, jitter: 0)))
        let short = FeedController.Viewport(
            contentOffset: 0, viewportLength: 800, contentLength: 0, firstVisibleIndex: nil, lastVisibleIndex: nil)
        #expect(controller.viewportChanged(short, now: 0) == [])
        let first = try #require(onlyFetch(controller.start(now: 0)))
        // A report while Init is out fires nothing (nothing loads below an empty list).
        #expect(controller.viewportChanged(short, now: 1) == [])
        // Attempt 1 fails: a retry at 100 ms (base 100, no jitter); a pull restarts Init at attempt 1.
        #expect(controller.pageFailed(first, error: "e", now: 0) == [.scheduleRetry(at: 100, direction: .top)])
        #expect(controller.loadState(.bottom) == .idle)
        let pulled = controller.pullReleased(distance: 60, now: 10)
        let second = try #require(onlyFetch(pulled))
        #expect(second.kind == .initial && second.attempt == 1 && second.generation == 0)
        #expect(controller.generation == 0)
        // The first attempt's answer is no longer the top's request: dropped.
        #expect(
            controller.pageArrived(first, page: Page(items: [], hasMoreBefore: false, hasMoreAfter: false), now: 11)
                == [.dropStale(first)])
        // A tick past the old retry time does nothing: the waiting attempt was replaced.
        #expect(controller.tick(now: 200) == [])
        #expect(controller.invariantViolation == nil)
    }
}
