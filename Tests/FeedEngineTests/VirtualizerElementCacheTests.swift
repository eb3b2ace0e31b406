import FeedLayout
import FeedModel
import Testing

@testable import FeedEngine

/// A layout that forwards everything to a grid but keeps no generation: the virtualizer asks it
/// every update and filters nothing it kept, the behaviour before the element cache (the oracle).
private final class UncachedLayout: CollectionLayout {
    let inner: any CollectionLayout
    init(_ inner: any CollectionLayout) { self.inner = inner }
    func prepare(sizes: [Size], viewport: Size) throws { try inner.prepare(sizes: sizes, viewport: viewport) }
    func append(sizes: [Size]) { inner.append(sizes: sizes) }
    func prepend(sizes: [Size]) { inner.prepend(sizes: sizes) }
    func removeFirst(_ n: Int) { inner.removeFirst(n) }
    func removeLast(_ n: Int) { inner.removeLast(n) }
    var itemCount: Int { inner.itemCount }
    var viewport: Size { inner.viewport }
    var contentSize: Size { inner.contentSize }
    func attributesForElements(in rect: Rect) -> [LayoutAttributes] { inner.attributesForElements(in: rect) }
    func attributesForItem(at index: Int) -> LayoutAttributes? { inner.attributesForItem(at: index) }
    func attributesForSupplementaryView(ofKind kind: SupplementaryKind) -> LayoutAttributes? {
        inner.attributesForSupplementaryView(ofKind: kind)
    }
    func setSupplementaryView(ofKind kind: SupplementaryKind, hidden: Bool) {
        inner.setSupplementaryView(ofKind: kind, hidden: hidden)
    }
    func shouldInvalidateLayout(forBoundsChange newBounds: Rect) -> Bool {
        inner.shouldInvalidateLayout(forBoundsChange: newBounds)
    }
    func invalidateLayout(forBoundsChange newBounds: Rect) { inner.invalidateLayout(forBoundsChange: newBounds) }
    func targetContentOffset(forProposed proposed: Point, velocity: Point) -> Point {
        inner.targetContentOffset(forProposed: proposed, velocity: velocity)
    }
    func setMeasuredSize(_ size: Size, forItemAt index: Int, contentOffset: Point) -> Double { 0 }
}

@Suite struct VirtualizerElementCacheTests {
    /// The window's promise, against a brute-force intersection test: whenever a moved rect is
    /// inside the window taken for the old one, the same elements intersect both.
    @Test func aRectInsideItsWindowIntersectsTheSameElements() {
        var rng = SplitMix64(seed: 0x5eed_0013)
        var contained = 0
        for axis in [ScrollAxis.vertical, .horizontal] {
            for _ in 0..<300 {
                let elements: [LayoutAttributes] = (0..<Int(rng.next() % 40)).map { index in
                    // Integral edges half the time, so rect edges often land exactly on element edges.
                    func coordinate(_ scale: Double) -> Double {
                        rng.next() % 2 == 0 ? Double(rng.next() % UInt64(scale)) : rng.nextUnit() * scale
                    }
                    let empty = rng.next() % 10 == 0
                    return LayoutAttributes(
                        indexPath: IndexPath(item: index), category: .cell,
                        frame: Rect(
                            x: coordinate(400), y: coordinate(400), width: empty ? 0 : 1 + coordinate(120),
                            height: 1 + coordinate(120)))
                }
                let rect = Rect(
                    x: Double(rng.next() % 300), y: Double(rng.next() % 300), width: 1 + Double(rng.next() % 200),
                    height: 1 + Double(rng.next() % 200))
                let window = elements.withUnsafeBufferPointer { MembershipWindow(rect: rect, elements: $0, axis: axis) }
                let before = elements.map { $0.frame.intersects(rect) }
                for _ in 0..<20 {
                    let shift = rng.next() % 3 == 0 ? Double(Int(rng.next() % 21) - 10) : (rng.nextUnit() - 0.5) * 30
                    let grow = rng.next() % 4 == 0 ? Double(Int(rng.next() % 7) - 3) : 0
                    let moved = axis.extending(rect, before: -shift, after: shift + grow)
                    guard window.contains(moved, axis: axis) else { continue }
                    contained += 1
                    #expect(elements.map { $0.frame.intersects(moved) } == before, "\(rect) → \(moved)")
                }
                // Across the axis nothing may move.
                let across = axis == .vertical ? Rect(x: rect.minX + 1, y: rect.minY, width: rect.width, height: rect.height)
                    : Rect(x: rect.minX, y: rect.minY + 1, width: rect.width, height: rect.height)
                #expect(!window.contains(across, axis: axis))
            }
        }
        // The test means something only if many moves stayed inside their windows.
        #expect(contained > 2000)
        #expect(!MembershipWindow().contains(Rect(x: 0, y: 0, width: 10, height: 10), axis: .vertical))
    }

