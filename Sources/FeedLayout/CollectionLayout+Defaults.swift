/// Helpers every layout shares: the brute-force oracle, offset clamping and the span search
/// used by the arithmetic layouts.
extension CollectionLayout {
    /// The largest content offset on each axis: `max(0, content − viewport)`, points.
    public var maxContentOffset: Point {
        Point(
            x: max(0, contentSize.width - viewport.width),
            y: max(0, contentSize.height - viewport.height))
    }

    /// `offset` clamped into `[0, maxContentOffset]` on each axis (NaN becomes 0).
    public func clampedContentOffset(_ offset: Point) -> Point {
        let limit = maxContentOffset
        func clamp(_ value: Double, _ upper: Double) -> Double {
            value.isNaN ? 0 : min(max(value, 0), upper)
        }
        return Point(x: clamp(offset.x, limit.x), y: clamp(offset.y, limit.y))
    }

    /// Every element of the layout: refresh view, header, every cell in index order, footer.
    /// - Complexity: O(n) — the oracle for tests and the benchmark's baseline, never for a frame.
    public func allAttributes() -> [LayoutAttributes] {
        var result: [LayoutAttributes] = []
        result.reserveCapacity(itemCount + 3)
        if let refresh = attributesForSupplementaryView(ofKind: .refresh) { result.append(refresh) }
        if let header = attributesForSupplementaryView(ofKind: .header) { result.append(header) }
        for index in 0..<itemCount {
            if let attributes = attributesForItem(at: index) { result.append(attributes) }
        }
        if let footer = attributesForSupplementaryView(ofKind: .footer) { result.append(footer) }
        return result
    }

    /// The brute-force filter: every element whose frame intersects `rect`, in index order.
    /// - Complexity: O(n).
    public func bruteForceAttributes(in rect: Rect) -> [LayoutAttributes] {
        allAttributes().filter { $0.frame.intersects(rect) }
    }
}

/// Indices `r` in `0..<count` of a periodic run of spans `[start + r·pitch, start + r·pitch + length)`
/// that may intersect `[low, high)`: a superset of the true answer by at most one index on each
/// side (floating-point division can round either way); callers filter with the exact frame test.
/// - Complexity: O(1).
func periodicCandidates(
    start: Double, pitch: Double, length: Double, count: Int, low: Double, high: Double
) -> Range<Int> {
    guard count > 0, !low.isNaN, !high.isNaN, low < high else { return 0..<0 }
    guard pitch > 0 else { return 0..<count }
    let first = ((low - start - length) / pitch).rounded(.down)
    let last = ((high - start) / pitch).rounded(.up)
    let upper = Double(count - 1)
    let lo = min(max(first, 0), upper)
    let hi = min(max(last, 0), upper)
    return Int(lo)..<(Int(hi) + 1)
}

/// The first index in `range` for which `isAfter` is true, given that it is false for a prefix
/// and true for the rest (binary search).
/// - Complexity: O(log n).
func partitionPoint(in range: Range<Int>, _ isAfter: (Int) -> Bool) -> Int {
    var low = range.lowerBound
    var high = range.upperBound
    while low < high {
        let mid = low + (high - low) / 2
        if isAfter(mid) { high = mid } else { low = mid + 1 }
    }
    return low
}

/// An intrinsic size with NaN, infinite or negative components replaced by 0, for the
/// non-throwing `append`/`prepend` paths (`prepare` rejects them with an error instead).
func sanitized(_ size: Size) -> Size {
    func clean(_ value: Double) -> Double { value.isFinite && value > 0 ? value : 0 }
    return Size(width: clean(size.width), height: clean(size.height))
}

/// Header or footer attributes for `frame`, or `nil` when the frame has no extent.
func supplementaryAttributes(_ kind: SupplementaryKind, frame: Rect) -> LayoutAttributes? {
    guard frame.height > 0, frame.width > 0 else { return nil }
    return LayoutAttributes(indexPath: IndexPath(section: 0, item: 0), category: .supplementary(kind), frame: frame)
}

/// Cell attributes for item `index` at `frame`.
@inline(__always)
func cellAttributes(_ index: Int, _ frame: Rect) -> LayoutAttributes {
    LayoutAttributes(indexPath: IndexPath(section: 0, item: index), frame: frame)
}

/// ``partitionPoint(in:_:)`` started from a guess: gallops outward from `guess` (steps 1, 2,
/// 4, ...) until the boundary is bracketed, then binary-searches the bracket. With a good guess
/// (interpolated from the positions, which grow roughly linearly with the index) it touches a
/// few nearby cache lines instead of log₂ n scattered ones.
/// - Complexity: O(log d) for a boundary d elements from the guess; O(log n) at worst.
func partitionPoint(in range: Range<Int>, guess: Int, _ isAfter: (Int) -> Bool) -> Int {
    guard !range.isEmpty else { return range.lowerBound }
    let start = min(max(guess, range.lowerBound), range.upperBound - 1)
    var low: Int
    var high: Int
    if isAfter(start) {
        // The boundary is at or before `start`: gallop down.
        high = start
        var step = 1
        low = start - 1
        while low >= range.lowerBound, isAfter(low) {
            high = low
            step *= 2
            low = start - step
        }
        low = max(low + 1, range.lowerBound)
    } else {
        low = start + 1
        var step = 1
        high = start + 1
        while high < range.upperBound, !isAfter(high) {
            low = high + 1
            step *= 2
            high = start + step
        }
        high = min(high, range.upperBound)
    }
    return partitionPoint(in: low..<high, isAfter)
}

/// Where the previous rect query's answer began (a row, line or column position), kept by a
/// layout so the next query starts its search there: scrolling queries are coherent (one
/// frame's viewport overlaps the last one's), so the boundary is a few elements away and the
/// gallop of ``partitionPoint(in:guess:_:)`` touches only cache lines the last query touched.
/// A jump (the new rect starts far from the remembered element: scroll to top, a scrubber, a
/// random query) falls back to the layout's own guess, an interpolation.
///
/// The hint only decides where the search starts: any value gives the same answer (an index
/// outside the range is clamped), so changes that shift indices need not keep it exact.
struct QueryHint {
    /// The index the last query's search ended on.
    var index = 0

    /// The start for a search whose boundary lies near `low` (points along the scroll axis):
    /// the remembered index when its element's `position` is within `window` points of `low`,
    /// else `fallback()`.
    /// - Complexity: O(1) plus `fallback`.
    @inline(__always)
    func guess(
        low: Double, window: Double, in range: Range<Int>, position: (Int) -> Double, fallback: () -> Int
    ) -> Int {
        guard !range.isEmpty else { return range.lowerBound }
        let start = min(max(index, range.lowerBound), range.upperBound - 1)
        return abs(position(start) - low) <= window ? start : fallback()
    }

    /// How far from the remembered element a query may start and still count as coherent: four
    /// times the larger of the rect's and the viewport's extent along the scroll axis, points.
    static func window(low: Double, high: Double, viewport: Double) -> Double {
        4 * max(high - low, viewport)
    }
}

/// The index at which `value` would sit if `first...last` spread evenly over `range`: a guess
/// for ``partitionPoint(in:guess:_:)``.
func interpolatedGuess(_ value: Double, first: Double, last: Double, in range: Range<Int>) -> Int {
    guard range.count > 1, last > first, value.isFinite else { return range.lowerBound }
    let fraction = min(max((value - first) / (last - first), 0), 1)
    return range.lowerBound + Int(fraction * Double(range.count - 1))
}
