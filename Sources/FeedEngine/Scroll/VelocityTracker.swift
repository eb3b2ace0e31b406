import FeedLayout

/// Estimates the velocity of a pointer from its recent samples, the way Android's
/// `VelocityTracker` (frameworks/native `libs/input/VelocityTracker.cpp`) and Flutter's
/// `VelocityTracker` (`packages/flutter/lib/src/gestures/velocity_tracker.dart`) do.
///
/// Feed it every touch-down and touch-move position with its time (milliseconds); read
/// ``velocity()`` (units per second, in the units of the positions: points in FeedSim) at
/// lift-off. A value type with no clock: time only comes in with the samples.
///
/// Sample window, shared by both strategies and both platforms:
/// - at most ``Configuration/historySize`` samples (20 on Android and Flutter);
/// - only samples at most ``Configuration/horizon`` older than the newest (100 ms);
/// - a gap longer than ``Configuration/assumeStoppedAfter`` (40 ms, Android's
///   `ASSUME_POINTER_STOPPED_TIME`, Flutter's `_assumePointerMoveStoppedMilliseconds`) means the
///   pointer stopped: the samples before the gap are forgotten.
/// - a sample with the same time as the newest replaces it (Android, when a `MOVE` and a
///   `POINTER_DOWN` share a timestamp).
public struct VelocityTracker: Sendable, Hashable {
    /// Equal configurations and samples (the cached estimate follows from them).
    public static func == (a: VelocityTracker, b: VelocityTracker) -> Bool {
        a.configuration == b.configuration && a.samples == b.samples
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(configuration)
        hasher.combine(samples)
    }

    /// How the velocity is computed from the window.
    public enum Strategy: Sendable, Hashable {
        /// Unweighted least-squares polynomial fit of position against time; the velocity is the
        /// fit's first derivative at the newest sample. Android's default `LSQ2` is degree 2, and
        /// so is Flutter's tracker for touch.
        case leastSquares(degree: Int)
        /// Android's `IMPULSE` strategy: treats each segment between samples as an impulse
        /// acting on a unit mass and returns the velocity whose kinetic energy equals the work
        /// done (`ImpulseVelocityTrackerStrategy`).
        case impulse
    }

    /// Tracker parameters. The presets reproduce Android's and Flutter's defaults.
    public struct Configuration: Sendable, Hashable {
        public var strategy: Strategy
        /// Oldest sample age kept, milliseconds, relative to the newest sample (inclusive).
        public var horizon: Double
        /// Most samples kept.
        public var historySize: Int
        /// A gap between samples longer than this (milliseconds) resets the window, and a
        /// lift-off this long after the last sample reports zero velocity.
        public var assumeStoppedAfter: Double
        /// Fewest samples in the window for a non-zero estimate. Android fits with
        /// `min(degree, n − 1)` from 2 samples; Flutter returns zero below 3.
        public var minimumSamples: Int

        public init(
            strategy: Strategy, horizon: Double = 100, historySize: Int = 20,
            assumeStoppedAfter: Double = 40, minimumSamples: Int = 2
        ) {
            self.strategy = strategy
            self.horizon = horizon
            self.historySize = historySize
            self.assumeStoppedAfter = assumeStoppedAfter
            self.minimumSamples = minimumSamples
        }

        /// Android's default for touch: least squares of degree 2 over 100 ms and 20 samples.
        public static let androidLSQ2 = Configuration(strategy: .leastSquares(degree: 2))
        /// Android's impulse strategy over 100 ms and 20 samples.
        public static let androidImpulse = Configuration(strategy: .impulse)
        /// Flutter's touch tracker: degree 2 least squares, 100 ms, 20 samples, at least 3.
        public static let flutter = Configuration(strategy: .leastSquares(degree: 2), minimumSamples: 3)
    }

    /// One pointer sample: time in milliseconds, position in points.
    public struct Sample: Sendable, Hashable {
        public var t: Double
        public var position: Point
        public init(t: Double, position: Point) {
            self.t = t
            self.position = position
        }
    }

