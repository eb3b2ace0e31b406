/// Masonry (Pinterest-style): C columns of equal width; each item keeps its intrinsic aspect
/// ratio and goes into the currently shortest column (ties: the leftmost).
///
/// ```
///  ┌──────── header ────────┐
///  │ [0]    s [1]    s [2]  │  column width c = (W − left − right − (C − 1)·s) / C
///  │ [0]      [1]    lsp    │  height = c · h / w (intrinsic w × h; w = 0: h as given)
///  │ lsp      [1]      [3]  │  item i+1 → the column whose bottom is highest (ties: leftmost)
///  │ [4]      lsp      [3]  │
///  └────────────────────────┘
/// ```
/// A column's first item sits at y = H + top; later ones at the column's bottom + line spacing.
/// Content height = the lowest column bottom + bottom inset.
///
/// Cache: every frame, each column's items (sorted by y, since a column only grows downward)
/// and each column's bottom. A rect query searches each column from where the last one's answer
/// began there (``QueryHint``), then merges the hits into
/// index order: O(C·log d + k·log k) for d items moved. `append` places only the new items (O(m·C));
/// `removeLast` trims the columns (O(removed + C)); `prepend`, `removeFirst` and a width change
/// re-place everything, since every column choice depends on all items above.
public final class WaterfallLayout: InPlaceQueryLayout, SupplementaryViewHosting {
    public let configuration: LayoutConfiguration
    // `@exclusivity(unchecked)`: read every frame through the layout protocol (see `Virtualizer`).
    @exclusivity(unchecked) public private(set) var viewport = Size.zero
    @exclusivity(unchecked) private var sizes: [Size] = []
    @exclusivity(unchecked) private var frames: [Rect] = []
    @exclusivity(unchecked) private var columnItems: [[Int]] = []
    /// Per column, each item's bottom edge (maxY) in column order, beside `columnItems`: the
    /// search probes this array alone, one cache line a probe instead of one in `columnItems`
    /// and one in `frames` (a jump over 10⁷ items misses cache at every probe).
    @exclusivity(unchecked) private var columnItemBottoms: [[Double]] = []
    @exclusivity(unchecked) private var columnBottoms: [Double] = []
    /// Per column, the position in `columnItems` where the last rect query's answer began: the
    /// next query starts there (``QueryHint``).
    @exclusivity(unchecked) private var hints: [QueryHint] = []
    @exclusivity(unchecked) private var columnWidth = 0.0
    /// The indices a rect query found, before they are sorted into index order: kept between
    /// queries so a query allocates nothing.
    @exclusivity(unchecked) private var hits: [Int] = []
    @exclusivity(unchecked) var supplementary: SupplementaryViews

    init(configuration: LayoutConfiguration) {
        self.configuration = configuration
        supplementary = SupplementaryViews(configuration)
    }

    public var itemCount: Int { frames.count }
    private var columns: Int { configuration.columns }
    private var insets: EdgeInsets { configuration.insets }
    private var spacing: Double { configuration.spacing }
    private var lineSpacing: Double { configuration.resolvedLineSpacing }
    private var firstRowY: Double { configuration.headerHeight + insets.top }

    /// - Throws: ``LayoutError`` for an empty viewport, bad sizes, or insets/spacing leaving no room.
    /// - Complexity: O(n·C).
    public func prepare(sizes: [Size], viewport: Size) throws {
        try configuration.validate()
        try Check.viewport(viewport)
        try Check.sizes(sizes)
        let extent = try Check.trackExtent(
            total: viewport.width, leading: insets.left, trailing: insets.right, gaps: columns - 1, spacing: spacing)
        columnWidth = extent / Double(columns)
        self.viewport = viewport
        self.sizes = sizes
        placeAll()
    }

    private func placeAll() {
        frames.removeAll(keepingCapacity: true)
        frames.reserveCapacity(sizes.count)
        columnItems = Array(repeating: [], count: columns)
        columnItemBottoms = Array(repeating: [], count: columns)
        columnBottoms = Array(repeating: firstRowY, count: columns)
        hints = Array(repeating: QueryHint(), count: columns)
        place(from: 0)
    }

    /// Places items `start..<sizes.count` greedily.
    private func place(from start: Int) {
        for index in start..<sizes.count {
            var column = 0
            for candidate in 1..<max(columns, 1) where columnBottoms[candidate] < columnBottoms[column] {
                column = candidate
            }
            let size = sizes[index]
            let height = size.width > 0 ? columnWidth * size.height / size.width : size.height
            let y = columnItems[column].isEmpty ? firstRowY : columnBottoms[column] + lineSpacing
            let frame = Rect(
                x: insets.left + Double(column) * (columnWidth + spacing), y: y, width: columnWidth, height: height)
            frames.append(frame)
            columnItems[column].append(index)
            columnItemBottoms[column].append(frame.maxY)
            columnBottoms[column] = frame.maxY
        }
    }

