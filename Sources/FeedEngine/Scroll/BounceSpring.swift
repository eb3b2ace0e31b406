import Foundation

/// A critically damped spring (damping ratio 1) pulling a displacement back to 0.
///
/// FeedSim's model of the bounce back past an edge. UIKit does not publish its bounce curve;
/// a critically damped spring is the usual stand-in (it returns as fast as possible without
/// oscillating), with stiffness given as a response time as in SwiftUI's
/// `spring(response:dampingFraction:)`: ω = 2π / response. With x₀ the displacement and v₀ its
/// velocity at τ = 0 (seconds):
///
///     x(τ) = (x₀ + (v₀ + ω·x₀)·τ) · e^(−ωτ)
///     v(τ) = (v₀ − ω·(v₀ + ω·x₀)·τ) · e^(−ωτ)
public struct BounceSpring: Sendable, Hashable {
    /// Angular frequency, radians per second.
    public var omega: Double
    /// Displacement at τ = 0, points.
    public var x0: Double
    /// Velocity at τ = 0, points per second.
    public var v0: Double

    /// - Parameter response: the spring's period, milliseconds (default 500 ms).
    public init(response: Double = 500, x0: Double, v0: Double) {
        omega = 2 * Double.pi / (response / 1000)
        self.x0 = x0
        self.v0 = v0
    }

    /// Displacement after `t` milliseconds, points.
    public func displacement(at t: Double) -> Double {
        let tau = t / 1000
        return (x0 + (v0 + omega * x0) * tau) * exp(-omega * tau)
    }

    /// Velocity after `t` milliseconds, points per second.
    public func velocity(at t: Double) -> Double {
        let tau = t / 1000
        return (v0 - omega * (v0 + omega * x0) * tau) * exp(-omega * tau)
    }
}
