/// Which layout a ``LayoutConfiguration`` builds.
public enum LayoutKind: String, CaseIterable, Codable, Hashable, Sendable {
    case grid, flow, mosaic, carousel, strip, waterfall, list
}

extension LayoutKind {
    /// The parameters this kind reads, spelled as the CLI options without `--` (`columns`,
    /// `item-size`, ...), in the order `--help` lists them. A parameter missing here is ignored
    /// by the layout, so the CLI refuses it rather than drop it silently.
    public var parameters: [String] {
        switch self {
        case .grid:
            return ["columns", "item-size", "spacing", "line-spacing", "insets", "header-height", "footer-height", "refresh-height"]
        case .flow:
            return [
                "item-size", "spacing", "line-spacing", "insets", "header-height", "footer-height", "refresh-height",
                "direction", "alignment",
            ]
        case .mosaic:
            return ["spacing", "insets", "header-height", "footer-height", "refresh-height", "big-height"]
        case .carousel:
            return ["item-size", "spacing", "zoom", "fade"]
        case .strip:
            return []
        case .waterfall:
            return ["columns", "spacing", "line-spacing", "insets", "header-height", "footer-height", "refresh-height"]
        case .list:
            return ["spacing", "insets", "header-height", "footer-height", "refresh-height", "estimated-height"]
        }
    }
}

/// How a flow layout spreads the leftover space of a line (see ``FlowLayout``).
public enum FlowAlignment: String, CaseIterable, Codable, Hashable, Sendable {
    /// UIKit's rule: every line justified (the last as if completed with copies of its last
    /// item), a line holding one item centred.
    case justified
    /// Every line packed to the leading edge with the minimum inter-item spacing.
    case left
}

/// One layout's kind and parameters: what the CLI, the replay harness and the tests share.
///
/// Parameters a kind does not use are ignored here; the CLI refuses them (``LayoutKind/parameters``).
/// Lengths are points. Build the layout with
/// ``makeLayout()``; the viewport comes later, in `prepare(sizes:viewport:)`.
///
/// | kind | uses |
/// |---|---|
/// | grid | columns, itemSize (nil: square from the width), spacing, lineSpacing, insets, headerHeight, footerHeight, refreshHeight |
/// | flow | itemSize (nil: intrinsic sizes), spacing, lineSpacing, insets, headerHeight, footerHeight, refreshHeight, direction, alignment |
/// | mosaic | spacing, bigHeight, insets, headerHeight, footerHeight, refreshHeight |
/// | carousel | itemSize, spacing, zoom, fade |
/// | strip | — (squares from the viewport) |
/// | waterfall | columns, spacing, lineSpacing, insets, headerHeight, footerHeight, refreshHeight |
/// | list | spacing (between rows), insets, headerHeight, footerHeight, refreshHeight, estimatedHeight |
///
/// Supplementary views along the scroll axis: the refresh view in `[−refreshHeight, 0)`, above
/// the content where `UIRefreshControl` sits (seen while pulled, or while a Refresh holds the
/// content inset open); the header at the content's start; the footer (the load-more view) at
/// its end.
public struct LayoutConfiguration: Codable, Hashable, Sendable {
    public var kind: LayoutKind
    /// Columns of a grid or waterfall, ≥ 1.
    public var columns: Int
    /// Fixed item size, points. Grid: nil means square items from the width; carousel: required.
    public var itemSize: Size?
    /// Inter-item spacing (across the scroll axis), points.
    public var spacing: Double
    /// Spacing between lines (along the scroll axis), points; nil means `spacing`.
    public var lineSpacing: Double?
    public var insets: EdgeInsets
    /// Header extent along the scroll axis, points; 0 means no header.
    public var headerHeight: Double
    /// Footer (load-more view) extent along the scroll axis, points; 0 means no footer.
    public var footerHeight: Double
    /// Refresh view extent along the scroll axis, points, placed before the content (negative
    /// coordinates); 0 means no refresh view.
    public var refreshHeight: Double
    /// Mosaic big-item height B, points.
    public var bigHeight: Double
    /// Carousel zoom: the centred item is scaled by 1 + zoom.
    public var zoom: Double
    /// Carousel fading: alpha falls to 0.6 away from the centre.
    public var fade: Bool
    public var direction: ScrollAxis
    public var alignment: FlowAlignment
    /// List: every item is this tall until measured (self-sizing); nil means intrinsic heights are exact.
    public var estimatedHeight: Double?

