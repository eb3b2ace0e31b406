/// Two columns in repeating groups of six: a big item and two small ones, then two small ones
/// and a big one.
///
/// ```
///  group at y = g (groups repeat every 2B + 2s from the top inset)
///  ┌──────────┐ s ┌──────────┐
///  │          │   │    1     │ h
///  │    0     │   └──────────┘
///  │  (w × B) │ s ┌──────────┐
///  │          │   │    2     │ h
///  └──────────┘   └──────────┘        h = (B − s) / 2
///        s              s             w = (W − left − right − s) / 2
///  ┌──────────┐   ┌──────────┐
///  │    3     │ h │          │
///  └──────────┘   │    5     │
///  ┌──────────┐ s │  (w × B) │
///  │    4     │ h │          │
///  └──────────┘   └──────────┘
/// ```
/// Groups start at g₀ = H + top (H the header); an optional refresh view sits above y = 0 and
/// a footer (load-more view) F below the bottom inset (see `SupplementaryViews`).
/// Frames (x₀ = left, x₁ = left + w + s): 0 = (x₀, g, w, B); 1 = (x₁, g, w, h);
/// 2 = (x₁, g + h + s, w, h); 3 = (x₀, g + B + s, w, h); 4 = (x₀, g + B + 2s + h, w, h);
/// 5 = (x₁, g + B + s, w, B). Content height = bottom of the lowest frame + bottom inset + F.
///
/// Every frame is arithmetic on the index: any item or rect costs the same at 100 or 10⁷ items,
/// and `prepend`, `append` and `removeFirst/Last` only change the count.
public final class MosaicLayout: CollectionLayout, SupplementaryViewHosting, ArithmeticLayout {
    public let configuration: LayoutConfiguration
    // `@exclusivity(unchecked)`: read every frame through the layout protocol (see `Virtualizer`).
    @exclusivity(unchecked) public internal(set) var itemCount = 0
    @exclusivity(unchecked) public private(set) var viewport = Size.zero
    @exclusivity(unchecked) private var columnWidth = 0.0
    @exclusivity(unchecked) var supplementary: SupplementaryViews

    init(configuration: LayoutConfiguration) {
        self.configuration = configuration
        supplementary = SupplementaryViews(configuration)
    }

    private var insets: EdgeInsets { configuration.insets }
    private var s: Double { configuration.spacing }
    private var big: Double { configuration.bigHeight }
    private var small: Double { (big - s) / 2 }
    private var groupPitch: Double { 2 * big + 2 * s }
    /// A group's own extent, first frame top to lowest frame bottom: 2B + s.
    private var groupExtent: Double { 2 * big + s }
    /// Top of the first group: header H + top inset.
    private var firstGroupY: Double { configuration.headerHeight + insets.top }

    /// - Throws: ``LayoutError`` for an empty viewport, bad sizes, or insets/spacing leaving no room.
    /// - Complexity: O(n) to validate the sizes (which the mosaic otherwise ignores).
    public func prepare(sizes: [Size], viewport: Size) throws {
        try configuration.validate()
        try Check.viewport(viewport)
        try Check.sizes(sizes)
        let extent = try Check.trackExtent(
            total: viewport.width, leading: insets.left, trailing: insets.right, gaps: 1, spacing: s)
        columnWidth = extent / 2
        self.viewport = viewport
        itemCount = sizes.count
    }


    /// Frame of slot `slot` (0...5) in group `group`.
    private func frame(group: Int, slot: Int) -> Rect {
        let g = firstGroupY + Double(group) * groupPitch
        let x0 = insets.left
        let x1 = insets.left + columnWidth + s
        let w = columnWidth
        switch slot {
        case 0: return Rect(x: x0, y: g, width: w, height: big)
        case 1: return Rect(x: x1, y: g, width: w, height: small)
        case 2: return Rect(x: x1, y: g + small + s, width: w, height: small)
        case 3: return Rect(x: x0, y: g + big + s, width: w, height: small)
        case 4: return Rect(x: x0, y: g + big + 2 * s + small, width: w, height: small)
        default: return Rect(x: x1, y: g + big + s, width: w, height: big)
        }
    }

    /// - Complexity: O(1): the lowest frame is among the last group's at most six items.
    public var contentSize: Size {
        let footer = configuration.footerHeight
        guard itemCount > 0 else { return Size(width: viewport.width, height: firstGroupY + insets.bottom + footer) }
        let lastGroup = (itemCount - 1) / 6
        let lastSlot = (itemCount - 1) % 6
        var bottom = 0.0
        for slot in 0...lastSlot { bottom = max(bottom, frame(group: lastGroup, slot: slot).maxY) }
        return Size(width: viewport.width, height: bottom + insets.bottom + footer)
    }

    /// - Complexity: O(k + 12): candidate groups by division, then the exact test on their frames.
    public func attributesForElements(in rect: Rect) -> [LayoutAttributes] {
        let content = contentSize
        var result = supplementary.leading(in: rect, viewport: viewport, contentSize: content)
        let footer = supplementary.trailing(in: rect, viewport: viewport, contentSize: content)
        if itemCount > 0, !rect.isEmpty {
            let groups = periodicCandidates(
                start: firstGroupY, pitch: groupPitch, length: groupExtent,
                count: (itemCount + 5) / 6, low: rect.minY, high: rect.maxY)
            for group in groups {
                for slot in 0..<6 {
                    let index = group * 6 + slot
                    guard index < itemCount else { break }
                    let frame = frame(group: group, slot: slot)
                    if frame.intersects(rect) { result.append(cellAttributes(index, frame)) }
                }
            }
        }
        if let footer { result.append(footer) }
        return result
    }

    /// - Complexity: O(1).
    public func attributesForItem(at index: Int) -> LayoutAttributes? {
        guard index >= 0, index < itemCount else { return nil }
        return cellAttributes(index, frame(group: index / 6, slot: index % 6))
    }

    public func shouldInvalidateLayout(forBoundsChange newBounds: Rect) -> Bool {
        newBounds.width != viewport.width
    }

    public func invalidateLayout(forBoundsChange newBounds: Rect) {
        let count = itemCount
        let old = (viewport, columnWidth)
        do { try prepare(sizes: [], viewport: newBounds.size) } catch { (viewport, columnWidth) = old }
        itemCount = count
    }

    public func targetContentOffset(forProposed proposed: Point, velocity: Point) -> Point {
        clampedContentOffset(proposed)
    }

    public func setMeasuredSize(_ size: Size, forItemAt index: Int, contentOffset: Point) -> Double { 0 }
}
