import FeedLayout
import FeedModel
import Testing

/// Every layout against the brute-force oracle on random inputs (fixed seeds).
@Suite struct LayoutPropertyTests {
    @Test(arguments: LayoutKind.allCases)
    func rectQueriesEqualBruteForceFilterAndFramesStayInsideContent(kind: LayoutKind) throws {
        var random = RandomLayouts(seed: 0x5EED_0000 &+ UInt64(LayoutKind.allCases.firstIndex(of: kind)!))
        var prepared = 0
        for trial in 0..<150 {
            let viewport = random.viewport()
            let configuration = random.configuration(kind, viewport: viewport)
            let sizes = random.sizes(random.count())
            let layout = try configuration.makeLayout()
            do {
                try layout.prepare(sizes: sizes, viewport: viewport)
            } catch is LayoutError {
                continue  // e.g. spacing wider than the viewport; the validation tests cover these
            }
            prepared += 1
            if kind == .carousel {
                let offset = Point(x: random.length(-100...(layout.contentSize.width)), y: 0)
                layout.invalidateLayout(forBoundsChange: Rect(origin: offset, size: viewport))
            }
            if random.chance(0.3) { layout.setSupplementaryView(ofKind: .footer, hidden: true) }
            let all = layout.allAttributes()
            #expect(all.filter { $0.category == .cell }.count == sizes.count, "trial \(trial)")
            for element in all where element.category != .supplementary(.refresh) {
                #expect(isInside(element.frame, layout.contentSize), "trial \(trial): \(element.frame) outside \(layout.contentSize)")
            }
            // The refresh view sits just before the content, across the whole viewport.
            if let refresh = all.first(where: { $0.category == .supplementary(.refresh) }) {
                let axis = configuration.scrollAxis
                #expect(axis.end(of: refresh.frame) == 0 && axis.length(of: refresh.frame.size) == configuration.refreshHeight, "trial \(trial)")
            }
            // Every query set, plus one over the leading corner where the refresh view lies.
            let corner = Rect(x: -100, y: -100, width: viewport.width + 100, height: viewport.height + 100)
            for query in 0..<13 {
                let rect = query == 12 ? corner : random.rect(in: layout)
                let fast = layout.attributesForElements(in: rect)
                let oracle = all.filter { $0.frame.intersects(rect) }
                #expect(fast == oracle, "trial \(trial) \(configuration) rect \(rect): \(indices(fast)) vs \(indices(oracle))")
            }
            let proposed = Point(x: random.length(-500...5000), y: random.length(-500...50_000))
            let target = layout.targetContentOffset(forProposed: proposed, velocity: Point(x: 0, y: 300))
            let limit = layout.maxContentOffset
            #expect(target.x >= 0 && target.x <= limit.x && target.y >= 0 && target.y <= limit.y, "trial \(trial)")
        }
        #expect(prepared >= 100, "too few valid configurations (\(prepared)) for the test to mean much")
    }