    public init(
        kind: LayoutKind, columns: Int = 3, itemSize: Size? = nil, spacing: Double = 0,
        lineSpacing: Double? = nil, insets: EdgeInsets = .zero, headerHeight: Double = 0,
        footerHeight: Double = 0, bigHeight: Double = 200, zoom: Double = 0, fade: Bool = false,
        direction: ScrollAxis = .vertical, alignment: FlowAlignment = .justified,
        estimatedHeight: Double? = nil, refreshHeight: Double = 0
    ) {
        self.kind = kind
        self.columns = columns
        self.itemSize = itemSize
        self.spacing = spacing
        self.lineSpacing = lineSpacing
        self.insets = insets
        self.headerHeight = headerHeight
        self.footerHeight = footerHeight
        self.bigHeight = bigHeight
        self.zoom = zoom
        self.fade = fade
        self.direction = direction
        self.alignment = alignment
        self.estimatedHeight = estimatedHeight
        self.refreshHeight = refreshHeight
    }

    /// `lineSpacing`, or `spacing` when it is not set.
    public var resolvedLineSpacing: Double { lineSpacing ?? spacing }

    /// Checks the parameters that do not depend on the viewport (those are checked by `prepare`).
    /// - Throws: ``LayoutError/invalidParameter(name:value:reason:)`` naming the first bad
    ///   parameter, spelled as the CLI option (`columns`, `item-size`, `spacing`, ...).
    public func validate() throws {
        if kind == .grid || kind == .waterfall {
            guard columns >= 1 else {
                throw LayoutError.invalidParameter(name: "columns", value: "\(columns)", reason: "must be at least 1")
            }
        }
        try Check.nonNegative(spacing, "spacing")
        try Check.nonNegative(resolvedLineSpacing, "line-spacing")
        try Check.nonNegative(headerHeight, "header-height")
        try Check.nonNegative(footerHeight, "footer-height")
        try Check.nonNegative(refreshHeight, "refresh-height")
        try Check.insets(insets)
        if let itemSize { try Check.positive(itemSize, "item-size") }
        switch kind {
        case .mosaic:
            try Check.positive(bigHeight, "big-height")
            guard bigHeight > spacing else {
                throw LayoutError.invalidParameter(
                    name: "big-height", value: "\(bigHeight)",
                    reason: "must exceed the spacing \(spacing) so small items have height (B − s) / 2 > 0")
            }
        case .carousel:
            guard itemSize != nil else {
                throw LayoutError.invalidParameter(name: "item-size", value: "none", reason: "a carousel needs an item size")
            }
            try Check.nonNegative(zoom, "zoom")
        case .list:
            if let estimatedHeight { try Check.positive(estimatedHeight, "estimated-height") }
        case .grid, .flow, .strip, .waterfall:
            break
        }
    }

    /// A new, unprepared layout of this kind.
    /// - Throws: what ``validate()`` throws.
    public func makeLayout() throws -> any CollectionLayout {
        try validate()
        switch kind {
        case .grid: return GridLayout(configuration: self)
        case .flow: return FlowLayout(configuration: self)
        case .mosaic: return MosaicLayout(configuration: self)
        case .carousel: return CarouselLayout(configuration: self)
        case .strip: return StripLayout()
        case .waterfall: return WaterfallLayout(configuration: self)
        case .list: return ListLayout(configuration: self)
        }
    }
}

/// Parameter checks that throw ``LayoutError`` naming the parameter.
enum Check {
    static func nonNegative(_ value: Double, _ name: String) throws {
        guard value.isFinite, value >= 0 else {
            throw LayoutError.invalidParameter(name: name, value: "\(value)", reason: "must be a finite number ≥ 0")
        }
    }

    static func positive(_ value: Double, _ name: String) throws {
        guard value.isFinite, value > 0 else {
            throw LayoutError.invalidParameter(name: name, value: "\(value)", reason: "must be a finite number > 0")
        }
    }

