import Foundation

/// How a released scroll view slows down.
public enum DecelerationModel: Sendable, Hashable {
    /// UIKit's exponential decay: each millisecond the velocity is multiplied by `rate`
    /// (`UIScrollView.DecelerationRate.normal` = 0.998, `.fast` = 0.99).
    case uikit(rate: Double)
    /// Android's `OverScroller` spline fling (`android.widget.OverScroller.SplineOverScroller`):
    /// `friction` is `ViewConfiguration.getScrollFriction()` (0.015); `pixelsPerInch` turns
    /// points into the physical units of its deceleration (160: one point = one dp at density 1).
    case androidSpline(friction: Double, pixelsPerInch: Double)

    /// `UIScrollView.DecelerationRate.normal`.
    public static let uikitNormal = DecelerationModel.uikit(rate: 0.998)
    /// `UIScrollView.DecelerationRate.fast`.
    public static let uikitFast = DecelerationModel.uikit(rate: 0.99)
    /// Android defaults: friction 0.015, density 1 (160 ppi).
    public static let android = DecelerationModel.androidSpline(friction: 0.015, pixelsPerInch: 160)

    /// Where a fling starting with `velocity` (points per second) comes to rest, relative to
    /// where it started, points.
    /// - UIKit: `v/1000 · rate/(1 − rate)`, the sum of the per-millisecond steps
    ///   `Σ_{k≥1} v/1000 · rate^k` (the projection from Apple's WWDC 2018 session 803,
    ///   "Designing Fluid Interfaces"): 3000 pt/s at 0.998 → 3 · 0.998/0.002 = 1497 pt.
    /// - Android: ``SplineFling/distance(velocity:friction:pixelsPerInch:)``.
    public func projection(velocity: Double) -> Double {
        switch self {
        case .uikit(let rate):
            return UIKitDecay.projection(velocity: velocity, rate: rate)
        case .androidSpline(let friction, let ppi):
            return SplineFling.distance(velocity: velocity, friction: friction, pixelsPerInch: ppi)
        }
    }
}

/// UIKit's exponential deceleration in closed form.
///
/// The velocity after `t` milliseconds is `v·rate^t`; the distance travelled is the sum of the
/// per-millisecond steps, extended to fractional milliseconds:
///
///     s(t) = v/1000 · rate · (1 − rate^t) / (1 − rate)
///
/// so stepping frame by frame at any rate adds up exactly to `s(t)` (the sum telescopes).
public enum UIKitDecay {
    /// Total distance of a fling, points: `v/1000 · rate/(1 − rate)`.
    public static func projection(velocity: Double, rate: Double) -> Double {
        velocity / 1000 * rate / (1 - rate)
    }

    /// Distance after `t` ms, points.
    public static func distance(velocity: Double, rate: Double, t: Double) -> Double {
        projection(velocity: velocity, rate: rate) * (1 - pow(rate, t))
    }

    /// Velocity after `t` ms, points per second.
    public static func velocity(initial: Double, rate: Double, t: Double) -> Double {
        initial * pow(rate, t)
    }

    /// The initial velocity whose projection is `distance` points: `distance·1000·(1 − rate)/rate`.
    public static func velocity(forProjection distance: Double, rate: Double) -> Double {
        distance * 1000 * (1 - rate) / rate
    }

    /// Below this speed (points per second) the rest of the fling is under `tolerance` points:
    /// `tolerance·1000·(1 − rate)/rate` (0.5 pt at 0.998 → 1.002 pt/s).
    public static func stopVelocity(rate: Double, tolerance: Double = 0.5) -> Double {
        velocity(forProjection: tolerance, rate: rate)
    }

    /// The time (ms) at which the fling has travelled `distance` points (same sign as the
    /// velocity and shorter than the projection), or `nil` if it never does.
    public static func time(toTravel distance: Double, velocity: Double, rate: Double) -> Double? {
        let total = projection(velocity: velocity, rate: rate)
        guard total != 0 else { return nil }
        let fraction = distance / total
        guard fraction >= 0, fraction < 1 else { return nil }
        return log(1 - fraction) / log(rate)
    }
}
