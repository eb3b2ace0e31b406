import FeedEngine
import FeedLayout
import FeedModel
import Testing

/// Random event sequences (fixed seeds) against a brute-force in-memory feed and a stacked test layout.
/// After every event: the loaded list is a contiguous slice of the feed (ids unique, feed order, no gap),
/// the driver's mirror of the applied changes equals `items`, at most one request per direction is
/// physically in flight, no request is applied twice, stale answers are never merged, and every
/// anchored change leaves every surviving item at the same place on screen (anchor drift 0).
@Suite struct FeedControllerPropertyTests {
    typealias Request = FeedController.FetchRequest

    static func height(_ id: Int64) -> Double { 40 + Double((id &* 37) % 161) }

    struct Driver {
        var controller: FeedController
        var feed: ControllerTestFeed
        let layout = ControllerStackLayout()
        let viewportSize = Size(width: 320, height: 800)
        var offset = 0.0
        var mirror: [Item] = []
        var outstanding: [Request] = []
        var answered: [Request] = []
        var applied = Set<Int>()
        var now = 0.0
        var anchoredChanges = 0
        var mergedRefreshes = 0
        /// Every action the controller returned, in order (FeedControllerQuietReportTests compares two drivers').
        var actionLog: [FeedAction] = []

        init(configuration: FeedController.Configuration, feedSize: Int64) throws {
            controller = try FeedController(configuration: configuration)
            feed = ControllerTestFeed(
                items: stride(from: feedSize, through: 1, by: -1).map { controllerTestItem($0, height: height($0)) })
            try layout.prepare(sizes: [], viewport: viewportSize)
        }

        /// Screen position (y − offset) of every loaded item, by id, from the mirror list's prefix sums.
        func screenPositions() -> [Int64: Double] {
            var y = 0.0
            var result: [Int64: Double] = [:]
            for item in mirror {
                result[item.id] = y - offset
                y += item.height
            }
            return result
        }

        func currentViewport() -> FeedController.Viewport {
            let rect = Rect(origin: Point(x: 0, y: offset), size: viewportSize)
            let visible = layout.attributesForElements(in: rect).map(\.indexPath.item)
            return .init(
                contentOffset: offset, viewportLength: viewportSize.height, contentLength: layout.contentSize.height,
                firstVisibleIndex: visible.min(), lastVisibleIndex: visible.max())
        }