    static func positive(_ size: Size, _ name: String) throws {
        guard size.width.isFinite, size.height.isFinite, size.width > 0, size.height > 0 else {
            throw LayoutError.invalidParameter(
                name: name, value: "\(size.width)x\(size.height)", reason: "width and height must be finite and > 0")
        }
    }

    static func insets(_ insets: EdgeInsets) throws {
        for value in [insets.top, insets.left, insets.bottom, insets.right] {
            guard value.isFinite, value >= 0 else {
                throw LayoutError.invalidParameter(
                    name: "insets", value: "\(insets.top),\(insets.left),\(insets.bottom),\(insets.right)",
                    reason: "every inset must be a finite number ≥ 0")
            }
        }
    }

    /// A viewport with positive, finite width and height.
    static func viewport(_ viewport: Size) throws {
        guard viewport.width.isFinite, viewport.height.isFinite, viewport.width > 0, viewport.height > 0 else {
            throw LayoutError.invalidParameter(
                name: "viewport", value: "\(viewport.width)x\(viewport.height)", reason: "must be non-empty and finite")
        }
    }

    /// Intrinsic sizes: finite and ≥ 0; the error names the first bad one as `sizes[i]`.
    /// Largest intrinsic width or height accepted, points (a million points is ~3,000 phone screens).
    static let maxIntrinsicSide = 1_000_000.0

    static func sizes(_ sizes: [Size]) throws {
        for (index, size) in sizes.enumerated() {
            guard size.width.isFinite, size.height.isFinite, size.width >= 0, size.height >= 0 else {
                throw LayoutError.invalidParameter(
                    name: "sizes[\(index)]", value: "\(size.width)x\(size.height)",
                    reason: "an intrinsic size must be finite and ≥ 0")
            }
            // Content sizes are sums of item sizes: bounded items keep them finite for any count.
            guard size.width <= maxIntrinsicSide, size.height <= maxIntrinsicSide else {
                throw LayoutError.invalidParameter(
                    name: "sizes[\(index)]", value: "\(size.width)x\(size.height)",
                    reason: "an intrinsic side is at most \(Int(maxIntrinsicSide)) pt")
            }
        }
    }

    /// The width left for `count` tracks after insets and gaps, which must be > 0.
    static func trackExtent(total: Double, leading: Double, trailing: Double, gaps: Int, spacing: Double) throws -> Double {
        guard leading + trailing < total else {
            throw LayoutError.invalidParameter(
                name: "insets", value: "\(leading)+\(trailing)", reason: "leave no room in a viewport of \(total)")
        }
        let extent = total - leading - trailing - Double(gaps) * spacing
        guard extent > 0 else {
            throw LayoutError.invalidParameter(
                name: "spacing", value: "\(spacing)", reason: "\(gaps) gap(s) are wider than the viewport's \(total - leading - trailing) pt")
        }
        return extent
    }
}

extension LayoutConfiguration {
    /// The axis the content scrolls along: horizontal for carousel and strip, `direction` for
    /// flow, vertical for the rest.
    public var scrollAxis: ScrollAxis {
        switch kind {
        case .carousel, .strip: return .horizontal
        case .flow: return direction
        case .grid, .mosaic, .waterfall, .list: return .vertical
        }
    }

    /// One line for reports: the kind and the parameters that differ from the defaults.
    public var summary: String {
        let defaults = LayoutConfiguration(kind: kind)
        var parts = [kind.rawValue]
        if columns != defaults.columns, kind == .grid || kind == .waterfall { parts.append("columns=\(columns)") }
        if let size = itemSize { parts.append("item-size=\(size.width)x\(size.height)") }
        if spacing != defaults.spacing { parts.append("spacing=\(spacing)") }
        if insets != defaults.insets { parts.append("insets=\(insets.top),\(insets.left),\(insets.bottom),\(insets.right)") }
        if kind == .mosaic, bigHeight != defaults.bigHeight { parts.append("big-height=\(bigHeight)") }
        if headerHeight != 0 { parts.append("header-height=\(headerHeight)") }
        if footerHeight != 0 { parts.append("footer-height=\(footerHeight)") }
        if refreshHeight != 0 { parts.append("refresh-height=\(refreshHeight)") }
        return parts.joined(separator: " ")
    }
}