    public let configuration: Configuration
    /// The samples in the window, oldest first (at most `historySize`).
    public private(set) var samples: [Sample] = []
    /// ``velocity()`` of the current samples, computed when they change: the replay reads the
    /// velocity every frame of a drag (the virtualizer's direction), and refitting the same
    /// samples each time was ~2.6 k instructions per frame of `bench replay` (callgrind).
    private var estimate = Point.zero

    public init(_ configuration: Configuration = .androidLSQ2) {
        precondition(configuration.historySize >= 2, "a velocity needs at least two samples")
        self.configuration = configuration
    }

    /// Forgets every sample (a new touch-down).
    public mutating func reset() {
        samples.removeAll(keepingCapacity: true)
        estimate = .zero
    }

    /// Adds a sample at time `t` (milliseconds; non-decreasing). A sample older than the newest
    /// is ignored; one with the same time replaces it; one after a gap longer than
    /// `assumeStoppedAfter` starts a new window.
    /// - Complexity: O(historySize).
    public mutating func addSample(_ position: Point, t: Double) {
        if let newest = samples.last {
            if t < newest.t { return }
            if t == newest.t {
                samples.removeLast()
            } else if t - newest.t > configuration.assumeStoppedAfter {
                samples.removeAll(keepingCapacity: true)
            }
        }
        samples.append(Sample(t: t, position: position))
        let tooOld = samples.prefix { t - $0.t > configuration.horizon }.count
        let tooMany = max(0, samples.count - tooOld - configuration.historySize)
        samples.removeFirst(tooOld + tooMany)
        estimate = fit()
    }

    /// The velocity at the newest sample, units per second (points per second when the
    /// positions are points). Zero when the window holds fewer than `minimumSamples` samples
    /// or the fit is degenerate.
    /// - Complexity: O(1) (the fit, O(historySize · degree²), is made when a sample is added).
    public func velocity() -> Point { estimate }

    /// The fit behind ``velocity()``.
    private func fit() -> Point {
        guard samples.count >= max(2, configuration.minimumSamples), let newest = samples.last else {
            return .zero
        }
        // Time in seconds relative to the newest sample (≤ 0), as both platforms do.
        // The three columns in one temporary allocation (no heap allocation per touch sample).
        let n = samples.count
        let strategy = configuration.strategy
        return samples.withUnsafeBufferPointer { samples in
            withUnsafeTemporaryAllocation(of: Double.self, capacity: 3 * n) { storage in
                for i in 0..<n {
                    storage[i] = (samples[i].t - newest.t) / 1000
                    storage[n + i] = samples[i].position.x
                    storage[2 * n + i] = samples[i].position.y
                }
                let times = UnsafeBufferPointer(rebasing: storage[0..<n])
                let xs = UnsafeBufferPointer(rebasing: storage[n..<(2 * n)])
                let ys = UnsafeBufferPointer(rebasing: storage[(2 * n)..<(3 * n)])
                switch strategy {
                case .leastSquares(let degree):
                    let fitDegree = min(degree, n - 1)
                    guard fitDegree >= 1, let v = Self.leastSquaresSlopes(times: times, xs: xs, ys: ys, degree: fitDegree)
                    else { return .zero }
                    return Point(x: v.x, y: v.y)
                case .impulse:
                    return Point(
                        x: Self.impulseVelocity(times: times, values: xs), y: Self.impulseVelocity(times: times, values: ys))
                }
            }
        }
    }

    /// The velocity to fling with when the pointer lifts at `t` (milliseconds): ``velocity()``,
    /// or zero when the last sample is more than `assumeStoppedAfter` before the lift (the
    /// finger rested before lifting; Android's `ACTION_UP` rule).
    public func velocity(atLiftOff t: Double) -> Point {
        guard let newest = samples.last, t - newest.t <= configuration.assumeStoppedAfter else { return .zero }
        return velocity()
    }
}