    /// - Complexity: O(m·C).
    public func append(sizes newSizes: [Size]) {
        let start = sizes.count
        sizes.append(contentsOf: newSizes.map(sanitized))
        place(from: start)
    }

    /// - Complexity: O(n·C): every column choice changes.
    public func prepend(sizes newSizes: [Size]) {
        guard !newSizes.isEmpty else { return }
        sizes.insert(contentsOf: newSizes.map(sanitized), at: 0)
        placeAll()
    }

    /// - Complexity: O(n·C): every column choice changes.
    public func removeFirst(_ n: Int) {
        let n = min(max(n, 0), sizes.count)
        guard n > 0 else { return }
        sizes.removeFirst(n)
        placeAll()
    }

    /// - Complexity: O(removed + C).
    public func removeLast(_ n: Int) {
        let n = min(max(n, 0), sizes.count)
        guard n > 0 else { return }
        let count = sizes.count - n
        sizes.removeLast(n)
        frames.removeLast(n)
        for column in 0..<columns {
            while let last = columnItems[column].last, last >= count {
                columnItems[column].removeLast()
                columnItemBottoms[column].removeLast()
            }
            columnBottoms[column] = columnItems[column].last.map { frames[$0].maxY } ?? firstRowY
        }
    }

    public var contentSize: Size {
        let lowest = columnBottoms.max() ?? firstRowY
        return Size(width: viewport.width, height: lowest + insets.bottom + configuration.footerHeight)
    }

    /// Fills `result` in place (the virtualizer's query every frame; ``InPlaceQueryLayout`` derives
    /// the allocating ``attributesForElements(in:)`` from it).
    /// - Complexity: O(C·log d + k·log k), for a rect starting d items (per column) from where the
    ///   last query's answer began (a scrolling viewport: d is a few items); a jump searches from
    ///   an interpolated guess, O(C·log n + k·log k) at worst.
    public func attributesForElements(in rect: Rect, into result: inout [LayoutAttributes]) {
        result.removeAll(keepingCapacity: true)
        let content = contentSize
        supplementary.appendLeading(in: rect, viewport: viewport, contentSize: content, to: &result)
        let footer = supplementary.trailing(in: rect, viewport: viewport, contentSize: content)
        guard !frames.isEmpty, !rect.isEmpty else {
            if let footer { result.append(footer) }
            return
        }
        var hits = self.hits  // the kept buffer, held alone while this query fills it
        self.hits = []
        hits.removeAll(keepingCapacity: true)
        let window = QueryHint.window(low: rect.minY, high: rect.maxY, viewport: viewport.height)
        for column in columnItems.indices {
            let items = columnItems[column]
            let bottoms = columnItemBottoms[column]
            guard let first = bottoms.first, let last = bottoms.last else { continue }
            // Bottoms grow with the position in a column as tops do: item p's top is the bottom
            // of item p − 1 plus the line spacing.
            let guess = hints[column].guess(low: rect.minY, window: window, in: 0..<bottoms.count, position: { bottoms[$0] }) {
                interpolatedGuess(rect.minY, first: first, last: last, in: 0..<bottoms.count)
            }
            var position = partitionPoint(in: 0..<bottoms.count, guess: guess) { bottoms[$0] > rect.minY }
            hints[column].index = position
            while position < items.count, frames[items[position]].minY < rect.maxY {
                if frames[items[position]].intersects(rect) { hits.append(items[position]) }
                position += 1
            }
        }
        hits.sort()
        for index in hits { result.append(cellAttributes(index, frames[index])) }
        self.hits = hits
        if let footer { result.append(footer) }
    }

    public func attributesForItem(at index: Int) -> LayoutAttributes? {
        guard index >= 0, index < frames.count else { return nil }
        return cellAttributes(index, frames[index])
    }

    public func shouldInvalidateLayout(forBoundsChange newBounds: Rect) -> Bool {
        newBounds.width != viewport.width
    }

    /// Re-places every item for the new width; keeps the old layout if the width is invalid.
    /// - Complexity: O(n·C).
    public func invalidateLayout(forBoundsChange newBounds: Rect) {
        guard (try? Check.viewport(newBounds.size)) != nil,
            let extent = try? Check.trackExtent(
                total: newBounds.width, leading: insets.left, trailing: insets.right, gaps: columns - 1,
                spacing: spacing)
        else { return }
        viewport = newBounds.size
        columnWidth = extent / Double(columns)
        placeAll()
    }

    public func targetContentOffset(forProposed proposed: Point, velocity: Point) -> Point {
        clampedContentOffset(proposed)
    }

    public func setMeasuredSize(_ size: Size, forItemAt index: Int, contentOffset: Point) -> Double { 0 }
}
