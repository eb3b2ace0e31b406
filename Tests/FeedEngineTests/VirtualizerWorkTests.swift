import FeedLayout
import FeedModel
import Testing

@testable import FeedEngine

/// Forwards to a layout and counts the queries the virtualizer makes.
private final class CountingLayout: CollectionLayout {
    let base: VirtualizerTestLayout
    var rectQueries = 0
    var itemQueries = 0
    init(_ base: VirtualizerTestLayout) { self.base = base }

    func prepare(sizes: [Size], viewport: Size) throws { try base.prepare(sizes: sizes, viewport: viewport) }
    func append(sizes: [Size]) { base.append(sizes: sizes) }
    func prepend(sizes: [Size]) { base.prepend(sizes: sizes) }
    func removeFirst(_ n: Int) { base.removeFirst(n) }
    func removeLast(_ n: Int) { base.removeLast(n) }
    var itemCount: Int { base.itemCount }
    var viewport: Size { base.viewport }
    var contentSize: Size { base.contentSize }
    func attributesForElements(in rect: Rect) -> [LayoutAttributes] {
        rectQueries += 1
        return base.attributesForElements(in: rect)
    }
    func attributesForItem(at index: Int) -> LayoutAttributes? {
        itemQueries += 1
        return base.attributesForItem(at: index)
    }
    func attributesForSupplementaryView(ofKind kind: SupplementaryKind) -> LayoutAttributes? {
        base.attributesForSupplementaryView(ofKind: kind)
    }
    func shouldInvalidateLayout(forBoundsChange newBounds: Rect) -> Bool { false }
    func invalidateLayout(forBoundsChange newBounds: Rect) {}
    func targetContentOffset(forProposed proposed: Point, velocity: Point) -> Point { proposed }
    func setMeasuredSize(_ size: Size, forItemAt index: Int, contentOffset: Point) -> Double { 0 }
}

@Suite struct VirtualizerWorkTests {
    @Test(arguments: [
        (RangeConfiguration.texture, 1, 0),  // screenfuls: one query for both ranges
        (RangeConfiguration.flashlist, 1, 0),
        // Items: one query for the visible indices, one for the ranges; lookups 2 + 1 and 15 + 15.
        (RangeConfiguration.reactWindow, 2, 2 + 1 + 15 + 15),
    ])
    func anUpdateAsksTheLayoutOnlyForItsRangesNeverForEveryItem(
        configuration: RangeConfiguration, rectQueries: Int, maxItemQueries: Int
    ) throws {
        let viewport = Size(width: 320, height: 600)
        let layout = CountingLayout(
            VirtualizerTestLayout.list(heights: Array(repeating: 100, count: 2000), viewport: viewport))
        let v = try Virtualizer(layout: layout, configuration: configuration)
        let items = virtualizerTestItems(count: 2000)
        _ = v.update(contentOffset: Point(x: 0, y: 50_000), viewport: viewport, items: items)
        layout.rectQueries = 0
        layout.itemQueries = 0
        _ = v.update(
            contentOffset: Point(x: 0, y: 50_100), viewport: viewport, items: items,
            scrollVelocity: Point(x: 0, y: 100))
        #expect(layout.rectQueries == rectQueries)
        #expect(layout.itemQueries <= maxItemQueries)
    }
}
