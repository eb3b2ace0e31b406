/// One horizontal row of equal items that zoom (and optionally fade) by their distance to the
/// viewport's centre, snapping the nearest item to the centre.
///
/// ```
///   leading = (W − w) / 2                                  trailing = (W − w) / 2
///  |<------->[ 0 ] s [ 1 ] s [ 2 ] ... [n−1]<------->|
///             y = (H − h) / 2 (vertically centred)
/// ```
/// Item i: x = leading + i·(w + s). The insets let the first and last items sit at the centre.
/// With d = |item centre − viewport centre| and half = W / 2:
/// scale = 1 + zoom · max(0, 1 − d / half); alpha (fading on) = min(1, max(0.6, 1 − d / half)).
/// Frames are the untransformed layout frames (rect queries test them); the transform scales
/// about the frame's centre. zIndex rises towards the centre so the zoomed item draws on top.
public final class CarouselLayout: CollectionLayout, ArithmeticLayout {
    public let configuration: LayoutConfiguration
    // `@exclusivity(unchecked)`: read every frame through the layout protocol (see `Virtualizer`).
    @exclusivity(unchecked) public internal(set) var itemCount = 0
    @exclusivity(unchecked) public private(set) var viewport = Size.zero
    /// The content offset the transforms are computed for (the bounds origin), points.
    @exclusivity(unchecked) public private(set) var contentOffset = Point.zero

    init(configuration: LayoutConfiguration) {
        self.configuration = configuration
    }

    private var itemSize: Size { configuration.itemSize ?? .zero }
    private var spacing: Double { configuration.spacing }
    private var leading: Double { (viewport.width - itemSize.width) / 2 }
    private var top: Double { (viewport.height - itemSize.height) / 2 }
    private var pitch: Double { itemSize.width + spacing }

    /// - Throws: ``LayoutError`` for an empty viewport, bad sizes, or an item larger than the viewport.
    /// - Complexity: O(n) to validate the sizes (which the carousel otherwise ignores).
    public func prepare(sizes: [Size], viewport: Size) throws {
        try configuration.validate()
        try Check.viewport(viewport)
        try Check.sizes(sizes)
        guard itemSize.width <= viewport.width, itemSize.height <= viewport.height else {
            throw LayoutError.invalidParameter(
                name: "item-size", value: "\(itemSize.width)x\(itemSize.height)",
                reason: "must fit in the viewport \(viewport.width)x\(viewport.height)")
        }
        self.viewport = viewport
        itemCount = sizes.count
    }


    /// Width: leading + n·w + (n − 1)·s + trailing (no items: W − w); height: the viewport's.
    public var contentSize: Size {
        let items = itemCount == 0 ? 0 : Double(itemCount) * itemSize.width + Double(itemCount - 1) * spacing
        return Size(width: 2 * leading + items, height: viewport.height)
    }

    private func frame(_ index: Int) -> Rect {
        Rect(x: leading + Double(index) * pitch, y: top, width: itemSize.width, height: itemSize.height)
    }

    private func attributes(_ index: Int, _ frame: Rect) -> LayoutAttributes {
        let half = viewport.width / 2
        let distance = abs(frame.midX - (contentOffset.x + half))
        let closeness = max(0, 1 - distance / half)
        let scale = 1 + configuration.zoom * closeness
        let alpha = configuration.fade ? min(1, max(0.6, 1 - distance / half)) : 1
        return LayoutAttributes(
            indexPath: IndexPath(section: 0, item: index), frame: frame,
            transform: Transform(scaleX: scale, scaleY: scale), alpha: alpha, zIndex: Int((closeness * 1000).rounded()))
    }

    /// - Complexity: O(k + 2), by division.
    public func attributesForElements(in rect: Rect) -> [LayoutAttributes] {
        guard itemCount > 0, !rect.isEmpty else { return [] }
        let candidates = periodicCandidates(
            start: leading, pitch: pitch, length: itemSize.width, count: itemCount, low: rect.minX, high: rect.maxX)
        var result: [LayoutAttributes] = []
        for index in candidates {
            let frame = frame(index)
            if frame.intersects(rect) { result.append(attributes(index, frame)) }
        }
        return result
    }

    /// - Complexity: O(1).
    public func attributesForItem(at index: Int) -> LayoutAttributes? {
        guard index >= 0, index < itemCount else { return nil }
        return attributes(index, frame(index))
    }

    public func attributesForSupplementaryView(ofKind kind: SupplementaryKind) -> LayoutAttributes? { nil }

    /// True for any change: the zoom depends on the offset, the vertical centring on the height.
    public func shouldInvalidateLayout(forBoundsChange newBounds: Rect) -> Bool {
        newBounds.origin != contentOffset || newBounds.size != viewport
    }

    /// Records the new offset (and size, if it is valid).
    /// - Complexity: O(1): transforms are computed on demand from the offset.
    public func invalidateLayout(forBoundsChange newBounds: Rect) {
        contentOffset = newBounds.origin
        if newBounds.size != viewport, (try? Check.viewport(newBounds.size)) != nil,
            itemSize.width <= newBounds.width, itemSize.height <= newBounds.height
        {
            viewport = newBounds.size
        }
    }

    /// The item whose centre is nearest the viewport's centre at ``contentOffset``: round(x / (w + s))
    /// clamped to the items (item i is centred at x = i·(w + s), see
    /// ``targetContentOffset(forProposed:velocity:)``). The index the seed's
    /// `collectionViewScrollToIndex:` callback reports; `nil` with no items.
    /// - Complexity: O(1).
    public var centredIndex: Int? {
        guard itemCount > 0, pitch > 0, contentOffset.x.isFinite else { return itemCount > 0 ? 0 : nil }
        let nearest = (contentOffset.x / pitch).rounded()
        return Int(min(max(nearest, 0), Double(itemCount - 1)))
    }

    /// Centres the item whose centre is nearest the proposed viewport centre, clamped to
    /// `[0, maxContentOffset]`. Item i is centred at offset x = i·(w + s), since
    /// leading + i·(w + s) + w/2 − W/2 = i·(w + s).
    /// - Complexity: O(1).
    public func targetContentOffset(forProposed proposed: Point, velocity: Point) -> Point {
        guard itemCount > 0, proposed.x.isFinite else { return clampedContentOffset(proposed) }
        let nearest = (proposed.x / pitch).rounded()
        let index = min(max(nearest, 0), Double(itemCount - 1))
        return clampedContentOffset(Point(x: index * pitch, y: proposed.y))
    }

    public func setMeasuredSize(_ size: Size, forItemAt index: Int, contentOffset: Point) -> Double { 0 }
}
