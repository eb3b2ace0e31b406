import FeedLayout
import FeedModel

/// Scroll anchoring: applies a ``FeedChange`` to a layout and says how far to move the content
/// offset so the items on screen do not move (anchor drift 0), as browsers' CSS scroll anchoring and
/// chat/feed apps that prepend do.
///
/// The rule, per change:
/// - The anchor is the first (smallest index) cell fully inside the viewport that survives the change;
///   if none is fully visible, the first surviving cell that intersects it; if none does, the first
///   surviving cell (off screen: keeping it still keeps everything that remains still).
/// - `prepend` at the very top — the content offset is ≤ 0 (resting or pulled), or item 0 intersects
///   the viewport — is not anchored: the offset stays and the new items are shown above (what a user at
///   the top of a feed expects after pull to refresh). Everywhere else a prepend moves the offset down
///   by the height inserted above the anchor.
/// - Except: a prepend answering a `.prepend` load is anchored even at the very top. Such a load
///   restores pages that page dropping removed (new items at the head wait for a Refresh); the
///   list's first item is then the top of the loaded window, not news at the head of the feed, and
///   showing the prepended items would move the user's items away (after a fling to the top of the
///   window, one restored page after another, up to the head of the feed). RecyclerView keeps its
///   anchor view the same way when items are inserted at position 0.
/// - `append`, `dropFirst`, `dropLast` are anchored (for append and dropLast the adjustment is 0 in
///   layouts where earlier items keep their frames; it is measured, not assumed).
/// - `replace` has nothing to anchor to (the new list shares no item with the old one): the offset goes
///   back to the top, keeping a negative (pulled) offset as it is.
/// - Content that fits the viewport along the axis after the change cannot scroll, so there is no
///   offset to hold an item still with: a strip squeezing a More page into one viewport-wide row
///   resizes its items in place (rule `fits`, adjustment 0). Moving the offset there would be undone
///   by the scroll model's clamp and read as scrolling.
///
/// The adjustment is exact; clamping the new offset into `[0, maxOffset]` would reintroduce drift and
/// is left to the scroll model.
public enum ScrollAnchoring {
    /// Which part of the rule applied.
    public enum Rule: String, Hashable, Sendable, Codable {
        /// The anchor item stays where it was on screen.
        case anchored
        /// A prepend at the very top: the offset stays, new items are shown.
        case atTop
        /// A replacement: the offset went back to the top.
        case reset
        /// Nothing was laid out before or after the change: no adjustment.
        case empty
        /// The content fits the viewport along the axis after the change (a strip, whose content
        /// is the viewport): nothing can scroll, the items resize or move in place, no adjustment.
        case fits
    }

    /// The outcome of one change.
    public struct Outcome: Hashable, Sendable {
        /// Points to add to the content offset along the axis.
        public var adjustment: Double
        /// The content offset after the adjustment.
        public var contentOffset: Point
        public var rule: Rule
        /// The anchor's index before and after the change (`nil` unless `rule == .anchored`).
        public var anchorIndexBefore: Int?
        public var anchorIndexAfter: Int?
    }

