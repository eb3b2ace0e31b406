import FeedEngine
import FeedLayout
import FeedModel

/// A brute-force in-memory feed: a sorted array, pages cut by filtering it (the oracle for keyset paging).
struct ControllerTestFeed: PageSource {
    /// Items in feed order (newest first).
    var items: [Item]

    func newest(limit: Int) -> Page {
        let slice = Array(items.prefix(limit))
        return Page(items: slice, hasMoreBefore: false, hasMoreAfter: items.count > slice.count)
    }

    func after(_ cursor: Cursor, limit: Int) -> Page {
        let older = items.filter { cursor < $0.cursor }
        let slice = Array(older.prefix(limit))
        return Page(items: slice, hasMoreBefore: items.contains { $0.cursor <= cursor }, hasMoreAfter: older.count > limit)
    }

    func before(_ cursor: Cursor, limit: Int) -> Page {
        let newer = items.filter { $0.cursor < cursor }
        let slice = Array(newer.suffix(limit))
        return Page(items: slice, hasMoreBefore: newer.count > limit, hasMoreAfter: items.contains { cursor <= $0.cursor })
    }

    /// Adds `count` items newer than all, ids continuing from the largest.
    mutating func insertNewer(_ count: Int, height: (Int64) -> Double) {
        let top = items.first?.id ?? 0
        let added = (1...max(1, count)).reversed().map { controllerTestItem(top + Int64($0), height: height(top + Int64($0))) }
        items.insert(contentsOf: added, at: 0)
    }
}

/// Item `id`, published at `id` seconds (so a larger id is newer), kind "post".
func controllerTestItem(_ id: Int64, height: Double = 100) -> Item {
    Item(id: id, publishedAt: id * 1000, kind: "post", width: 320, height: height)
}

/// Items with ids `from` down to `to` (feed order).
func controllerTestItems(_ from: Int64, through to: Int64, height: Double = 100) -> [Item] {
    stride(from: from, through: to, by: -1).map { controllerTestItem($0, height: height) }
}

/// A one-column list: each item as tall as its intrinsic height, full viewport width, stacked from y = 0.
/// Brute force on purpose (a test double, not a layout to ship).
final class ControllerStackLayout: CollectionLayout {
    private(set) var heights: [Double] = []
    private(set) var viewport = Size.zero

    func prepare(sizes: [Size], viewport: Size) throws {
        heights = sizes.map(\.height)
        self.viewport = viewport
    }
    func append(sizes: [Size]) { heights += sizes.map(\.height) }
    func prepend(sizes: [Size]) { heights.insert(contentsOf: sizes.map(\.height), at: 0) }
    func removeFirst(_ n: Int) { heights.removeFirst(n) }
    func removeLast(_ n: Int) { heights.removeLast(n) }
    var itemCount: Int { heights.count }
    var contentSize: Size { Size(width: viewport.width, height: heights.reduce(0, +)) }

    func attributesForElements(in rect: Rect) -> [LayoutAttributes] {
        (0..<heights.count).compactMap { attributesForItem(at: $0) }.filter { $0.frame.intersects(rect) }
    }
    func attributesForItem(at index: Int) -> LayoutAttributes? {
        guard heights.indices.contains(index) else { return nil }
        let y = heights[..<index].reduce(0, +)
        return LayoutAttributes(
            indexPath: IndexPath(item: index), frame: Rect(x: 0, y: y, width: viewport.width, height: heights[index]))
    }
    func attributesForSupplementaryView(ofKind kind: SupplementaryKind) -> LayoutAttributes? { nil }
    func shouldInvalidateLayout(forBoundsChange newBounds: Rect) -> Bool { false }
    func invalidateLayout(forBoundsChange newBounds: Rect) {}
    func targetContentOffset(forProposed proposed: Point, velocity: Point) -> Point {
        Point(x: 0, y: min(max(0, proposed.y), max(0, contentSize.height - viewport.height)))
    }
    func setMeasuredSize(_ size: Size, forItemAt index: Int, contentOffset: Point) -> Double { 0 }
}

extension FeedController.FetchRequest {
    /// A request literal for expected action lists.
    static func expected(
        _ id: Int, _ direction: LoadDirection, _ kind: FeedController.LoadKind, _ query: FeedController.PageQuery,
        limit: Int, generation: Int = 0, attempt: Int = 1
    ) -> Self {
        Self(id: id, direction: direction, kind: kind, query: query, limit: limit, generation: generation, attempt: attempt)
    }
}

/// The controller's one fetch in `actions`, for tests that answer it.
func onlyFetch(_ actions: [FeedAction]) -> FeedController.FetchRequest? {
    let fetches = actions.compactMap { action -> FeedController.FetchRequest? in
        if case .fetch(let request) = action { return request }
        return nil
    }
    return fetches.count == 1 ? fetches[0] : nil
}
