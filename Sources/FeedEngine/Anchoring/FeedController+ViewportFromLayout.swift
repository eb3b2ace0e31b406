import FeedLayout

extension FeedController.Viewport {
    /// The controller's view of a layout at a content offset: offset, viewport and content lengths
    /// along `axis`, and the smallest and largest index of the cells that intersect the viewport.
    /// - Parameters:
    ///   - layout: the layout, already holding the current list.
    ///   - contentOffset: the viewport's origin in content coordinates, points.
    ///   - axis: the scroll axis.
    /// - Complexity: one `attributesForElements(in:)` query of the viewport rect.
    public init(layout: any CollectionLayout, contentOffset: Point, axis: ScrollAxis = .vertical) {
        let size = layout.viewport
        var first: Int?
        var last: Int?
        for element in layout.attributesForElements(in: Rect(origin: contentOffset, size: size)) {
            guard case .cell = element.category else { continue }
            let index = element.indexPath.item
            first = min(first ?? index, index)
            last = max(last ?? index, index)
        }
        self.init(
            contentOffset: axis.component(of: contentOffset),
            viewportLength: axis.length(of: size),
            contentLength: axis.length(of: layout.contentSize),
            firstVisibleIndex: first, lastVisibleIndex: last)
    }
}