    /// Rect queries keep a hint (where the last answer began) and start the next search there.
    /// A scroll sequence — small steps both ways, overscan margins, rubber-banding past both
    /// edges, jumps anywhere (to the top, the end, a random offset), and now and then a change
    /// (append, prepend, removeFirst/Last, a bounds change, a measured row) between two queries —
    /// answers every query as the brute-force filter of all attributes does.
    @Test(arguments: LayoutKind.allCases)
    func hintedScrollQueriesEqualBruteForceFilterAcrossJumpsAndChanges(kind: LayoutKind) throws {
        var random = RandomLayouts(seed: 0x5C20_1100 &+ UInt64(LayoutKind.allCases.firstIndex(of: kind)!))
        var queries = 0
        var jumps = 0
        for trial in 0..<25 {
            let viewport = random.viewport()
            let configuration = random.configuration(kind, viewport: viewport)
            let axis = configuration.scrollAxis
            let layout = try configuration.makeLayout()
            guard (try? layout.prepare(sizes: random.sizes(random.int(0...1_500)), viewport: viewport)) != nil else {
                continue
            }
            var oracle = layout.allAttributes()
            var buffer: [LayoutAttributes] = []
            var offset = 0.0
            var velocity = random.length(-400...400)  // points per step
            for step in 0..<300 {
                let end = axis.component(of: layout.maxContentOffset)
                switch random.int(0...99) {
                case 0..<4:  // a jump: to the top, to the end, or anywhere
                    offset = [0, end, random.length(0...max(end, 1))][random.int(0...2)]
                    jumps += 1
                case 4..<7:  // a change between two queries
                    switch random.int(0...5) {
                    case 0: layout.append(sizes: random.sizes(random.int(1...40)))
                    case 1: layout.prepend(sizes: random.sizes(random.int(1...40)))
                    case 2: layout.removeFirst(random.int(0...30))
                    case 3: layout.removeLast(random.int(0...30))
                    case 4:
                        let bounds = Rect(origin: axis.point(offset), size: viewport)
                        if layout.shouldInvalidateLayout(forBoundsChange: bounds) {
                            layout.invalidateLayout(forBoundsChange: bounds)
                        }
                    default:
                        if layout.itemCount > 0 {
                            let index = random.int(0...(layout.itemCount - 1))
                            _ = layout.setMeasuredSize(random.size(), forItemAt: index, contentOffset: axis.point(offset))
                        }
                    }
                    oracle = layout.allAttributes()
                case 7..<15:
                    velocity = random.length(-400...400)
                default:
                    break
                }
                offset = min(max(offset + velocity, -120), axis.component(of: layout.maxContentOffset) + 120)
                if kind == .carousel {  // the carousel's attributes follow the offset
                    let bounds = Rect(origin: axis.point(offset), size: viewport)
                    if layout.shouldInvalidateLayout(forBoundsChange: bounds) {
                        layout.invalidateLayout(forBoundsChange: bounds)
                        oracle = layout.allAttributes()
                    }
                }
                // The viewport, extended by an overscan margin before and after.
                let rect = axis.extending(
                    Rect(origin: axis.point(offset), size: viewport), before: random.length(0...300),
                    after: random.length(0...300))
                // Half the queries fill one buffer kept across queries (the virtualizer's call),
                // which still holds the last answer: it must be emptied, never appended to.
                let fast: [LayoutAttributes]
                if step % 2 == 0 {
                    fast = layout.attributesForElements(in: rect)
                } else {
                    layout.attributesForElements(in: rect, into: &buffer)
                    fast = buffer
                }
                let expected = oracle.filter { $0.frame.intersects(rect) }
                #expect(
                    fast == expected,
                    "trial \(trial) step \(step) \(configuration) rect \(rect): \(indices(fast)) vs \(indices(expected))")
                queries += 1
            }
        }
        #expect(queries >= 5_000 && jumps >= 150, "too few queries (\(queries)) or jumps (\(jumps)) to mean much")
    }

    /// Append, prepend, removeFirst/Last in random order give the same frames as preparing the
    /// resulting sizes from scratch (whole-point inputs, so both paths are exact).
    @Test(arguments: LayoutKind.allCases)
    func incrementalChangesMatchAFreshLayout(kind: LayoutKind) throws {
        var random = RandomLayouts(seed: 0xC0FFEE &+ UInt64(LayoutKind.allCases.firstIndex(of: kind)!), integral: true)
        var checked = 0
        for trial in 0..<40 {
            let viewport = random.viewport()
            var configuration = random.configuration(kind, viewport: viewport)
            configuration.estimatedHeight = nil
            var sizes = random.sizes(random.count())
            let layout = try configuration.makeLayout()
            guard (try? layout.prepare(sizes: sizes, viewport: viewport)) != nil else { continue }
            for step in 0..<8 {
                let change = random.sizes(random.int(0...20))
                switch random.int(0...3) {
                case 0:
                    layout.append(sizes: change)
                    sizes += change
                case 1:
                    layout.prepend(sizes: change)
                    sizes.insert(contentsOf: change, at: 0)
                case 2:
                    let n = random.int(0...min(sizes.count, 25))
                    layout.removeFirst(n)
                    sizes.removeFirst(n)
                default:
                    let n = random.int(0...min(sizes.count, 25))
                    layout.removeLast(n)
                    sizes.removeLast(n)
                }
                // Query in between, so lazily cached offsets are exercised mid-sequence.
                let rect = random.rect(in: layout)
                #expect(layout.attributesForElements(in: rect) == layout.bruteForceAttributes(in: rect), "trial \(trial) step \(step)")
                let fresh = try configuration.makeLayout()
                try fresh.prepare(sizes: sizes, viewport: viewport)
                #expect(layout.allAttributes() == fresh.allAttributes(), "trial \(trial) step \(step)")
                #expect(layout.contentSize == fresh.contentSize, "trial \(trial) step \(step)")
                checked += 1
            }
        }
        #expect(checked >= 200)
    }

    /// A self-sizing list, measured row by row in random order, ends where a list prepared with
    /// the measured heights starts; every adjustment equals the height change of rows above the offset.
    @Test func measuredListMatchesListPreparedWithMeasuredHeights() throws {
        var random = RandomLayouts(seed: 77, integral: true)
        for trial in 0..<40 {
            let viewport = random.viewport()
            var configuration = random.configuration(.list, viewport: viewport)
            configuration.estimatedHeight = random.length(10...120)
            let count = random.count()
            let layout = try configuration.makeLayout()
            guard (try? layout.prepare(sizes: Array(repeating: .zero, count: count), viewport: viewport)) != nil else { continue }
            var heights = Array(repeating: configuration.estimatedHeight!, count: count)
            for index in (0..<count).shuffled(using: &random.rng) {
                let offset = Point(x: 0, y: random.length(0...3000))
                let top = try #require(layout.attributesForItem(at: index)).frame.minY
                let height = random.length(0...300)
                let expected = top < offset.y ? height - heights[index] : 0
                heights[index] = height
                #expect(layout.setMeasuredSize(Size(width: 1, height: height), forItemAt: index, contentOffset: offset) == expected)
                let rect = random.rect(in: layout)
                #expect(layout.attributesForElements(in: rect) == layout.bruteForceAttributes(in: rect), "trial \(trial)")
            }
            configuration.estimatedHeight = nil
            let fresh = try configuration.makeLayout()
            try fresh.prepare(sizes: heights.map { Size(width: 1, height: $0) }, viewport: viewport)
            #expect(layout.allAttributes() == fresh.allAttributes(), "trial \(trial)")
            #expect(layout.contentSize == fresh.contentSize, "trial \(trial)")
        }
    }
}
