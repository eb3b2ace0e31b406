import FeedLayout

extension Virtualizer {
    /// The element at `point` (content coordinates): of the elements whose frame, with its
    /// transform applied, contains the point (half-open), the one with the highest zIndex; on a
    /// tie the later in layout order, which is drawn on top. Hidden elements and elements with
    /// alpha below 0.01 are skipped, as `UIView.hitTest(_:with:)` skips them.
    ///
    /// Item ids come from the `items` of the last update, or from the caller's list held since it
    /// was edited (``editItems(_:)``), which the layout then describes.
    ///
    /// - Returns: the element's index path, category and item id (cells only); `nil` when the
    ///   point is on no element.
    /// - Complexity: one layout query for the viewport-sized rect centred on the point (so a
    ///   transform that grows an element by up to half a viewport is still found).
    public func element(at point: Point) -> VirtualizerHit? {
        let span = layout.viewport
        let probe = Rect(
            x: point.x - max(span.width, 1) / 2, y: point.y - max(span.height, 1) / 2,
            width: max(span.width, 1), height: max(span.height, 1))
        var best: (hit: VirtualizerHit, zIndex: Int)?
        for attributes in layout.attributesForElements(in: probe) {
            guard !attributes.isHidden, attributes.alpha >= 0.01 else { continue }
            let frame = Self.transformedFrame(attributes)
            guard frame.contains(point) else { continue }
            if let current = best, current.zIndex > attributes.zIndex { continue }
            var itemID: Int64?
            if attributes.category == .cell {
                let index = attributes.indexPath.item
                itemID = index >= 0 && index < items.count ? items[index].id : nil
            }
            let hit = VirtualizerHit(
                indexPath: attributes.indexPath, category: attributes.category, itemID: itemID, frame: frame)
            best = (hit, attributes.zIndex)
        }
        return best?.hit
    }

    /// A tap at `point` (content coordinates): hit tests, and when the topmost element is a cell
    /// selects its item, as `collectionView(_:didSelectItemAt:)`. A tap on a header, footer or
    /// nothing selects nothing and leaves the selection as it was.
    /// - Returns: the element hit, `nil` when none.
    @discardableResult
    public func tap(at point: Point) -> VirtualizerHit? {
        guard let hit = element(at: point) else { return nil }
        if hit.category == .cell, hit.itemID != nil {
            selection = hit
            counters.taps += 1
        }
        return hit
    }

    /// The frame an element is drawn in: scaled about its center, then translated.
    static func transformedFrame(_ attributes: LayoutAttributes) -> Rect {
        let t = attributes.transform
        let width = attributes.frame.width * abs(t.scaleX)
        let height = attributes.frame.height * abs(t.scaleY)
        let center = attributes.frame.center
        return Rect(
            x: center.x + t.translateX - width / 2, y: center.y + t.translateY - height / 2,
            width: width, height: height)
    }
}
