/// `UICollectionViewFlowLayout`: items in lines that wrap when the next item does not fit, with
/// a header before and a footer after the section, scrolling vertically or horizontally.
///
/// ```
///  vertical:  ┌──────── header ─────────┐
///             │ [0]   [ 1 ]   [2]       │  a full line: justified (leftover spread between items)
///             │   [   3 (alone)   ]     │  a lone item in a full line: centred
///             │ [4]   [5]               │  a partial last line: justified as if completed with
///             └──────── footer ─────────┘  invisible copies of its last item (lines up with the columns)
/// ```
/// The rule implemented for ``FlowAlignment/justified``. Apple documents only that the minimum
/// inter-item spacing decides how many items fit in a line and that the actual spacing may then
/// be adjusted upward (developer.apple.com/documentation/uikit/uicollectionviewflowlayout/minimuminteritemspacing);
/// the placement follows PSTCollectionView (github.com/steipete/PSTCollectionView,
/// `PSTGridLayoutRow.m`, `layoutRowAndGenerateRectArray:`), the reimplementation written to
/// match UIKit's drawing, whose flow layout justifies the common and the last row:
/// - a line holds items while the sum of their widths plus the minimum inter-item spacing
///   between them fits in W − left − right;
/// - every line counts q = its items, and the last line (full or partial) adds as many
///   invisible copies of its last item (width plus spacing each) as still fit: "the last row
///   should justify as if it is filled with more (invisible) items";
/// - the leftover after q items is spread over the q − 1 gaps (gap = s + leftover / (q − 1)), so
///   a full line's first item touches the left inset and its last the right one, and a partial
///   last line of equal items lines up with the columns above; a full last line is justified
///   like every other (9 items 100 wide, W 390, insets and spacing 10: x = 10, 145, 280 on
///   every line);
/// - when q = 1 (a line holding one item that leaves no room for a second) the item is centred.
/// ``FlowAlignment/left`` packs every line to the left with the minimum spacing.
/// Across the line, items are centred (UIKit centres items of different heights in a row); the
/// line is as tall as its tallest item; lines are `lineSpacing` apart.
///
/// Horizontal scrolling swaps the axes: lines are columns filled top to bottom, the header sits
/// to the left and the footer to the right (their extent is `headerHeight`/`footerHeight` along x).
/// Items wider (vertical) or taller (horizontal) than the line are clamped to it.
///
/// Cache: every frame, and the lines (first item, position, extent along the scroll axis).
/// A rect query searches the lines from where the last one's answer began (``QueryHint``). `append` re-lays only the old last line and the new
/// items; `removeLast` the new last line; `prepend` and `removeFirst` re-flow everything, since
/// every line break depends on all items before it (UIKit invalidates everything too).
public final class FlowLayout: InPlaceQueryLayout, SupplementaryViewHosting {
    struct Line {
        var firstItem: Int
        /// Position along the scroll axis, points.
        var position: Double
        /// Extent along the scroll axis (the tallest item), points.
        var extent: Double
    }

    public let configuration: LayoutConfiguration
    // `@exclusivity(unchecked)`: read every frame through the layout protocol (see `Virtualizer`).
    @exclusivity(unchecked) public private(set) var viewport = Size.zero
    @exclusivity(unchecked) var sizes: [Size] = []
    @exclusivity(unchecked) var frames: [Rect] = []
    @exclusivity(unchecked) var lines: [Line] = []
    /// The first line the last rect query returned: the next query starts there (``QueryHint``).
    @exclusivity(unchecked) var hint = QueryHint()

    @exclusivity(unchecked) var supplementary: SupplementaryViews

    init(configuration: LayoutConfiguration) {
        self.configuration = configuration
        supplementary = SupplementaryViews(configuration)
    }

    public var itemCount: Int { frames.count }
    var isVertical: Bool { configuration.direction == .vertical }
    var insets: EdgeInsets { configuration.insets }
    /// Insets before and after the lines along the scroll axis, and across it.
    var mainLeading: Double { isVertical ? insets.top : insets.left }
    var mainTrailing: Double { isVertical ? insets.bottom : insets.right }
    var crossLeading: Double { isVertical ? insets.left : insets.top }
    var crossTrailing: Double { isVertical ? insets.right : insets.bottom }
    var viewportCross: Double { isVertical ? viewport.width : viewport.height }
    var available: Double { viewportCross - crossLeading - crossTrailing }
    var firstLinePosition: Double { configuration.headerHeight + mainLeading }

    /// The item's extent across the line (clamped to the line) and along the scroll axis.
    func extents(_ index: Int) -> (cross: Double, main: Double) {
        let size = configuration.itemSize ?? sizes[index]
        let cross = isVertical ? size.width : size.height
        let main = isVertical ? size.height : size.width
        return (min(cross, available), main)
    }

    /// A frame from line-relative coordinates.
    func frame(cross: Double, main: Double, crossExtent: Double, mainExtent: Double) -> Rect {
        isVertical
            ? Rect(x: cross, y: main, width: crossExtent, height: mainExtent)
            : Rect(x: main, y: cross, width: mainExtent, height: crossExtent)
    }

