/// The direction a scroll view scrolls: vertical feeds and grids, horizontal carousels and strips
/// (`UICollectionView.ScrollDirection`, Paging 3's `RecyclerView` orientation).
///
/// The helpers read or change the one coordinate that matters along the axis — y and height for
/// `.vertical`, x and width for `.horizontal` — and leave the cross axis as it is. Offsets grow
/// toward the end of the axis: down, or right (UIKit's convention).
public enum ScrollAxis: String, CaseIterable, Sendable, Hashable, Codable {
    case vertical
    case horizontal

    /// The coordinate of `point` along this axis, points.
    public func component(of point: Point) -> Double {
        self == .vertical ? point.y : point.x
    }

    /// `point` with its coordinate along this axis replaced by `value` (points).
    public func replacing(_ point: Point, with value: Double) -> Point {
        self == .vertical ? Point(x: point.x, y: value) : Point(x: value, y: point.y)
    }

    /// `point` moved by `delta` points along this axis.
    public func offsetting(_ point: Point, by delta: Double) -> Point {
        replacing(point, with: component(of: point) + delta)
    }

    /// A point with `value` (points) on this axis and 0 on the other.
    public func point(_ value: Double) -> Point {
        self == .vertical ? Point(x: 0, y: value) : Point(x: value, y: 0)
    }

    /// The length of `size` along this axis, points.
    public func length(of size: Size) -> Double {
        self == .vertical ? size.height : size.width
    }

    /// Where `rect` starts along this axis (`minY` or `minX`), points.
    public func start(of rect: Rect) -> Double {
        self == .vertical ? rect.minY : rect.minX
    }

    /// Where `rect` ends along this axis (`maxY` or `maxX`), points.
    public func end(of rect: Rect) -> Double {
        self == .vertical ? rect.maxY : rect.maxX
    }

    /// `rect` grown along this axis by `before` points toward its start and `after` points
    /// toward its end; the cross axis is unchanged. Negative amounts shrink it.
    public func extending(_ rect: Rect, before: Double, after: Double) -> Rect {
        switch self {
        case .vertical:
            return Rect(x: rect.minX, y: rect.minY - before, width: rect.width, height: rect.height + before + after)
        case .horizontal:
            return Rect(x: rect.minX - before, y: rect.minY, width: rect.width + before + after, height: rect.height)
        }
    }

    /// The gap along this axis between `a` and `b`, points: 0 when their extents on this axis
    /// overlap or touch, whatever their cross-axis positions.
    public func distance(between a: Rect, and b: Rect) -> Double {
        max(0, start(of: a) - end(of: b), start(of: b) - end(of: a))
    }

    /// The inset at the start of the axis (top or left), points.
    public func leadingInset(of insets: EdgeInsets) -> Double {
        self == .vertical ? insets.top : insets.left
    }

    /// The inset at the end of the axis (bottom or right), points.
    public func trailingInset(of insets: EdgeInsets) -> Double {
        self == .vertical ? insets.bottom : insets.right
    }
}
