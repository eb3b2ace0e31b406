/// UIKit's rubber-band resistance past a scroll view's edge.
///
/// With `x` the distance the finger has gone past the edge (points), `d` the viewport's length
/// along the scroll axis (points) and `c` the coefficient (0.55 in UIKit), the content moves
///
///     f(x) = (1 − 1 / (x·c/d + 1)) · d
///
/// past the edge: slope `c` at the edge, never reaching `d`. Source: the formula UIKit's
/// `UIScrollView` is widely documented to use, first published by Grant Paul (@chpwn,
/// "rubber band formula", 2014) from inspecting UIKit; c = 0.55 is the constant quoted there.
public struct RubberBand: Sendable, Hashable {
    /// Resistance coefficient (UIKit: 0.55).
    public var coefficient: Double
    /// Length of the viewport along the scroll axis, points.
    public var dimension: Double

    public init(coefficient: Double = 0.55, dimension: Double) {
        self.coefficient = coefficient
        self.dimension = dimension
    }

    /// How far the content moves past the edge, points, for a finger `x` points past it
    /// (x ≥ 0; negative x is mirrored).
    public func offset(forDistance x: Double) -> Double {
        guard dimension > 0 else { return 0 }
        let magnitude = (1 - 1 / (abs(x) * coefficient / dimension + 1)) * dimension
        return x < 0 ? -magnitude : magnitude
    }

    /// The inverse: the finger distance that moves the content `y` points past the edge.
    /// `y` is capped just below `dimension`, which the forward function never reaches.
    public func distance(forOffset y: Double) -> Double {
        guard dimension > 0 else { return 0 }
        let capped = min(abs(y), dimension * (1 - 1e-9))
        // y = (1 − 1/(x·c/d + 1))·d  ⇔  x = (d/c) · y / (d − y)
        let magnitude = dimension / coefficient * capped / (dimension - capped)
        return y < 0 ? -magnitude : magnitude
    }

    /// df/dx at finger distance `x`: `c / (x·c/d + 1)²` (c at the edge, falling toward 0).
    public func slope(atDistance x: Double) -> Double {
        guard dimension > 0 else { return 0 }
        let s = abs(x) * coefficient / dimension + 1
        return coefficient / (s * s)
    }
}
