import Foundation

/// Android's fling curve (`android.widget.OverScroller.SplineOverScroller`), in closed form.
///
/// Constants, as in AOSP `frameworks/base/core/java/android/widget/OverScroller.java`:
/// - `DECELERATION_RATE = ln(0.78) / ln(0.9)` ≈ 2.3582;
/// - `INFLEXION = 0.35` (the tension point of the spline curve);
/// - `START_TENSION = 0.5`, `END_TENSION = 1.0`, so `P1 = 0.175`, `P2 = 0.35`;
/// - `PHYSICAL_COEF = 9.80665 (g, m/s²) · 39.37 (in/m) · ppi · 0.84` (the last factor is
///   AOSP's "look and feel tuning"); FeedSim uses ppi = 160, i.e. one point = one dp;
/// - `friction` = `ViewConfiguration.getScrollFriction()` = 0.015.
///
/// For a fling at |v| points per second, with `l = ln(INFLEXION·|v| / (friction·PHYSICAL_COEF))`:
/// duration = `1000·exp(l / (DECELERATION_RATE − 1))` ms and
/// distance = `friction·PHYSICAL_COEF·exp(DECELERATION_RATE / (DECELERATION_RATE − 1) · l)` points.
/// The position in between follows a Bézier-shaped curve tabulated at 100 points
/// (``positionTable``) and interpolated linearly, as Android does. Unlike Android, positions and
/// durations stay `Double` (no rounding to whole pixels or milliseconds).
public struct SplineFling: Sendable, Hashable {
    static let decelerationRate = log(0.78) / log(0.9)
    static let inflexion = 0.35
    static let startTension = 0.5
    static let endTension = 1.0
    static let sampleCount = 100

    /// Signed distance the fling travels, points.
    public let distance: Double
    /// Duration of the fling, milliseconds.
    public let duration: Double

    /// `9.80665 · 39.37 · ppi · 0.84`: Android's physical deceleration coefficient.
    public static func physicalCoefficient(pixelsPerInch: Double) -> Double {
        9.80665 * 39.37 * pixelsPerInch * 0.84
    }

    /// A fling that starts at `velocity` points per second.
    public init(velocity: Double, friction: Double = 0.015, pixelsPerInch: Double = 160) {
        guard velocity != 0 else {
            distance = 0
            duration = 0
            return
        }
        let l = Self.splineDeceleration(velocity: velocity, friction: friction, pixelsPerInch: pixelsPerInch)
        duration = 1000 * exp(l / (Self.decelerationRate - 1))
        distance = Self.distance(velocity: velocity, friction: friction, pixelsPerInch: pixelsPerInch)
    }

    /// A fling that travels exactly `distance` points (the inverse of the distance formula),
    /// used to land on a layout's target content offset.
    public init(distance: Double, friction: Double = 0.015, pixelsPerInch: Double = 160) {
        let velocity = Self.velocity(forDistance: distance, friction: friction, pixelsPerInch: pixelsPerInch)
        let fling = SplineFling(velocity: velocity, friction: friction, pixelsPerInch: pixelsPerInch)
        self.distance = distance  // exactly, not the round trip through the velocity
        self.duration = fling.duration
    }

    static func splineDeceleration(velocity: Double, friction: Double, pixelsPerInch: Double) -> Double {
        log(inflexion * abs(velocity) / (friction * physicalCoefficient(pixelsPerInch: pixelsPerInch)))
    }

    /// Signed distance of a fling at `velocity` points per second, points.
    public static func distance(velocity: Double, friction: Double, pixelsPerInch: Double) -> Double {
        guard velocity != 0 else { return 0 }
        let l = splineDeceleration(velocity: velocity, friction: friction, pixelsPerInch: pixelsPerInch)
        let magnitude = friction * physicalCoefficient(pixelsPerInch: pixelsPerInch)
            * exp(decelerationRate / (decelerationRate - 1) * l)
        return velocity < 0 ? -magnitude : magnitude
    }

    /// The signed velocity (points per second) whose fling travels `distance` points.
    public static func velocity(forDistance distance: Double, friction: Double, pixelsPerInch: Double) -> Double {
        guard distance != 0 else { return 0 }
        let fc = friction * physicalCoefficient(pixelsPerInch: pixelsPerInch)
        let l = log(abs(distance) / fc) * (decelerationRate - 1) / decelerationRate
        let magnitude = fc * exp(l) / inflexion
        return distance < 0 ? -magnitude : magnitude
    }

    /// Signed displacement from the start after `t` ms (clamped to `[0, duration]`), points.
    public func displacement(at t: Double) -> Double {
        let (position, _) = Self.interpolate(fraction: duration > 0 ? t / duration : 1)
        return position * distance
    }

    /// Signed velocity after `t` ms, points per second (0 once the fling is over).
    public func velocity(at t: Double) -> Double {
        guard duration > 0 else { return 0 }
        let (_, slope) = Self.interpolate(fraction: t / duration)
        return slope * distance / duration * 1000
    }

    /// Position fraction and its slope (d position / d time fraction) at a time fraction.
    static func interpolate(fraction: Double) -> (position: Double, slope: Double) {
        let f = min(max(fraction, 0), 1)
        let index = Int(Double(sampleCount) * f)
        guard index < sampleCount else { return (1, 0) }
        let t0 = Double(index) / Double(sampleCount)
        let t1 = Double(index + 1) / Double(sampleCount)
        let d0 = positionTable[index]
        let d1 = positionTable[index + 1]
        let slope = (d1 - d0) / (t1 - t0)
        return (d0 + (f - t0) * slope, slope)
    }

    /// Distance fraction at time fractions `i/100`, i = 0...100: the Bézier
    /// `B(x) = 3x(1−x)((1−x)·P1 + x·P2) + x³` gives time, `3x(1−x)((1−x)·START_TENSION + x) + x³`
    /// gives distance; for each time fraction `x` is found by bisection to 1e-5, as AOSP does
    /// (except that index 0 is exactly 0).
    public static let positionTable: [Double] = {
        let p1 = startTension * inflexion
        let p2 = 1 - endTension * (1 - inflexion)
        var table = [Double]()
        table.reserveCapacity(sampleCount + 1)
        var xMin = 0.0
        for i in 0..<sampleCount {
            let alpha = Double(i) / Double(sampleCount)
            var xMax = 1.0
            var x = 0.0
            var coef = 0.0
            while true {
                x = xMin + (xMax - xMin) / 2
                coef = 3 * x * (1 - x)
                let tx = coef * ((1 - x) * p1 + x * p2) + x * x * x
                if abs(tx - alpha) < 1e-5 { break }
                if tx > alpha { xMax = x } else { xMin = x }
            }
            table.append(coef * ((1 - x) * startTension + x) + x * x * x)
        }
        // AOSP's bisection stops within 1e-5 of alpha = 0, leaving ≈ 2e-5 at index 0; pinned to 0
        // so a fling starts exactly where the finger left.
        table[0] = 0
        table.append(1)
        return table
    }()
}
