import FeedLayout

/// The rect the virtualizer last asked the layout about, and the layout's generation then.
///
/// A scroll is coherent: frame after frame the ranges move by a few points, and the layout's
/// answer for the ranges is nearly the same. So the virtualizer asks for a rect half a screen
/// larger than the ranges on each side (``padding``) and, while the layout's
/// ``CollectionLayout/layoutGeneration`` stays the same and the ranges stay inside that rect,
/// filters the kept answer instead of asking again (every element intersecting a rect inside
/// the asked rect is in the answer, in the layout's order). Layouts without a generation are
/// asked every update, as before.
///
/// In `bench replay` (1,000,000 items, grid, 10-minute flinger trace) the grid's query was
/// ~5.5 k of ~28 k instructions per update and the pass over its ~50 elements most of the rest
/// (callgrind, before this cache and ``MembershipWindow``).
struct VirtualizerElementCache {
    /// How far the asked rect extends past the ranges on each side, in viewport lengths.
    static let padding = 0.5

    /// The rect the kept answer is for, points.
    var queryRect: Rect
    var generation: Int

    /// Whether every rect lies inside ``queryRect`` (then no element outside the kept answer
    /// can intersect any of them).
    func covers(_ a: Rect, _ b: Rect, _ c: Rect, axis: ScrollAxis) -> Bool {
        contains(a) && contains(b) && contains(c)
    }

    private func contains(_ r: Rect) -> Bool {
        queryRect.minX <= r.minX && r.maxX <= queryRect.maxX && queryRect.minY <= r.minY && r.maxY <= queryRect.maxY
    }
}

/// How far a rect's two edges may move along the scroll axis while exactly the same elements of
/// a fixed set intersect it (the half-open test of ``FeedLayout/Rect/intersects(_:)``).
///
/// For a vertical axis and a rect from `a` to `b`, an element from `s` to `t` (not empty, and
/// overlapping the rect across the axis) intersects it iff `s < b` and `a < t`. The answer stays
/// the same for every `a′` in `[max{t ≤ a}, min{t > a})` and `b′` in `(max{s < b}, min{s ≥ b}]`,
/// the cross-axis extent unchanged: an update whose rect stays inside its window keeps last
/// update's lists for that range without testing an element.
struct MembershipWindow {
    /// The rect's cross-axis extent when the window was taken (it must match exactly).
    private var crossMin = Double.nan
    private var crossMax = Double.nan
    /// `startLow ≤ a′ < startHigh` and `endLow < b′ ≤ endHigh`.
    private var startLow = Double.infinity
    private var startHigh = -Double.infinity
    private var endLow = Double.infinity
    private var endHigh = -Double.infinity

    /// A window that contains no rect (nothing is known yet).
    init() {}

    /// The window of `rect` over `elements`.
    /// - Complexity: O(n) for n elements.
    init(rect: Rect, elements: UnsafeBufferPointer<LayoutAttributes>, axis: ScrollAxis) {
        guard !rect.isEmpty else { return }  // an empty rect: recomputed every time (it is never kept)
        let a = axis.start(of: rect)
        let b = axis.end(of: rect)
        var startLow = -Double.infinity
        var startHigh = Double.infinity
        var endLow = -Double.infinity
        var endHigh = Double.infinity
        let vertical = axis == .vertical
        let crossMin = vertical ? rect.minX : rect.minY
        let crossMax = vertical ? rect.maxX : rect.maxY
        for position in elements.indices {
            let frame = elements[position].frame
            if frame.isEmpty { continue }
            let s = vertical ? frame.minY : frame.minX
            let t = vertical ? frame.maxY : frame.maxX
            let frameCrossMin = vertical ? frame.minX : frame.minY
            let frameCrossMax = vertical ? frame.maxX : frame.maxY
            // Outside the rect across the axis: never intersects, wherever the rect moves along it.
            guard frameCrossMin < crossMax, crossMin < frameCrossMax else { continue }
            if s < b { endLow = max(endLow, s) } else { endHigh = min(endHigh, s) }
            if t <= a { startLow = max(startLow, t) } else { startHigh = min(startHigh, t) }
        }
        self.crossMin = crossMin
        self.crossMax = crossMax
        self.startLow = startLow
        self.startHigh = startHigh
        self.endLow = endLow
        self.endHigh = endHigh
    }

    /// Whether the same elements intersect `rect` as intersected the rect the window was taken for.
    func contains(_ rect: Rect, axis: ScrollAxis) -> Bool {
        let vertical = axis == .vertical
        guard !rect.isEmpty, (vertical ? rect.minX : rect.minY) == crossMin, (vertical ? rect.maxX : rect.maxY) == crossMax
        else { return false }
        let a = axis.start(of: rect)
        let b = axis.end(of: rect)
        return startLow <= a && a < startHigh && endLow < b && b <= endHigh
    }
}
