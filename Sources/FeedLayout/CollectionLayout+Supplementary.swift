/// The refresh, header and footer views of a one-section layout, along its scroll axis.
///
/// ```
///  vertical:   y = −R ┌──── refresh (R) ────┐  above the content, as UIRefreshControl
///              y = 0  ├──── header (H) ─────┤
///                     │  items              │
///          y = C − F  ├──── footer (F) ─────┤  the load-more view
///              y = C  └─────────────────────┘  C = content height
/// ```
/// Each view spans the viewport across the scroll axis; an extent of 0 means no view. The
/// refresh view lies outside the content (in the leading inset a Refresh opens), the only
/// element that does. Hidden views (``hidden``, e.g. the footer once the feed has ended) keep
/// their place and are returned with `isHidden` set, as a load-more view whose `isHidden` the
/// data source toggles.
struct SupplementaryViews {
    var refreshExtent: Double
    var headerExtent: Double
    var footerExtent: Double
    var axis: ScrollAxis
    var hidden: Set<SupplementaryKind> = []

    init(_ configuration: LayoutConfiguration) {
        refreshExtent = configuration.refreshHeight
        headerExtent = configuration.headerHeight
        footerExtent = configuration.footerHeight
        axis = configuration.scrollAxis
    }

    /// The view's frame for a layout with this viewport and content size, points.
    func frame(_ kind: SupplementaryKind, viewport: Size, contentSize: Size) -> Rect {
        let length = axis == .vertical ? contentSize.height : contentSize.width
        let position: Double
        let extent: Double
        switch kind {
        case .refresh: (position, extent) = (-refreshExtent, refreshExtent)
        case .header: (position, extent) = (0, headerExtent)
        case .footer: (position, extent) = (length - footerExtent, footerExtent)
        }
        return axis == .vertical
            ? Rect(x: 0, y: position, width: viewport.width, height: extent)
            : Rect(x: position, y: 0, width: extent, height: viewport.height)
    }

    /// The view's attributes, `nil` when it has no extent (or the layout no viewport yet).
    func attributes(_ kind: SupplementaryKind, viewport: Size, contentSize: Size) -> LayoutAttributes? {
        guard var attributes = supplementaryAttributes(kind, frame: frame(kind, viewport: viewport, contentSize: contentSize))
        else { return nil }
        attributes.isHidden = hidden.contains(kind)
        return attributes
    }

    /// The views before the cells (refresh, header) that intersect `rect`, in that order.
    func leading(in rect: Rect, viewport: Size, contentSize: Size) -> [LayoutAttributes] {
        [SupplementaryKind.refresh, .header].compactMap { kind in
            attributes(kind, viewport: viewport, contentSize: contentSize).flatMap { $0.frame.intersects(rect) ? $0 : nil }
        }
    }

    /// ``leading(in:viewport:contentSize:)`` appended to `result` (no array of its own).
    func appendLeading(in rect: Rect, viewport: Size, contentSize: Size, to result: inout [LayoutAttributes]) {
        for kind in [SupplementaryKind.refresh, .header] {
            if let attributes = attributes(kind, viewport: viewport, contentSize: contentSize),
                attributes.frame.intersects(rect)
            {
                result.append(attributes)
            }
        }
    }

    /// The footer if it intersects `rect`.
    func trailing(in rect: Rect, viewport: Size, contentSize: Size) -> LayoutAttributes? {
        attributes(.footer, viewport: viewport, contentSize: contentSize).flatMap { $0.frame.intersects(rect) ? $0 : nil }
    }
}

/// A layout that keeps ``SupplementaryViews``: the two supplementary-view calls of
/// ``CollectionLayout``, written once for grid, flow, mosaic, waterfall and list.
protocol SupplementaryViewHosting: CollectionLayout {
    var supplementary: SupplementaryViews { get set }
}

extension SupplementaryViewHosting {
    public func attributesForSupplementaryView(ofKind kind: SupplementaryKind) -> LayoutAttributes? {
        supplementary.attributes(kind, viewport: viewport, contentSize: contentSize)
    }

    public func setSupplementaryView(ofKind kind: SupplementaryKind, hidden: Bool) {
        // No change, no write: the replay sets the footer every frame, and a write counts as a
        // change of the layout (``CollectionLayout/layoutGeneration``).
        guard supplementary.hidden.contains(kind) != hidden else { return }
        if hidden { supplementary.hidden.insert(kind) } else { supplementary.hidden.remove(kind) }
    }
}

/// A layout whose frames follow from the item's index by arithmetic (grid, mosaic, carousel,
/// strip): changes only move the count, written once here.
protocol ArithmeticLayout: CollectionLayout {
    var itemCount: Int { get set }
}

extension ArithmeticLayout {
    /// - Complexity: O(1).
    public func append(sizes: [Size]) { itemCount += sizes.count }
    /// - Complexity: O(1): every item's frame follows from its new index.
    public func prepend(sizes: [Size]) { itemCount += sizes.count }
    /// - Complexity: O(1).
    public func removeFirst(_ n: Int) { itemCount -= min(max(n, 0), itemCount) }
    /// - Complexity: O(1).
    public func removeLast(_ n: Int) { itemCount -= min(max(n, 0), itemCount) }
}
