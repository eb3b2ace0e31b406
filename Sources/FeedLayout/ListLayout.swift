/// One full-width column of rows: the default for text feeds. Self-sizing like a
/// `UITableView` with `estimatedRowHeight`: with an estimated height every row is that tall
/// until ``setMeasuredSize(_:forItemAt:contentOffset:)`` records its real height.
///
/// ```
///  ┌──── header ────┐  y = 0
///  │  top inset     │
///  │ [0]            │  y₀ = H + top
///  │  spacing       │
///  │ [1]            │  yᵢ₊₁ = yᵢ + hᵢ + spacing
///  │  ...           │
///  │  bottom inset  │
///  └──── footer ────┘
/// ```
/// Row width = W − left − right; row height = the intrinsic height (the intrinsic width is
/// ignored: rows are full width), or the estimate until measured.
///
/// Storage (see `ListLayout+Storage.swift`): heights and row tops in a deque with free slots in
/// front, tops in a coordinate whose origin is arbitrary (the first live row defines y₀), and a
/// first invalid index past which tops are recomputed lazily, only as far as a query needs.
/// So `prepend` costs O(m) for m new rows (a running offset base, no rebuild), `append` O(m),
/// a measurement O(1) plus the rows between it and the next query, `removeFirst/Last` O(removed).
public final class ListLayout: InPlaceQueryLayout, SupplementaryViewHosting {
    public let configuration: LayoutConfiguration
    // `@exclusivity(unchecked)`: read every frame through the layout protocol (see `Virtualizer`).
    @exclusivity(unchecked) public private(set) var viewport = Size.zero
    @exclusivity(unchecked) var storage = ListStorage()
    /// The first row the last rect query returned: the next query starts there (``QueryHint``).
    @exclusivity(unchecked) var hint = QueryHint()

    @exclusivity(unchecked) var supplementary: SupplementaryViews

    init(configuration: LayoutConfiguration) {
        self.configuration = configuration
        supplementary = SupplementaryViews(configuration)
    }

    var insets: EdgeInsets { configuration.insets }
    var spacing: Double { configuration.spacing }
    var firstRowY: Double { configuration.headerHeight + insets.top }
    var rowWidth: Double { viewport.width - insets.left - insets.right }

    public var itemCount: Int { storage.count }

    /// The height a new row gets: the estimate if there is one, else its intrinsic height.
    func initialHeight(_ size: Size) -> Double {
        configuration.estimatedHeight ?? sanitized(size).height
    }

    /// - Throws: ``LayoutError`` for an empty viewport, bad sizes, or insets leaving no width.
    /// - Complexity: O(n).
    public func prepare(sizes: [Size], viewport: Size) throws {
        try configuration.validate()
        try Check.viewport(viewport)
        try Check.sizes(sizes)
        _ = try Check.trackExtent(
            total: viewport.width, leading: insets.left, trailing: insets.right, gaps: 0, spacing: 0)
        self.viewport = viewport
        storage = ListStorage()
        storage.append(sizes.map(initialHeight), spacing: spacing)
        if !sizes.isEmpty { storage.validate(through: sizes.count - 1, spacing: spacing) }
    }

    /// - Complexity: O(m) for m new rows (their tops are computed when a query first needs them).
    public func append(sizes: [Size]) {
        storage.append(sizes.map(initialHeight), spacing: spacing)
    }

    /// - Complexity: O(m) amortized for m new rows: their tops are computed upward from the
    ///   first row's; existing rows keep their stored tops.
    public func prepend(sizes: [Size]) {
        storage.prepend(sizes.map(initialHeight), spacing: spacing)
        hint.index += sizes.count
    }

    /// - Complexity: O(removed) amortized.
    public func removeFirst(_ n: Int) {
        storage.removeFirst(n, spacing: spacing)
        hint.index -= n
    }
    /// - Complexity: O(removed).
    public func removeLast(_ n: Int) { storage.removeLast(n) }

    /// Height = H + top + Σh + (n − 1)·spacing + bottom + footer.
    /// - Complexity: O(1) (a running sum of heights).
    public var contentSize: Size {
        let n = storage.count
        let rows = n == 0 ? 0 : storage.heightSum + Double(n - 1) * spacing
        return Size(
            width: viewport.width,
            height: firstRowY + rows + insets.bottom + configuration.footerHeight)
    }