    /// The virtualizer over a grid (which counts its changes, so updates filter a kept answer)
    /// gives exactly what it gives over the same grid asked every update, on random scrolls,
    /// flings, jumps, direction changes, appends, prepends, page drops, footer changes, width
    /// changes and row arrivals.
    @Test(arguments: [RangeConfiguration.preset(named: "uikit")!, .preset(named: "flashlist")!, .preset(named: "texture")!,
        RangeConfiguration(prefetch: .items(leading: 4, trailing: 2), preload: .points(leading: 600, trailing: 0))])
    func gridUpdatesEqualThoseOfAGridAskedEveryUpdate(configuration: RangeConfiguration) throws {
        for seed in UInt64(1)...4 {
            try compareSessions(configuration: configuration, seed: seed)
        }
    }

    private func compareSessions(configuration: RangeConfiguration, seed: UInt64) throws {
        var rng = SplitMix64(seed: seed &* 0x9e37_79b9)
        let layoutConfiguration = LayoutConfiguration(
            kind: .grid, columns: 1 + Int(rng.next() % 4), spacing: Double(rng.next() % 3) * 4,
            headerHeight: rng.next() % 2 == 0 ? 0 : 60, footerHeight: rng.next() % 2 == 0 ? 0 : 44,
            refreshHeight: rng.next() % 2 == 0 ? 0 : 50)
        let cached = try layoutConfiguration.makeLayout()
        let oracleLayout = UncachedLayout(try layoutConfiguration.makeLayout())
        // A grid counts its changes from 0 (nothing set since it was made); the wrapper counts none.
        #expect(cached.layoutGeneration == 0)
        #expect(oracleLayout.layoutGeneration == nil)
        var viewport = Size(width: 390, height: 844)
        let kinds = ["photo", "video", "ad"]
        var nextID: Int64 = 1
        func makeItems(_ n: Int) -> [Item] {
            (0..<n).map { _ in
                defer { nextID += 1 }
                return Item(id: nextID, publishedAt: 0, kind: kinds[Int(rng.next() % 3)], width: 100, height: 100)
            }
        }
        var items = makeItems(60)
        let sizes = items.map { Size(width: $0.width, height: $0.height) }
        try cached.prepare(sizes: sizes, viewport: viewport)
        try oracleLayout.prepare(sizes: sizes, viewport: viewport)
        let pool = Int(rng.next() % 4)
        let v = try Virtualizer(layout: cached, configuration: configuration, reusePoolLimit: pool, rowBatchLimit: 6)
        let oracle = try Virtualizer(
            layout: oracleLayout, configuration: configuration, reusePoolLimit: pool, rowBatchLimit: 6)
        var offset = 0.0
        var velocity = 0.0
        for step in 0..<600 {
            let context = "seed \(seed) step \(step) offset \(offset)"
            switch rng.next() % 100 {
            case 0..<4:
                let more = makeItems(20)
                items += more
                for layout in [cached, oracleLayout] { layout.append(sizes: more.map { _ in Size(width: 100, height: 100) }) }
            case 4..<6:
                let newer = makeItems(6)
                items = newer + items
                for layout in [cached, oracleLayout] { layout.prepend(sizes: newer.map { _ in Size(width: 100, height: 100) }) }
            case 6..<8 where items.count > 40:
                items.removeFirst(20)
                for layout in [cached, oracleLayout] { layout.removeFirst(20) }
            case 8..<10 where items.count > 40:
                items.removeLast(20)
                for layout in [cached, oracleLayout] { layout.removeLast(20) }
            case 10..<12:
                let hidden = rng.next() % 2 == 0
                for layout in [cached, oracleLayout] { layout.setSupplementaryView(ofKind: .footer, hidden: hidden) }
            case 12:
                viewport = Size(width: [390, 430, 320][Int(rng.next() % 3)], height: viewport.height)
                for layout in [cached, oracleLayout] {
                    layout.invalidateLayout(forBoundsChange: Rect(origin: Point(x: 0, y: offset), size: viewport))
                }
            default: break
            }
            // Scrolls as a flinger does: a fling decaying frame by frame, sometimes a jump or a stop.
            switch rng.next() % 40 {
            case 0: offset = rng.nextUnit() * cached.contentSize.height - 200
            case 1, 2: velocity = (rng.nextUnit() - 0.35) * 9000
            case 3: velocity = 0
            default: break
            }
            offset += velocity / 120
            velocity *= 0.97
            if abs(velocity) < 20 { velocity = 0 }
            let update = v.update(
                contentOffset: Point(x: 0, y: offset), viewport: viewport, items: items,
                scrollVelocity: Point(x: 0, y: velocity))
            let expected = oracle.update(
                contentOffset: Point(x: 0, y: offset), viewport: viewport, items: items,
                scrollVelocity: Point(x: 0, y: velocity))
            #expect(update == expected, "\(context)")
            #expect(v.visibleAttributes == oracle.visibleAttributes, "\(context)")
            #expect(v.visibleCellFrames == oracle.visibleCellFrames, "\(context)")
            #expect(v.visibleCellItemIDs == oracle.visibleCellItemIDs, "\(context)")
            #expect(v.visibleCellIndexRange == oracle.visibleCellIndexRange, "\(context)")
            #expect(v.visibleCellRowBound == oracle.visibleCellRowBound, "\(context)")
            #expect(v.visibleGeneration == oracle.visibleGeneration, "\(context)")
            #expect(v.liveCells == oracle.liveCells, "\(context)")
            #expect(v.liveSupplementaryViews == oracle.liveSupplementaryViews, "\(context)")
            #expect(v.preloadRangeItemIDs == oracle.preloadRangeItemIDs, "\(context)")
            #expect(v.pendingFetchIDs == oracle.pendingFetchIDs, "\(context)")
            // Rows arrive for some fetches, the same ones on both sides; a few fetches fail.
            for fetchID in v.pendingFetchIDs where rng.next() % 3 == 0 {
                if rng.next() % 8 == 0 {
                    v.rowsFailed(fetchID: fetchID)
                    oracle.rowsFailed(fetchID: fetchID)
                    continue
                }
                let ids = v.fetches[fetchID]!.itemIDs
                let batch = RowBatch(rows: ids.map(virtualizerTestRow), missing: [])
                #expect(v.rowsArrived(fetchID: fetchID, batch: batch) == oracle.rowsArrived(fetchID: fetchID, batch: batch))
            }
        }
        #expect(v.counters == oracle.counters)
        // The cache did its work: far fewer queries than updates (the oracle asks every time).
        #expect(oracle.layoutQueries == 600)
        #expect(v.layoutQueries < 300, "\(v.layoutQueries) queries in 600 updates")
    }
}
