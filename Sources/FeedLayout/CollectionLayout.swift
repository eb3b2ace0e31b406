/// The `UICollectionViewLayout` model: places every element of a one-section feed and answers
/// which elements a rect holds. Layouts are reference types with caches, like UIKit's; one
/// instance belongs to one session (not shared across threads).
///
/// Lifecycle: `prepare(sizes:viewport:)` once, then `append` (More), `prepend` (Refresh),
/// `removeFirst`/`removeLast` (page dropping) and bounds changes, each recomputing only what
/// follows the first invalid index where the layout allows.
public protocol CollectionLayout: AnyObject {
    /// Lays out `sizes.count` items with these intrinsic (or estimated) sizes in a viewport.
    /// - Throws: ``LayoutError`` naming the parameter when the configuration cannot lay anything out.
    func prepare(sizes: [Size], viewport: Size) throws

    /// Adds items after the last one (More). Items already placed keep their frames.
    func append(sizes: [Size])
    /// Inserts items before the first one (Refresh / prepend); existing items keep their order.
    func prepend(sizes: [Size])
    /// Removes the first `n` items (page dropping at the top).
    func removeFirst(_ n: Int)
    /// Removes the last `n` items (page dropping at the bottom).
    func removeLast(_ n: Int)

    /// Number of items laid out.
    var itemCount: Int { get }
    /// The viewport size the layout was prepared for.
    var viewport: Size { get }
    /// Size of the whole content, points: true content only (no padding to the viewport).
    var contentSize: Size { get }

    /// All elements (cells and supplementary views) whose frames intersect `rect` (half-open),
    /// in index order (refresh view and header first, footer last).
    func attributesForElements(in rect: Rect) -> [LayoutAttributes]
    /// ``attributesForElements(in:)`` written into `result` (emptied first, its storage kept): a
    /// caller that queries every frame reuses one buffer instead of a new array per query.
    /// Same elements, same order.
    func attributesForElements(in rect: Rect, into result: inout [LayoutAttributes])
    /// The cell attributes of item `index`, `nil` if out of range.
    func attributesForItem(at index: Int) -> LayoutAttributes?
    /// The refresh, header or footer attributes, `nil` if the layout has none of that kind.
    func attributesForSupplementaryView(ofKind kind: SupplementaryKind) -> LayoutAttributes?
    /// Shows or hides a supplementary view without moving anything (the load-more footer is
    /// hidden once the feed has ended): its attributes keep their frame and report `isHidden`.
    /// Layouts without supplementary views ignore it.
    /// - Complexity: O(1).
    func setSupplementaryView(ofKind kind: SupplementaryKind, hidden: Bool)

    /// Whether moving the viewport to `newBounds` needs a new layout. An offset-only change
    /// returns `false` unless the layout's attributes depend on the offset (carousel zoom).
    func shouldInvalidateLayout(forBoundsChange newBounds: Rect) -> Bool
    /// Applies a bounds change that `shouldInvalidateLayout` asked for.
    func invalidateLayout(forBoundsChange newBounds: Rect)

    /// Where a scroll that would stop at `proposed` with `velocity` (points per second) should
    /// stop instead (snapping, paging). Always within `[0, maxOffset]` on each axis.
    func targetContentOffset(forProposed proposed: Point, velocity: Point) -> Point

    /// Records the measured size of item `index` (self-sizing) and returns the content-offset
    /// change, in points along the scroll axis, that keeps the visible items still when the
    /// item lies above `contentOffset`. Layouts that do not self-size return 0 and ignore it.
    func setMeasuredSize(_ size: Size, forItemAt index: Int, contentOffset: Point) -> Double

    /// Whether cells must be measured when they are configured (estimated sizes until then, as
    /// `UITableView.estimatedRowHeight`): the driver then calls ``setMeasuredSize(_:forItemAt:contentOffset:)``.
    var isSelfSizing: Bool { get }

    /// A number that changes whenever anything the layout answers may change (any mutation:
    /// prepare, append, prepend, removals, bounds changes, supplementary views shown or hidden,
    /// measured sizes); `nil` when the layout does not keep one (the default).
    ///
    /// While it stays the same, a caller may keep the answer of ``attributesForElements(in:)`` for
    /// a rect `Q` and filter it for any rect inside `Q` instead of asking again: a layout that
    /// returns a generation promises that such a filtered answer equals the layout's own answer
    /// for the smaller rect, elements and order (true when every answer is in index order, as
    /// this protocol asks). The virtualizer does so while a scroll stays inside the rect it asked
    /// for (``Virtualizer``'s element cache).
    var layoutGeneration: Int? { get }
}

extension CollectionLayout {
    /// The allocating query's answer, moved into `result` (layouts that fill a buffer in place
    /// implement this themselves).
    public func attributesForElements(in rect: Rect, into result: inout [LayoutAttributes]) {
        result = attributesForElements(in: rect)
    }

    /// Layouts without supplementary views have nothing to hide.
    public func setSupplementaryView(ofKind kind: SupplementaryKind, hidden: Bool) {}

    /// Layouts place items from their intrinsic sizes up front unless they say otherwise.
    public var isSelfSizing: Bool { false }

    /// Layouts that do not count their changes have no generation: callers ask them every time.
    public var layoutGeneration: Int? { nil }
}

/// A layout configuration that cannot lay anything out.
public enum LayoutError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `parameter` (e.g. `"columns"`, `"spacing"`, `"viewport"`) has an invalid value.
    case invalidParameter(name: String, value: String, reason: String)

    public var description: String {
        switch self {
        case .invalidParameter(let name, let value, let reason):
            return "invalid layout parameter \(name)=\(value): \(reason)"
        }
    }
}

/// A layout that answers rect queries by filling a buffer in place: the allocating
/// ``CollectionLayout/attributesForElements(in:)`` is derived from its
/// ``CollectionLayout/attributesForElements(in:into:)``, the same elements in the same order.
public protocol InPlaceQueryLayout: CollectionLayout {}

extension InPlaceQueryLayout {
    /// ``attributesForElements(in:into:)`` into a new array.
    public func attributesForElements(in rect: Rect) -> [LayoutAttributes] {
        var result: [LayoutAttributes] = []
        attributesForElements(in: rect, into: &result)
        return result
    }
}