    /// - Throws: ``LayoutError`` for an empty viewport, bad sizes, or insets leaving no room.
    /// - Complexity: O(n).
    public func prepare(sizes: [Size], viewport: Size) throws {
        try configuration.validate()
        try Check.viewport(viewport)
        try Check.sizes(sizes)
        let total = isVertical ? viewport.width : viewport.height
        _ = try Check.trackExtent(total: total, leading: crossLeading, trailing: crossTrailing, gaps: 0, spacing: 0)
        self.viewport = viewport
        self.sizes = sizes
        relayout(from: 0)
    }

    /// - Complexity: O(m + items in the old last line).
    public func append(sizes newSizes: [Size]) {
        guard !newSizes.isEmpty else { return }
        sizes.append(contentsOf: newSizes.map(sanitized))
        relayout(from: lines.last?.firstItem ?? 0)
    }

    /// - Complexity: O(n): every line break moves.
    public func prepend(sizes newSizes: [Size]) {
        guard !newSizes.isEmpty else { return }
        sizes.insert(contentsOf: newSizes.map(sanitized), at: 0)
        relayout(from: 0)
    }

    /// - Complexity: O(n): every line break moves.
    public func removeFirst(_ n: Int) {
        let n = min(max(n, 0), sizes.count)
        guard n > 0 else { return }
        sizes.removeFirst(n)
        relayout(from: 0)
    }

    /// - Complexity: O(removed + items in the new last line + log lines).
    public func removeLast(_ n: Int) {
        let n = min(max(n, 0), sizes.count)
        guard n > 0 else { return }
        sizes.removeLast(n)
        guard !sizes.isEmpty else { return relayout(from: 0) }
        let lastItem = sizes.count - 1
        let line = partitionPoint(in: 0..<lines.count) { lines[$0].firstItem > lastItem } - 1
        relayout(from: lines[max(line, 0)].firstItem)
    }

    /// Content: along the scroll axis H + leading + lines + trailing + footer; across it the viewport.
    public var contentSize: Size {
        let linesEnd = lines.last.map { $0.position + $0.extent } ?? firstLinePosition
        let main = linesEnd + mainTrailing + configuration.footerHeight
        return isVertical ? Size(width: viewport.width, height: main) : Size(width: main, height: viewport.height)
    }

    /// Fills `result` in place (the virtualizer's query every frame; ``InPlaceQueryLayout`` derives
    /// the allocating ``attributesForElements(in:)`` from it).
    /// - Complexity: O(log d + items in the intersecting lines), for a rect starting d lines from
    ///   where the last query's answer began (a scrolling viewport: d is a few lines); a jump
    ///   searches from an interpolated guess, O(log lines) at worst.
    public func attributesForElements(in rect: Rect, into result: inout [LayoutAttributes]) {
        result.removeAll(keepingCapacity: true)
        let content = contentSize
        supplementary.appendLeading(in: rect, viewport: viewport, contentSize: content, to: &result)
        if !lines.isEmpty, !rect.isEmpty {
            let low = isVertical ? rect.minY : rect.minX
            let high = isVertical ? rect.maxY : rect.maxX
            let window = QueryHint.window(low: low, high: high, viewport: isVertical ? viewport.height : viewport.width)
            let guess = hint.guess(low: low, window: window, in: 0..<lines.count, position: { lines[$0].position }) {
                interpolatedGuess(low, first: lines[0].position, last: lines[lines.count - 1].position, in: 0..<lines.count)
            }
            var line = partitionPoint(in: 0..<lines.count, guess: guess) { lines[$0].position + lines[$0].extent > low }
            hint.index = line
            while line < lines.count, lines[line].position < high {
                let end = line + 1 < lines.count ? lines[line + 1].firstItem : frames.count
                for index in lines[line].firstItem..<end where frames[index].intersects(rect) {
                    result.append(cellAttributes(index, frames[index]))
                }
                line += 1
            }
        }
        if let footer = supplementary.trailing(in: rect, viewport: viewport, contentSize: content) { result.append(footer) }
    }

    public func attributesForItem(at index: Int) -> LayoutAttributes? {
        guard index >= 0, index < frames.count else { return nil }
        return cellAttributes(index, frames[index])
    }

    /// True when the extent across the scroll axis changes (width for vertical scrolling).
    public func shouldInvalidateLayout(forBoundsChange newBounds: Rect) -> Bool {
        isVertical ? newBounds.width != viewport.width : newBounds.height != viewport.height
    }

    /// Re-flows every item for the new size; keeps the old layout if the size is invalid.
    /// - Complexity: O(n).
    public func invalidateLayout(forBoundsChange newBounds: Rect) {
        let old = viewport
        viewport = newBounds.size
        guard (try? Check.viewport(newBounds.size)) != nil, available > 0 else {
            viewport = old
            return
        }
        relayout(from: 0)
    }

    public func targetContentOffset(forProposed proposed: Point, velocity: Point) -> Point {
        clampedContentOffset(proposed)
    }

    public func setMeasuredSize(_ size: Size, forItemAt index: Int, contentOffset: Point) -> Double { 0 }
}
