/// All n items in one row filling the viewport: squares of side min(W / n, H), top-aligned.
///
/// ```
///  side limited by W:  [0][1][2][3]          gap = 0, x = i·side
///  side limited by H:  g [0] g [1] g [2] g   gap = (W − n·side) / (n + 1), x = g + i·(side + g)
/// ```
/// Content size equals the viewport; every bounds-size change invalidates (an offset change does
/// not: there is nothing to scroll). Appending or removing items re-derives the side: O(1).
public final class StripLayout: CollectionLayout, ArithmeticLayout {
    // `@exclusivity(unchecked)`: read every frame through the layout protocol (see `Virtualizer`).
    @exclusivity(unchecked) public internal(set) var itemCount = 0
    @exclusivity(unchecked) public private(set) var viewport = Size.zero

    init() {}

    private var side: Double {
        itemCount == 0 ? 0 : min(viewport.width / Double(itemCount), viewport.height)
    }
    private var gap: Double {
        guard itemCount > 0, viewport.height < viewport.width / Double(itemCount) else { return 0 }
        return (viewport.width - Double(itemCount) * side) / Double(itemCount + 1)
    }

    /// - Throws: ``LayoutError`` for an empty viewport or bad sizes.
    public func prepare(sizes: [Size], viewport: Size) throws {
        try Check.viewport(viewport)
        try Check.sizes(sizes)
        self.viewport = viewport
        itemCount = sizes.count
    }


    public var contentSize: Size { viewport }

    private func frame(_ index: Int, side: Double, gap: Double) -> Rect {
        Rect(x: gap + Double(index) * (side + gap), y: 0, width: side, height: side)
    }

    /// - Complexity: O(k + 2), by division.
    public func attributesForElements(in rect: Rect) -> [LayoutAttributes] {
        guard itemCount > 0, !rect.isEmpty else { return [] }
        let side = side
        let gap = gap
        let candidates = periodicCandidates(
            start: gap, pitch: side + gap, length: side, count: itemCount, low: rect.minX, high: rect.maxX)
        var result: [LayoutAttributes] = []
        for index in candidates {
            let frame = frame(index, side: side, gap: gap)
            if frame.intersects(rect) { result.append(cellAttributes(index, frame)) }
        }
        return result
    }

    public func attributesForItem(at index: Int) -> LayoutAttributes? {
        guard index >= 0, index < itemCount else { return nil }
        return cellAttributes(index, frame(index, side: side, gap: gap))
    }

    public func attributesForSupplementaryView(ofKind kind: SupplementaryKind) -> LayoutAttributes? { nil }

    /// True whenever the size changes.
    public func shouldInvalidateLayout(forBoundsChange newBounds: Rect) -> Bool {
        newBounds.size != viewport
    }

    public func invalidateLayout(forBoundsChange newBounds: Rect) {
        if (try? Check.viewport(newBounds.size)) != nil { viewport = newBounds.size }
    }

    public func targetContentOffset(forProposed proposed: Point, velocity: Point) -> Point {
        clampedContentOffset(proposed)
    }

    public func setMeasuredSize(_ size: Size, forItemAt index: Int, contentOffset: Point) -> Double { 0 }
}
