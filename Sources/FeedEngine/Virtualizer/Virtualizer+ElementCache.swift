import FeedLayout

/// The rect the virtualizer last asked the layout about, and the layout's generation then.
///
/// A scroll is coherent: frame after frame the ranges move by a few points, and the layout's
/// answer for the ranges is nearly the same. So the virtualizer asks for a rect two screens
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
    /// How far the asked rect extends past the ranges on each side, in viewport lengths. Each
    /// miss asks the layout and indexes its answer (O(answer)), while a refill reads only the run
    /// a range covers (``ElementAxisOrder``), so a larger answer costs only on misses: `bench
    /// replay`'s workload took 2,303.6M instructions at 0.5, 2,282.8M at 1, 2,272.0M at 1.5,
    /// 2,268.8M at 2, 2,273.2M at 3 and 2,277.5M at 4 (callgrind; a page appended or dropped
    /// changes the layout's generation, so answers far larger than the pages only add work).
    static let padding = 2.0

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

    /// The window of `rect` from its bounds, found without a pass (``ElementAxisOrder``).
    init(rect: Rect, axis: ScrollAxis, startLow: Double, startHigh: Double, endLow: Double, endHigh: Double) {
        let vertical = axis == .vertical
        crossMin = vertical ? rect.minX : rect.minY
        crossMax = vertical ? rect.maxX : rect.maxY
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

/// The kept layout answer's elements along the scroll axis, when they lie in axis order, so that a
/// rect's intersecting elements are one run of positions found by binary search instead of a pass
/// over the whole answer.
///
/// "In axis order": every element is non-empty and, in the answer's order, the elements' starts
/// along the axis never decrease and neither do their ends (a list, a grid, a mosaic, a flow of
/// equal-height lines; not a waterfall, whose columns interleave). Then, for a rect from `a` to `b`
/// along the axis whose cross-axis extent overlaps every element's, an element intersects the rect
/// (``FeedLayout/Rect/intersects(_:)``: `s < b` and `a < t`) exactly when its position lies in
/// `lo..<hi`, `lo` the first position with `t > a` and `hi` the first with `s ≥ b`; and the
/// rect's ``MembershipWindow`` has `max{t ≤ a}` = `t[lo − 1]`, `min{t > a}` = `t[lo]`,
/// `max{s < b}` = `s[hi − 1]` and `min{s ≥ b}` = `s[hi]`. Answers not in axis order, and rects
/// that miss an element across the axis, fall back to the full pass (same result).
///
/// A frame of a flinger scroll crosses an element edge with one of its three ranges most frames,
/// and each crossing refilled a list and a window over the ~80 elements of the kept answer: 13 %
/// of a grid load session's instructions (callgrind, `feedsim load --iterations 16`).
///
/// A class, used by its virtualizer alone: as a struct stored in the virtualizer, each query
/// copied it out (its two arrays retained and released, ~400 instructions a query).
final class ElementAxisOrder {
    /// Each element's start and end along the axis, in the answer's order (empty when not ordered).
    @exclusivity(unchecked) private var starts: [Double] = []
    @exclusivity(unchecked) private var ends: [Double] = []
    /// The largest cross-axis start and the smallest cross-axis end of the elements.
    @exclusivity(unchecked) private var crossStartMax = Double.infinity
    @exclusivity(unchecked) private var crossEndMin = -Double.infinity
    @exclusivity(unchecked) private var axis = ScrollAxis.vertical
    /// Whether the answer the index was built from is in axis order.
    @exclusivity(unchecked) private(set) var isOrdered = false

    /// Indexes `elements` (the answer just kept), or marks it unordered.
    /// - Complexity: O(n) for n elements.
    func rebuild(_ elements: [LayoutAttributes], axis: ScrollAxis) {
        self.axis = axis
        isOrdered = false
        // Filled as locals (the buffers swapped out and back): no access through `self` per element.
        var starts: [Double] = []
        var ends: [Double] = []
        swap(&starts, &self.starts)
        swap(&ends, &self.ends)
        starts.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        defer {
            swap(&starts, &self.starts)
            swap(&ends, &self.ends)
        }
        let vertical = axis == .vertical
        var crossStartMax = -Double.infinity
        var crossEndMin = Double.infinity
        var lastStart = -Double.infinity
        var lastEnd = -Double.infinity
        var ordered = true
        elements.withUnsafeBufferPointer { elements in
            for position in elements.indices {
                let frame = elements[position].frame
                let s = vertical ? frame.minY : frame.minX
                let t = vertical ? frame.maxY : frame.maxX
                // `!(x >= y)` also rejects NaN.
                guard !frame.isEmpty, s >= lastStart, t >= lastEnd else {
                    ordered = false
                    return
                }
                lastStart = s
                lastEnd = t
                starts.append(s)
                ends.append(t)
                crossStartMax = max(crossStartMax, vertical ? frame.minX : frame.minY)
                crossEndMin = min(crossEndMin, vertical ? frame.maxX : frame.maxY)
            }
        }
        guard ordered else {
            starts.removeAll(keepingCapacity: true)
            ends.removeAll(keepingCapacity: true)
            return
        }
        self.crossStartMax = crossStartMax
        self.crossEndMin = crossEndMin
        isOrdered = true
    }

    /// Forgets the index (an answer that was not indexed is kept).
    func invalidate() {
        isOrdered = false
        starts.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
    }

    /// The positions `lo..<hi` described above, `nil` when the answer is not in axis order, `rect`
    /// is empty, or `rect` misses some element across the axis.
    /// - Complexity: O(log n).
    func run(intersecting rect: Rect) -> Range<Int>? {
        guard isOrdered, !rect.isEmpty else { return nil }
        let vertical = axis == .vertical
        let crossMin = vertical ? rect.minX : rect.minY
        let crossMax = vertical ? rect.maxX : rect.maxY
        // Every element overlaps the rect across the axis (empty answer: trivially).
        guard crossStartMax < crossMax, crossMin < crossEndMin else { return nil }
        let a = axis.start(of: rect)
        let b = axis.end(of: rect)
        let lo = ends.withUnsafeBufferPointer { Self.firstPosition(in: $0, above: a, orEqual: false) }
        let hi = starts.withUnsafeBufferPointer { Self.firstPosition(in: $0, above: b, orEqual: true) }
        // hi ≥ lo: before lo every element ends at or before a < b, so it starts before b.
        return lo..<max(lo, hi)
    }

    /// The rect's window over the answer (as ``MembershipWindow/init(rect:elements:axis:)`` gives),
    /// `nil` where ``run(intersecting:)`` is.
    /// - Complexity: O(log n).
    func window(of rect: Rect) -> MembershipWindow? {
        guard let run = run(intersecting: rect) else { return nil }
        let hi = run.upperBound
        return MembershipWindow(
            rect: rect, axis: axis,
            startLow: run.lowerBound > 0 ? ends[run.lowerBound - 1] : -Double.infinity,
            startHigh: run.lowerBound < ends.count ? ends[run.lowerBound] : Double.infinity,
            endLow: hi > 0 ? starts[hi - 1] : -Double.infinity,
            endHigh: hi < starts.count ? starts[hi] : Double.infinity)
    }

    /// The first position whose value is above `x` (or equal to it, with `orEqual`), or
    /// `values.count`: the values never decrease, so the test is false then true along them.
    ///
    /// Branch-free halving (the step is a conditional move, not a jump): a scroll's queries land
    /// anywhere in the kept answer, so a CPU could not predict the classic search's branches, and
    /// its mispredictions made it 3 % of `bench replay`'s wall time (perf) for ~7 steps a query.
    static func firstPosition(in values: UnsafeBufferPointer<Double>, above x: Double, orEqual: Bool) -> Int {
        @inline(__always) func isAbove(_ value: Double) -> Bool { value > x || (orEqual && value == x) }
        guard !values.isEmpty else { return 0 }
        // The answer lies in base...base + length; each step keeps the half that holds it.
        var base = 0
        var length = values.count
        while length > 1 {
            let half = length >> 1
            base = isAbove(values[base &+ half]) ? base : base &+ half
            length -= half
        }
        return isAbove(values[base]) ? base : base &+ 1
    }
}
