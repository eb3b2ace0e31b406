/// A point in points (x to the right, y downward: UIKit's convention).
public struct Point: Hashable, Sendable, Codable {
    public var x: Double
    public var y: Double
    @inlinable public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
    public static let zero = Point(x: 0, y: 0)
}

/// A size in points.
public struct Size: Hashable, Sendable, Codable {
    public var width: Double
    public var height: Double
    @inlinable public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
    public static let zero = Size(width: 0, height: 0)
}

/// A rectangle in points. `Double` everywhere: a 32-bit float cannot hold y = 66,000,126.
public struct Rect: Hashable, Sendable, Codable {
    public var origin: Point
    public var size: Size

    @inlinable public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }
    @inlinable public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    @inlinable public var minX: Double { origin.x }
    @inlinable public var minY: Double { origin.y }
    @inlinable public var maxX: Double { origin.x + size.width }
    @inlinable public var maxY: Double { origin.y + size.height }
    public var midX: Double { origin.x + size.width / 2 }
    public var midY: Double { origin.y + size.height / 2 }
    @inlinable public var width: Double { size.width }
    @inlinable public var height: Double { size.height }
    public var center: Point { Point(x: midX, y: midY) }

    /// Whether the rect has no area (width or height ≤ 0).
    @inlinable public var isEmpty: Bool { !(size.width > 0) || !(size.height > 0) }

    /// Half-open intersection test, as `CGRect.intersects`: rects that only touch do not
    /// intersect, and an empty rect intersects nothing. Inlinable with the accessors above: the
    /// replay tests ~140 rects per frame, and as a call each test cost ~25 instructions more
    /// (3.5k of ~78k instructions per frame in `bench replay`'s flinger trace).
    @inlinable public func intersects(_ other: Rect) -> Bool {
        if isEmpty || other.isEmpty { return false }
        return minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
    }

    /// The overlapping part, or `nil` when the rects do not intersect.
    @inlinable public func intersection(_ other: Rect) -> Rect? {
        guard intersects(other) else { return nil }
        let x0 = max(minX, other.minX)
        let y0 = max(minY, other.minY)
        let x1 = min(maxX, other.maxX)
        let y1 = min(maxY, other.maxY)
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Whether `point` lies inside, half-open: the min edges are inside, the max edges are not.
    public func contains(_ point: Point) -> Bool {
        point.x >= minX && point.x < maxX && point.y >= minY && point.y < maxY
    }

    /// The rect grown by `dx` on the left and right and `dy` on the top and bottom (negative shrinks).
    public func insetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: minX + dx, y: minY + dy, width: width - 2 * dx, height: height - 2 * dy)
    }
}

/// Insets in points, as `UIEdgeInsets`.
public struct EdgeInsets: Hashable, Sendable, Codable {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double
    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }
    /// The same inset on all four edges.
    public init(all value: Double) {
        self.init(top: value, left: value, bottom: value, right: value)
    }
    public static let zero = EdgeInsets(all: 0)
}

/// A 2D affine transform restricted to scale and translation (what the layouts use of
/// `CATransform3D`): a point p maps to (p · scale) + translation, about the element's center.
public struct Transform: Hashable, Sendable, Codable {
    public var scaleX: Double
    public var scaleY: Double
    public var translateX: Double
    public var translateY: Double
    public init(scaleX: Double = 1, scaleY: Double = 1, translateX: Double = 0, translateY: Double = 0) {
        self.scaleX = scaleX
        self.scaleY = scaleY
        self.translateX = translateX
        self.translateY = translateY
    }
    public static let identity = Transform()
}