    func frame(_ index: Int) -> Rect {
        Rect(x: insets.left, y: firstRowY + storage.top(index), width: rowWidth, height: storage.height(index))
    }

    /// Fills `result` in place (the virtualizer's query every frame; ``InPlaceQueryLayout`` derives
    /// the allocating ``attributesForElements(in:)`` from it).
    /// - Complexity: O(log d + k) once tops are valid down to the rect, for a rect starting d rows
    ///   from where the last query's answer began (a scrolling viewport: d is a few rows); a jump
    ///   searches from an interpolated guess, O(log n) at worst. After a measurement, the first
    ///   query also recomputes tops from the measured row down to the rect.
    public func attributesForElements(in rect: Rect, into result: inout [LayoutAttributes]) {
        result.removeAll(keepingCapacity: true)
        let content = contentSize
        supplementary.appendLeading(in: rect, viewport: viewport, contentSize: content, to: &result)
        if storage.count > 0, !rect.isEmpty {
            let limit = rect.maxY - firstRowY
            storage.validate(whileTopBelow: limit, spacing: spacing)
            let valid = storage.validCount
            let low = rect.minY - firstRowY
            let window = QueryHint.window(low: low, high: limit, viewport: viewport.height)
            let guess = hint.guess(low: low, window: window, in: 0..<valid, position: { storage.top($0) }) {
                interpolatedGuess(low, first: 0, last: storage.top(valid - 1), in: 0..<valid)
            }
            // The search reads tops alone (one array: a probe of a jump over 10⁷ rows misses cache
            // once, not once in tops and once in heights): the first row whose top is past `low`.
            // The row before it is the first to reach past `low` when its bottom does; rows
            // before that end at or above the next one's top, so at or above `low`.
            let after = partitionPoint(in: 0..<valid, guess: guess) { storage.top($0) > low }
            var index = after > 0 && storage.top(after - 1) + storage.height(after - 1) > low ? after - 1 : after
            hint.index = index
            while index < valid, storage.top(index) < limit {
                let frame = frame(index)
                if frame.intersects(rect) { result.append(cellAttributes(index, frame)) }
                index += 1
            }
        }
        if let footer = supplementary.trailing(in: rect, viewport: viewport, contentSize: content) { result.append(footer) }
    }

    /// - Complexity: O(1) when the row's top is valid, else O(rows since the first invalid index).
    public func attributesForItem(at index: Int) -> LayoutAttributes? {
        guard index >= 0, index < storage.count else { return nil }
        storage.validate(through: index, spacing: spacing)
        return cellAttributes(index, frame(index))
    }

    /// True only when the width changes; heights do not depend on the width.
    public func shouldInvalidateLayout(forBoundsChange newBounds: Rect) -> Bool {
        newBounds.width != viewport.width
    }

    /// Adopts the new width if it leaves room for rows. Row heights stay (measured heights too).
    /// - Complexity: O(1).
    public func invalidateLayout(forBoundsChange newBounds: Rect) {
        guard (try? Check.viewport(newBounds.size)) != nil, insets.left + insets.right < newBounds.width else { return }
        viewport = newBounds.size
    }

    public func targetContentOffset(forProposed proposed: Point, velocity: Point) -> Point {
        clampedContentOffset(proposed)
    }

    /// Replaces row `index`'s height with `size.height` and returns the content-offset change
    /// that keeps the visible rows still: the height change when the row's top lies above
    /// `contentOffset.y` (UITableView's behaviour with estimated heights), else 0. Rows below it
    /// are moved lazily (first invalid index). Out-of-range indices and NaN or negative heights
    /// are ignored (returns 0).
    /// - Complexity: O(1), plus recomputing tops down to the row if they were invalid.
    /// Rows are measured when configured only when an estimated height stands in for them.
    public var isSelfSizing: Bool { configuration.estimatedHeight != nil }

    public func setMeasuredSize(_ size: Size, forItemAt index: Int, contentOffset: Point) -> Double {
        guard index >= 0, index < storage.count, size.height.isFinite, size.height >= 0 else { return 0 }
        storage.validate(through: index, spacing: spacing)
        let top = firstRowY + storage.top(index)
        let delta = storage.setHeight(size.height, at: index)
        return top < contentOffset.y ? delta : 0
    }
}
