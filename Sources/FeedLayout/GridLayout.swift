/// The classic photo grid: C columns of equal items, rows top to bottom, an optional
/// full-width header above the first row.
///
/// ```
///  ┌──────── header (H) ────────┐   y = 0
///  │ top inset                  │
///  │ [0]  s [1]  s [2]          │   y = H + top
///  │  line spacing              │
///  │ [3]    [4]    [5]          │
///  │ [6]                        │   the last row may be partly filled
///  │ bottom inset               │
///  └────────────────────────────┘
/// ```
/// Item i: row r = i / C, column c = i % C;
/// x = left + c·(w + s), y = H + top + r·(h + lineSpacing). With no item size, items are
/// square: w = h = (W − left − right − (C − 1)·s) / C.
/// Content height = H + top + rows·h + (rows − 1)·lineSpacing + bottom + F (no rows: H + top +
/// bottom + F), F the footer (load-more view); an optional refresh view sits above y = 0
/// (see `SupplementaryViews`).
///
/// Every frame is arithmetic on the index, so `prepend`, `append` and `removeFirst/Last` only
/// change the count: O(1).
public final class GridLayout: InPlaceQueryLayout, SupplementaryViewHosting, ArithmeticLayout {
    public let configuration: LayoutConfiguration
    // Every stored property an answer depends on bumps the generation when it is set (each
    // mutation of the grid goes through one of them).
    // `@exclusivity(unchecked)`: read every frame through the layout protocol (see `Virtualizer`).
    @exclusivity(unchecked) public internal(set) var itemCount = 0 { didSet { generation &+= 1 } }
    @exclusivity(unchecked) public private(set) var viewport = Size.zero { didSet { generation &+= 1 } }
    @exclusivity(unchecked) private var itemSize = Size.zero { didSet { generation &+= 1 } }
    @exclusivity(unchecked) var supplementary: SupplementaryViews { didSet { generation &+= 1 } }
    @exclusivity(unchecked) private var generation = 0

    /// Changes with every mutation (see ``CollectionLayout/layoutGeneration``).
    public var layoutGeneration: Int? { generation }

    init(configuration: LayoutConfiguration) {
        self.configuration = configuration
        supplementary = SupplementaryViews(configuration)
    }

    private var columns: Int { configuration.columns }
    private var insets: EdgeInsets { configuration.insets }
    private var spacing: Double { configuration.spacing }
    private var lineSpacing: Double { configuration.resolvedLineSpacing }
    private var headerHeight: Double { configuration.headerHeight }
    private var rowCount: Int { (itemCount + columns - 1) / columns }
    private var firstRowY: Double { headerHeight + insets.top }

    /// - Throws: ``LayoutError`` for an empty viewport, insets or spacing leaving no room, or an
    ///   item size too wide for C columns.
    /// - Complexity: O(n) to validate the sizes (which the grid otherwise ignores).
    public func prepare(sizes: [Size], viewport: Size) throws {
        try configuration.validate()
        try Check.viewport(viewport)
        try Check.sizes(sizes)
        let extent = try Check.trackExtent(
            total: viewport.width, leading: insets.left, trailing: insets.right, gaps: columns - 1, spacing: spacing)
        if let fixed = configuration.itemSize {
            guard fixed.width * Double(columns) <= extent else {
                throw LayoutError.invalidParameter(
                    name: "item-size", value: "\(fixed.width)x\(fixed.height)",
                    reason: "\(columns) columns of width \(fixed.width) do not fit in \(extent) pt")
            }
            itemSize = fixed
        } else {
            let side = extent / Double(columns)
            itemSize = Size(width: side, height: side)
        }
        self.viewport = viewport
        itemCount = sizes.count
    }


    public var contentSize: Size {
        let rows = rowCount
        let body = rows == 0 ? 0 : Double(rows) * itemSize.height + Double(rows - 1) * lineSpacing
        return Size(width: viewport.width, height: firstRowY + body + insets.bottom + configuration.footerHeight)
    }

    private func frame(row: Int, column: Int) -> Rect {
        Rect(
            x: insets.left + Double(column) * (itemSize.width + spacing),
            y: firstRowY + Double(row) * (itemSize.height + lineSpacing),
            width: itemSize.width, height: itemSize.height)
    }

    /// Fills `result` in place (the virtualizer's query every frame; ``InPlaceQueryLayout`` derives
    /// the allocating ``attributesForElements(in:)`` from it). A new array per query cost ~0.5 k
    /// instructions of a frame in `bench replay`, with the supplementary views' arrays.
    /// - Complexity: O(k + rows·2 + columns·2) for k returned elements: the candidate rows and
    ///   columns come from division, then each candidate gets the exact half-open test.
    public func attributesForElements(in rect: Rect, into result: inout [LayoutAttributes]) {
        result.removeAll(keepingCapacity: true)
        let content = contentSize
        supplementary.appendLeading(in: rect, viewport: viewport, contentSize: content, to: &result)
        let footer = supplementary.trailing(in: rect, viewport: viewport, contentSize: content)
        guard itemCount > 0, !rect.isEmpty else {
            if let footer { result.append(footer) }
            return
        }
        let rows = periodicCandidates(
            start: firstRowY, pitch: itemSize.height + lineSpacing, length: itemSize.height,
            count: rowCount, low: rect.minY, high: rect.maxY)
        let cols = periodicCandidates(
            start: insets.left, pitch: itemSize.width + spacing, length: itemSize.width,
            count: min(columns, itemCount), low: rect.minX, high: rect.maxX)
        // Sized up front: growing the array element by element copied it several times per query.
        result.reserveCapacity(result.count + rows.count * cols.count + 1)
        for row in rows {
            for column in cols {
                let index = row * columns + column
                guard index < itemCount else { break }
                let frame = frame(row: row, column: column)
                if frame.intersects(rect) { result.append(cellAttributes(index, frame)) }
            }
        }
        if let footer { result.append(footer) }
    }

    /// - Complexity: O(1).
    public func attributesForItem(at index: Int) -> LayoutAttributes? {
        guard index >= 0, index < itemCount else { return nil }
        return cellAttributes(index, frame(row: index / columns, column: index % columns))
    }

    /// True only when the width changes (a vertical grid does not depend on the height or offset).
    public func shouldInvalidateLayout(forBoundsChange newBounds: Rect) -> Bool {
        newBounds.width != viewport.width
    }

    /// Re-derives the item size for the new width; keeps the old layout if the new viewport is invalid.
    /// - Complexity: O(1).
    public func invalidateLayout(forBoundsChange newBounds: Rect) {
        let count = itemCount
        let old = (viewport, itemSize)
        do {
            try prepare(sizes: [], viewport: newBounds.size)
        } catch {
            (viewport, itemSize) = old
        }
        itemCount = count
    }

    /// The proposed offset, clamped (UIKit's default: no snapping).
    public func targetContentOffset(forProposed proposed: Point, velocity: Point) -> Point {
        clampedContentOffset(proposed)
    }

    /// Grid items do not self-size: returns 0.
    public func setMeasuredSize(_ size: Size, forItemAt index: Int, contentOffset: Point) -> Double { 0 }
}
