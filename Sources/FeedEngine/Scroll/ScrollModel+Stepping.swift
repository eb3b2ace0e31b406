import Foundation

extension ScrollModel {
    /// Advances the running fling, snap or bounce to `t` ms (call it every frame, at any rate).
    ///
    /// Each animation is evaluated in closed form from its start, and the moment a fling
    /// crosses an edge is solved for exactly, so the path does not depend on the frame rate.
    /// A fling that crosses an edge continues as a bounce (its speed at the edge divided by the
    /// rubber band's slope there, c, so the content's speed is continuous); a fling that comes
    /// to rest past an edge bounces back from rest. A time before ``now`` is ignored.
    public mutating func step(to t: Double) {
        // Each pass either reaches `t` or ends/changes the animation; a change can happen at most
        // a few times per call (fling → bounce → idle), the bound only guards against a bug.
        for _ in 0..<8 {
            guard t > now else { return }
            switch motion {
            case .idle, .tracking:
                now = t
            case .decaying(let decay):
                stepDecay(decay, to: t)
            case .splining(let spline):
                stepSpline(spline, to: t)
            case .bouncing(let bounce):
                stepBounce(bounce, to: t)
            }
        }
        now = max(now, t)
    }

    mutating func stepDecay(_ decay: Decay, to t: Double) {
        let stopVelocity = UIKitDecay.stopVelocity(rate: decay.rate, tolerance: configuration.stopTolerance)
        let stopTime = abs(decay.velocity) > stopVelocity
            ? decay.t0 + log(stopVelocity / abs(decay.velocity)) / log(decay.rate) : decay.t0
        let end = min(t, max(stopTime, now))
        let position = decay.start + UIKitDecay.distance(velocity: decay.velocity, rate: decay.rate, t: end - decay.t0)
        if let leading = edgeCrossed(from: offset, to: position, velocity: decay.velocity) {
            let distanceToEdge = (leading ? minOffset : maxOffset) - decay.start
            let crossing = UIKitDecay.time(toTravel: distanceToEdge, velocity: decay.velocity, rate: decay.rate) ?? 0
            let tc = min(max(decay.t0 + crossing, now), end)
            now = tc
            setAxisOffset(leading ? minOffset : maxOffset)
            let vc = UIKitDecay.velocity(initial: decay.velocity, rate: decay.rate, t: tc - decay.t0)
            startBounce(leading: leading, rawDistance: 0, rawVelocity: abs(vc) / configuration.rubberBandCoefficient)
            return
        }
        setAxisOffset(position)
        now = end
        if end >= stopTime {
            if let target = decay.target { setAxisOffset(target) }
            settle()
        }
    }

    mutating func stepSpline(_ spline: Spline, to t: Double) {
        let stopTime = spline.t0 + spline.fling.duration
        let end = min(t, max(stopTime, now))
        let position = spline.start + spline.fling.displacement(at: end - spline.t0)
        let direction = spline.fling.distance
        if let leading = edgeCrossed(from: offset, to: position, velocity: direction) {
            // The spline is monotone in time: bisect for the crossing.
            let edgeOffset = leading ? minOffset : maxOffset
            var lo = now
            var hi = end
            for _ in 0..<60 {
                let mid = (lo + hi) / 2
                let p = spline.start + spline.fling.displacement(at: mid - spline.t0)
                if (p - edgeOffset) * direction < 0 { lo = mid } else { hi = mid }
            }
            now = hi
            setAxisOffset(edgeOffset)
            let vc = spline.fling.velocity(at: hi - spline.t0)
            startBounce(leading: leading, rawDistance: 0, rawVelocity: abs(vc) / configuration.rubberBandCoefficient)
            return
        }
        setAxisOffset(position)
        now = end
        if end >= stopTime { settle() }
    }

    mutating func stepBounce(_ bounce: Bounce, to t: Double) {
        let elapsed = t - bounce.t0
        let distance = bounce.spring.displacement(at: elapsed)
        let outwardVelocity = bounce.spring.velocity(at: elapsed)
        now = t
        // Done once back at the edge: crossed it, or within a quarter point and not moving out.
        if distance <= 0 || (distance < configuration.stopTolerance / 2 && outwardVelocity <= 0) {
            setAxisOffset(bounce.leading ? minOffset : maxOffset)
            motion = .idle
            return
        }
        let shown = rubberBand.offset(forDistance: distance)
        setAxisOffset(bounce.leading ? minOffset - shown : maxOffset + shown)
    }

    /// The edge a move from `from` to `to` (in the direction of `velocity`) crosses from inside:
    /// `true` for the leading edge, `false` for the trailing one, `nil` for none.
    @inline(__always) func edgeCrossed(from: Double, to: Double, velocity: Double) -> Bool? {
        if velocity < 0 && from >= minOffset && to < minOffset { return true }
        if velocity > 0 && from <= maxOffset && to > maxOffset { return false }
        return nil
    }

    /// Ends an animation: idle inside the edges, or a bounce back from rest when past one.
    mutating func settle() {
        motion = .idle
        if offset < minOffset {
            startBounce(leading: true, rawDistance: rubberBand.distance(forOffset: minOffset - offset), rawVelocity: 0)
        } else if offset > maxOffset {
            startBounce(leading: false, rawDistance: rubberBand.distance(forOffset: offset - maxOffset), rawVelocity: 0)
        }
    }
}