        /// Carries out the actions of one event; `answering` is the request whose answer caused them.
        mutating func perform(
            _ actions: [FeedAction], answering: Request? = nil, generationBefore: Int,
            sourceLocation: SourceLocation = #_sourceLocation
        ) throws {
            var changed = false
            actionLog += actions
            for action in actions {
                switch action {
                case .fetch(let request):
                    // One load per direction and generation: a More of an older generation is
                    // abandoned by a Refresh (as Paging 3 cancels it) and may still be out.
                    #expect(
                        !outstanding.contains { $0.direction == request.direction && $0.generation == request.generation },
                        "second \(request.direction) load in flight", sourceLocation: sourceLocation)
                    #expect(
                        !outstanding.contains {
                            $0.direction == request.direction && $0.generation == controller.generation
                                && $0.id != request.id
                        },
                        "a current \(request.direction) load was still the direction's", sourceLocation: sourceLocation)
                    outstanding.append(request)
                case .apply(let change):
                    let request = try #require(answering, "apply without a page", sourceLocation: sourceLocation)
                    #expect(request.generation == generationBefore, "stale page merged", sourceLocation: sourceLocation)
                    applied.insert(request.id)
                    try apply(change, sourceLocation: sourceLocation)
                    changed = true
                case .dropStale(let request):
                    #expect(request == answering, sourceLocation: sourceLocation)
                case .scheduleRetry, .phaseChanged:
                    break
                }
            }
            if let answering, answering.generation != generationBefore {
                #expect(actions.contains(.dropStale(answering)), sourceLocation: sourceLocation)
            }
            check(sourceLocation: sourceLocation)
            if changed {
                // The driver reports the new geometry after applying.
                let generation = controller.generation
                try perform(
                    controller.viewportChanged(currentViewport(), now: now), generationBefore: generation,
                    sourceLocation: sourceLocation)
            }
        }

        mutating func apply(_ change: FeedChange, sourceLocation: SourceLocation) throws {
            let before = screenPositions()
            let outcome = try ScrollAnchoring.apply(
                change, to: layout, contentOffset: Point(x: 0, y: offset), viewport: viewportSize)
            offset = outcome.contentOffset.y
            switch change {
            case .append(let items): mirror += items
            case .prepend(let items): mirror.insert(contentsOf: items, at: 0)
            case .replace(let items): mirror = items
            case .dropFirst(let n): mirror.removeFirst(n)
            case .dropLast(let n): mirror.removeLast(n)
            }
            if case .prepend = change, outcome.rule == .anchored { mergedRefreshes += 1 }
            guard outcome.rule == .anchored else { return }
            anchoredChanges += 1
            let after = screenPositions()
            for (id, y) in after {
                guard let old = before[id] else { continue }
                #expect(abs(y - old) < 1e-6, "item \(id) drifted \(y - old) pt", sourceLocation: sourceLocation)
            }
        }

        func check(sourceLocation: SourceLocation) {
            let items = controller.items
            #expect(items == mirror, "driver's list differs from the controller's", sourceLocation: sourceLocation)
            #expect(Set(items.map(\.id)).count == items.count, "duplicate ids", sourceLocation: sourceLocation)
            if let first = items.first, let start = feed.items.firstIndex(of: first) {
                let slice = feed.items[start..<min(feed.items.count, start + items.count)]
                #expect(Array(slice) == items, "not a contiguous slice of the feed", sourceLocation: sourceLocation)
            } else {
                #expect(items.isEmpty, "first item not in the feed", sourceLocation: sourceLocation)
            }
            #expect(controller.inFlightCount == outstanding.count, sourceLocation: sourceLocation)
            #expect(layout.itemCount == items.count, sourceLocation: sourceLocation)
        }

        mutating func step(_ rng: inout SplitMix64) throws {
            now += Double(rng.next() % 200)
            let generation = controller.generation
            let roll = rng.next() % 100
            switch roll {
            case 0..<30:
                // Scroll: anywhere from a slight pull to the end of the content.
                let maxOffset = max(0, layout.contentSize.height - viewportSize.height)
                let jump = rng.nextUnit() < 0.3
                offset = jump ? (rng.nextUnit() < 0.5 ? 0 : maxOffset) : (rng.nextUnit() * (maxOffset + 40)) - 20
                try perform(controller.viewportChanged(currentViewport(), now: now), generationBefore: generation)
            case 30..<60 where !outstanding.isEmpty:
                let index = Int(rng.next() % UInt64(outstanding.count))
                let request = outstanding.remove(at: index)
                answered.append(request)
                if rng.nextUnit() < 0.15 {
                    try perform(
                        controller.pageFailed(request, error: "injected", now: now), answering: request,
                        generationBefore: generation)
                } else {
                    let page = try request.run(on: feed)
                    let actions = controller.pageArrived(request, page: page, now: now)
                    #expect(!actions.contains { if case .apply = $0 { return applied.contains(request.id) } else { return false } })
                    try perform(actions, answering: request, generationBefore: generation)
                }
            case 60..<66 where !answered.isEmpty:
                // A duplicate delivery: dropped, nothing else.
                let request = answered[Int(rng.next() % UInt64(answered.count))]
                let actions = controller.pageArrived(request, page: try request.run(on: feed), now: now)
                #expect(actions == [.dropStale(request)])
            case 66..<74:
                try perform(
                    controller.pullReleased(distance: rng.nextUnit() * 100, now: now), generationBefore: generation)
            case 74..<80:
                let count = Int(1 + rng.next() % 12)
                feed.insertNewer(count, height: height)
                try perform(controller.upstreamInserted(count: count, now: now), generationBefore: generation)
            case 80..<83:
                try perform(controller.retry(now: now), generationBefore: generation)
            default:
                try perform(controller.tick(now: now), generationBefore: generation)
            }
        }
    }

    static let configurations: [(String, FeedController.Configuration)] = [
        ("defaults, page 5", .init(pageSize: 5, retry: .init(baseMilliseconds: 50, maxAttempts: 3, seed: 1))),
        (
            "dropping at 30, gap bound 1",
            .init(pageSize: 5, retry: .init(baseMilliseconds: 50, seed: 2), maxGapPages: 1, maxLoadedItems: 30)
        ),
        (
            "points prefetch, dropping at 40",
            .init(pageSize: 4, prefetchDistance: .points(600), retry: .init(baseMilliseconds: 80), maxLoadedItems: 40)
        ),
        ("screenfuls, no gap-fill", .init(pageSize: 6, prefetchDistance: .screenfuls(1.5), maxGapPages: 0)),
    ]

    @Test(arguments: 0..<4, [UInt64(11), 23, 37])
    func randomEventSequencesKeepTheInvariants(configurationIndex: Int, seed: UInt64) throws {
        let (_, configuration) = Self.configurations[configurationIndex]
        var driver = try Driver(configuration: configuration, feedSize: 300)
        var rng = SplitMix64(seed: seed &+ UInt64(configurationIndex) &* 1000)
        try driver.perform(driver.controller.start(now: 0), generationBefore: 0)
        for _ in 0..<600 {
            try driver.step(&rng)
        }
        // The sequences must exercise what they claim to check.
        #expect(driver.anchoredChanges > 0)
        #expect(driver.controller.counters.staleDropped > 0)
        #expect(driver.controller.counters.failures > 0)
        #expect(driver.controller.counters.morePages > 0)
        #expect(driver.controller.counters.refreshPages + driver.controller.counters.prependPages > 0)
    }
}
