import FeedLayout

extension FeedController.Viewport {
    /// The controller's view of a layout at a content offset: offset, viewport and content lengths
    /// along `axis`, and the smallest and largest index of the cells that intersect the viewport.
    /// - Parameters:
    ///   - layout: the layout, already holding the current list.
    ///   - contentOffset: the viewport's origin in content coordinates, points.
    ///   - axis: the scroll axis.
    /// - Complexity: one `attributesForElements(in:)` query of the viewport rect.
    public init(layout: any CollectionLayout, contentOffset: Point, axis: ScrollAnchoring.Axis = .vertical) {
        let size = layout.viewport
        let visible = layout.attributesForElements(in: Rect(origin: contentOffset, size: size))
            .filter { $0.category == .cell }
            .map(\.indexPath.item)
        let vertical = axis == .vertical
        self.init(
            contentOffset: vertical ? contentOffset.y : contentOffset.x,
            viewportLength: vertical ? size.height : size.width,
            contentLength: vertical ? layout.contentSize.height : layout.contentSize.width,
            firstVisibleIndex: visible.min(), lastVisibleIndex: visible.max())
    }
}
