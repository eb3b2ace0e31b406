import FeedLayout
import Testing

/// Builds and prepares a layout, failing the test (at the caller) if it throws.
func prepared(
    _ configuration: LayoutConfiguration, sizes: [Size], viewport: Size,
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> any CollectionLayout {
    let layout = try configuration.makeLayout()
    try layout.prepare(sizes: sizes, viewport: viewport)
    return layout
}

/// Cell frames of the whole layout, in index order.
func cellFrames(_ layout: any CollectionLayout) -> [Rect] {
    (0..<layout.itemCount).compactMap { layout.attributesForItem(at: $0)?.frame }
}

/// Expects the layout's cell frames to equal `expected` exactly.
func expectFrames(
    _ layout: any CollectionLayout, _ expected: [Rect], sourceLocation: SourceLocation = #_sourceLocation
) {
    let actual = cellFrames(layout)
    #expect(actual.count == expected.count, sourceLocation: sourceLocation)
    for (index, (a, e)) in zip(actual, expected).enumerated() {
        #expect(a == e, "item \(index)", sourceLocation: sourceLocation)
    }
}

/// Item indices of the cells in `attributes`, in order; supplementary views as -1 (header), -2 (footer) and -4 (refresh).
func indices(_ attributes: [LayoutAttributes]) -> [Int] {
    attributes.map { attributes in
        switch attributes.category {
        case .cell: return attributes.indexPath.item
        case .supplementary(.header): return -1
        case .supplementary(.footer): return -2
        case .supplementary(.refresh): return -4
        case .decoration: return -3
        }
    }
}

/// Whether `rect` lies inside `[0, size]` up to `tolerance` points (floating-point sums of many
/// spacings can land an ulp outside).
func isInside(_ rect: Rect, _ size: Size, tolerance: Double = 1e-6) -> Bool {
    rect.minX >= -tolerance && rect.minY >= -tolerance
        && rect.maxX <= size.width + tolerance && rect.maxY <= size.height + tolerance
}