    /// Applies `change` to `layout` (`append`, `prepend`, `removeFirst`, `removeLast`, or `prepare`
    /// for `replace`) and returns the content-offset adjustment that keeps the anchor still.
    /// - Parameters:
    ///   - change: what the controller did to the loaded list.
    ///   - layout: the layout holding the list before the change.
    ///   - contentOffset: the content offset before the change, points.
    ///   - viewport: the viewport size, points (used for the visible rect and for `prepare`).
    ///   - axis: the scroll axis.
    ///   - load: the kind of the request whose answer produced `change` (the driver knows it from the
    ///     ``FeedController/pageArrived(_:page:now:)`` call); `.prepend` anchors a prepend even at the
    ///     very top. `nil` (unknown, or not a page answer) keeps the at-top rule.
    ///   - viewportElements: the layout's answer for the viewport rect before the change, when the
    ///     caller has asked for it already (the replay's anchor measurement does); `nil` asks here.
    /// - Throws: ``LayoutError`` from `prepare` on `replace`.
    /// - Complexity: one visible-rect query of the layout (none with `viewportElements`) plus the
    ///   layout's own update cost.
    public static func apply(
        _ change: FeedChange, to layout: any CollectionLayout, contentOffset: Point, viewport: Size,
        axis: ScrollAxis = .vertical, load: FeedController.LoadKind? = nil, viewportElements: [LayoutAttributes]? = nil
    ) throws -> Outcome {
        let offset = axis.component(of: contentOffset)
        let countBefore = layout.itemCount
        var survivors = 0..<countBefore
        var shift = 0
        switch change {
        case .append: break
        case .prepend(let items): shift = items.count
        case .dropFirst(let n):
            survivors = min(n, countBefore)..<countBefore
            shift = -n
        case .dropLast(let n): survivors = 0..<max(0, countBefore - n)
        case .replace: survivors = 0..<0
        }
        let atTop: Bool
        if case .prepend = change, load != .prepend {
            atTop = offset <= 0 || intersectsViewport(layout.attributesForItem(at: 0), contentOffset, viewport)
        } else {
            atTop = false
        }
        let anchor = anchorIndex(
            in: layout, contentOffset: contentOffset, viewport: viewport, among: survivors, elements: viewportElements)
        let anchorStart = anchor.flatMap { layout.attributesForItem(at: $0) }.map { axis.start(of: $0.frame) }

        switch change {
        case .append(let items): layout.append(sizes: items.map(size))
        case .prepend(let items): layout.prepend(sizes: items.map(size))
        case .dropFirst(let n): layout.removeFirst(n)
        case .dropLast(let n): layout.removeLast(n)
        case .replace(let items): try layout.prepare(sizes: items.map(size), viewport: viewport)
        }

        if case .replace = change {
            let adjustment = min(offset, 0) - offset
            return Outcome(
                adjustment: adjustment, contentOffset: axis.offsetting(contentOffset, by: adjustment), rule: .reset,
                anchorIndexBefore: nil, anchorIndexAfter: nil)
        }
        if atTop {
            return Outcome(
                adjustment: 0, contentOffset: contentOffset, rule: .atTop, anchorIndexBefore: nil,
                anchorIndexAfter: nil)
        }
        guard let anchor, let anchorStart, let after = layout.attributesForItem(at: anchor + shift) else {
            return Outcome(
                adjustment: 0, contentOffset: contentOffset, rule: .empty, anchorIndexBefore: nil,
                anchorIndexAfter: nil)
        }
        if axis.length(of: layout.contentSize) <= axis.length(of: viewport), offset >= 0 {
            return Outcome(
                adjustment: 0, contentOffset: contentOffset, rule: .fits, anchorIndexBefore: nil, anchorIndexAfter: nil)
        }
        let adjustment = axis.start(of: after.frame) - anchorStart
        return Outcome(
            adjustment: adjustment, contentOffset: axis.offsetting(contentOffset, by: adjustment), rule: .anchored,
            anchorIndexBefore: anchor, anchorIndexAfter: anchor + shift)
    }

    /// The anchor among `candidates`: the first cell fully inside the viewport, else the first that
    /// intersects it, else the first candidate; `nil` when there are no candidates.
    /// - Parameter elements: the layout's answer for the viewport rect when the caller has it
    ///   (the same elements the query would return); `nil` asks the layout.
    /// - Complexity: one `attributesForElements(in:)` query of the viewport rect (none with `elements`).
    public static func anchorIndex(
        in layout: any CollectionLayout, contentOffset: Point, viewport: Size, among candidates: Range<Int>,
        elements: [LayoutAttributes]? = nil
    ) -> Int? {
        guard !candidates.isEmpty else { return nil }
        let rect = Rect(origin: contentOffset, size: viewport)
        // One pass over the answer, no filtered copies (a page's change ran two filters and two maps).
        // Fields are read in place: iterating the array copied each element (its category's string
        // payload retained and released).
        var firstFull: Int?
        var firstAny: Int?
        (elements ?? layout.attributesForElements(in: rect)).withUnsafeBufferPointer { elements in
            for position in elements.indices {
                guard case .cell = elements[position].category else { continue }
                let index = elements[position].indexPath.item
                guard candidates.contains(index) else { continue }
                firstAny = min(firstAny ?? index, index)
                if contains(rect, elements[position].frame) { firstFull = min(firstFull ?? index, index) }
            }
        }
        return firstFull ?? firstAny ?? candidates.lowerBound
    }

    private static func contains(_ outer: Rect, _ inner: Rect) -> Bool {
        inner.minX >= outer.minX && inner.maxX <= outer.maxX && inner.minY >= outer.minY && inner.maxY <= outer.maxY
    }

    private static func intersectsViewport(_ attributes: LayoutAttributes?, _ contentOffset: Point, _ viewport: Size)
        -> Bool
    {
        guard let attributes else { return false }
        return attributes.frame.intersects(Rect(origin: contentOffset, size: viewport))
    }

    private static func size(_ item: Item) -> Size { Size(width: item.width, height: item.height) }
}
