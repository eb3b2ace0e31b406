import FeedLayout

extension Virtualizer {
    /// The scroll direction for this frame: the sign of the velocity along the axis; at zero
    /// velocity, the sign of the offset change since the last update; with neither, the previous
    /// direction (forward before the first scroll, since a feed opens at its top).
    func resolveDirection(contentOffset: Point, velocity: Point) -> Direction {
        let v = axis.component(of: velocity)
        if v > 0 { return .forward }
        if v < 0 { return .backward }
        if let last = lastContentOffset {
            let delta = axis.component(of: contentOffset) - axis.component(of: last)
            if delta > 0 { return .forward }
            if delta < 0 { return .backward }
        }
        return direction
    }

    /// The rect an extent covers: `viewport` grown along the axis by the extent's amounts, leading
    /// on the side of `direction`.
    ///
    /// - Parameter visibleIndexRange: the lowest and highest index of the cells intersecting the
    ///   viewport (needed for item extents only), `nil` when there is none.
    /// - Complexity: O(1) for points and screenfuls; O(leading + trailing) layout lookups for items.
    func rangeRect(
        _ extent: RangeExtent, viewport: Rect, direction: Direction, visibleIndexRange: ClosedRange<Int>?
    ) -> Rect {
        let length = axis.length(of: viewport.size)
        var before = 0.0  // toward smaller offsets
        var after = 0.0  // toward larger offsets
        switch extent {
        case .points(let leading, let trailing):
            (before, after) = direction == .forward ? (trailing, leading) : (leading, trailing)
        case .screenfuls(let leading, let trailing):
            (before, after) =
                direction == .forward ? (trailing * length, leading * length) : (leading * length, trailing * length)
        case .items(let leading, let trailing):
            guard let visible = visibleIndexRange else { return viewport }
            let (countBefore, countAfter) = direction == .forward ? (trailing, leading) : (leading, trailing)
            let start = axis.start(of: viewport)
            let end = axis.end(of: viewport)
            var lowest = start
            var highest = end
            let itemCount = layout.itemCount
            let firstBefore = max(0, visible.lowerBound - countBefore)
            if firstBefore < visible.lowerBound {
                for index in firstBefore..<visible.lowerBound {
                    guard let frame = layout.attributesForItem(at: index)?.frame else { continue }
                    lowest = min(lowest, axis.start(of: frame))
                }
            }
            let lastAfter = min(itemCount - 1, visible.upperBound + countAfter)
            if lastAfter > visible.upperBound {
                for index in (visible.upperBound + 1)...lastAfter {
                    guard let frame = layout.attributesForItem(at: index)?.frame else { continue }
                    highest = max(highest, axis.end(of: frame))
                }
            }
            before = start - lowest
            after = highest - end
        }
        return axis.extending(viewport, before: before, after: after)
    }

    /// Lowest and highest index of the cells intersecting `viewport`, from one layout query.
    func visibleIndexRange(in viewport: Rect) -> ClosedRange<Int>? {
        var lowest = Int.max
        var highest = Int.min
        for attributes in layout.attributesForElements(in: viewport) where attributes.category == .cell {
            lowest = min(lowest, attributes.indexPath.item)
            highest = max(highest, attributes.indexPath.item)
        }
        return lowest <= highest ? lowest...highest : nil
    }
}

extension Virtualizer {
    /// A rect containing both rects, padded by a few units in the last place so that rounding in
    /// `origin + size` can never leave out an element that touches either rect's far edge (the
    /// caller filters the query's result by each rect exactly).
    static func boundingRect(_ a: Rect, _ b: Rect) -> Rect {
        let x0 = min(a.minX, b.minX)
        let y0 = min(a.minY, b.minY)
        let x1 = max(a.maxX, b.maxX)
        let y1 = max(a.maxY, b.maxY)
        let magnitude = max(abs(x0), abs(x1), abs(y0), abs(y1), 1)
        let pad = magnitude.ulp * 4
        return Rect(x: x0 - pad, y: y0 - pad, width: x1 - x0 + 2 * pad, height: y1 - y0 + 2 * pad)
    }
}
