import FeedLayout

/// The direction a scroll view scrolls: vertical feeds, horizontal carousels and strips.
public enum ScrollAxis: String, Sendable, Hashable, Codable {
    case vertical
    case horizontal

    /// The coordinate of `point` along this axis.
    public func component(of point: Point) -> Double {
        self == .vertical ? point.y : point.x
    }

    /// `point` with its coordinate along this axis replaced by `value`.
    public func replacing(_ point: Point, with value: Double) -> Point {
        self == .vertical ? Point(x: point.x, y: value) : Point(x: value, y: point.y)
    }

    /// A point with `value` on this axis and 0 on the other.
    public func point(_ value: Double) -> Point {
        self == .vertical ? Point(x: 0, y: value) : Point(x: value, y: 0)
    }

    /// The length of `size` along this axis.
    public func length(of size: Size) -> Double {
        self == .vertical ? size.height : size.width
    }

    /// The inset at the start of the axis (top or left).
    public func leadingInset(of insets: EdgeInsets) -> Double {
        self == .vertical ? insets.top : insets.left
    }

    /// The inset at the end of the axis (bottom or right).
    public func trailingInset(of insets: EdgeInsets) -> Double {
        self == .vertical ? insets.bottom : insets.right
    }
}
