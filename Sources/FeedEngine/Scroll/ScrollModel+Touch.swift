import FeedLayout

extension ScrollModel {
    // MARK: - Raw (finger-space) offset ⇄ displayed offset

    /// The displayed offset for an unconstrained offset: itself inside the edges, rubber-banded
    /// past them (or clamped when `bounces` is off).
    @inline(__always) func displayed(raw: Double) -> Double {
        if raw < minOffset {
            return rubberBands ? minOffset - rubberBand.offset(forDistance: minOffset - raw) : minOffset
        }
        if raw > maxOffset {
            return rubberBands ? maxOffset + rubberBand.offset(forDistance: raw - maxOffset) : maxOffset
        }
        return raw
    }

    /// Whether the content goes past an edge (UIKit with `bounces`), rather than clamping.
    var rubberBands: Bool { configuration.bounces && configuration.overscroll == .rubberBand }

    /// The unconstrained offset that displays as `offset` (inverse of ``displayed(raw:)``).
    @inline(__always) func raw(displayed offset: Double) -> Double {
        if offset < minOffset { return minOffset - rubberBand.distance(forOffset: minOffset - offset) }
        if offset > maxOffset { return maxOffset + rubberBand.distance(forOffset: offset - maxOffset) }
        return offset
    }

    /// d displayed / d raw at `raw`: 1 inside the edges, the rubber band's slope past them.
    func dragSlope(raw: Double) -> Double {
        if raw < minOffset { return rubberBands ? rubberBand.slope(atDistance: minOffset - raw) : 0 }
        if raw > maxOffset { return rubberBands ? rubberBand.slope(atDistance: raw - maxOffset) : 0 }
        return 1
    }

    func currentRaw(_ drag: Drag) -> Double {
        drag.rawAtAnchor - (drag.finger - drag.anchor)
    }

    // MARK: - Touches

    /// A finger touches the screen at `point` (viewport coordinates, points) at `t` ms.
    /// A running fling, snap or bounce stops where it is (UIKit catches a moving scroll view);
    /// the offset does not jump, even when caught past an edge.
    public mutating func touchDown(at point: Point, t: Double) {
        step(to: t)
        let finger = axis.component(of: point)
        motion = .tracking(Drag(anchor: finger, rawAtAnchor: raw(displayed: offset), finger: finger, isDragging: false))
        tracker.reset()
        tracker.addSample(point, t: t)
    }

    /// The finger moves to `point` at `t` ms. Once past the touch slop the offset follows the
    /// finger one to one inside the edges and with UIKit's rubber band past them. Ignored when
    /// no finger is down.
    public mutating func touchMove(to point: Point, t: Double) {
        guard case .tracking(var drag) = motion else { return }
        now = max(now, t)
        tracker.addSample(point, t: t)
        let finger = axis.component(of: point)
        drag.finger = finger
        if !drag.isDragging {
            let moved = finger - drag.anchor
            guard abs(moved) > 0, abs(moved) >= configuration.touchSlop else {
                motion = .tracking(drag)
                return
            }
            drag.isDragging = true
            // The drag starts at the slop's edge, so the content does not jump by the slop.
            drag.anchor += moved < 0 ? -configuration.touchSlop : configuration.touchSlop
        }
        motion = .tracking(drag)
        if isScrollable { setAxisOffset(displayed(raw: currentRaw(drag))) }
    }

    /// The finger lifts at `t` ms. Starts what follows:
    /// - a tap (the finger never passed the touch slop): nothing, the content stays;
    /// - past an edge and not flung back inward: a bounce back to the edge;
    /// - otherwise a fling with the tracker's velocity (`minimumFlingVelocity`…`maximumFlingVelocity`)
    ///   decelerating by ``Configuration/deceleration``. When `targetOffset` is given, it is asked
    ///   where to stop (`proposed` = the projected rest offset clamped to the edges, `velocity` in
    ///   points per second, as `targetContentOffset(forProposedContentOffset:withScrollingVelocity:)`)
    ///   and the scroll decelerates onto its answer, clamped to the edges.
    /// - Returns: the release: velocity, pull distance, projected and target offsets.
    @discardableResult
    public mutating func touchUp(t: Double, targetOffset: ((_ proposed: Point, _ velocity: Point) -> Point)? = nil)
        -> Release
    {
        let edgeEffect = edgeEffectDistance
        var release = endTouch(t: t, targetOffset: targetOffset)
        release.edgeEffectDistance = edgeEffect
        return release
    }

    /// ``touchUp(t:targetOffset:)`` but for the edge-effect distance.
    private mutating func endTouch(t: Double, targetOffset: ((_ proposed: Point, _ velocity: Point) -> Point)?)
        -> Release
    {
        let pull = pullDistance
        guard case .tracking(let drag) = motion else {
            return Release(velocity: .zero, pullDistance: pull, projectedOffset: contentOffset, targetOffset: contentOffset)
        }
        now = max(now, t)
        motion = .idle
        let fingerVelocity = drag.isDragging && isScrollable ? axis.component(of: tracker.velocity(atLiftOff: t)) : 0
        tracker.reset()
        var velocity = -fingerVelocity
        if let cap = configuration.maximumFlingVelocity { velocity = min(max(velocity, -cap), cap) }

        // Released past an edge: bounce back unless flung back inward.
        let past = offset < minOffset ? -1.0 : (offset > maxOffset ? 1.0 : 0.0)
        if past != 0 && !(velocity * past < 0 && abs(velocity) >= configuration.minimumFlingVelocity) {
            let leading = past < 0
            let rawDistance = leading ? minOffset - currentRaw(drag) : currentRaw(drag) - maxOffset
            startBounce(leading: leading, rawDistance: rawDistance, rawVelocity: velocity * past)
            let edge = axis.replacing(contentOffset, with: leading ? minOffset : maxOffset)
            return Release(velocity: velocity == 0 ? .zero : axis.point(velocity), pullDistance: pull,
                           projectedOffset: edge, targetOffset: edge)
        }
        // A tap (no drag) stops the scroll view where it is; only a drag asks for a target.
        guard drag.isDragging else {
            return Release(velocity: .zero, pullDistance: pull, projectedOffset: contentOffset, targetOffset: contentOffset)
        }
        if abs(velocity) < configuration.minimumFlingVelocity { velocity = 0 }
        return startFling(velocity: velocity, pullDistance: pull, targetOffset: targetOffset)
    }

    /// Ends the touch like ``touchUp(t:targetOffset:)`` with the stops chosen by `layout`'s
    /// ``CollectionLayout/targetContentOffset(forProposed:velocity:)`` (snapping, paging).
    @discardableResult
    public mutating func touchUp(t: Double, layout: any CollectionLayout) -> Release {
        touchUp(t: t) { proposed, velocity in layout.targetContentOffset(forProposed: proposed, velocity: velocity) }
    }

    /// Starts the deceleration of a release inside the edges with content `velocity`.
    mutating func startFling(
        velocity: Double, pullDistance: Double, targetOffset: ((Point, Point) -> Point)?
    ) -> Release {
        let start = offset
        let projected = start + configuration.deceleration.projection(velocity: velocity)
        var target = projected
        if let targetOffset {
            let proposed = min(max(projected, minOffset), maxOffset)
            let answer = axis.component(
                of: targetOffset(axis.replacing(contentOffset, with: proposed), axis.point(velocity)))
            let chosen = min(max(answer, minOffset), maxOffset)
            // A layout that keeps the (clamped) proposal lets the natural fling run, so a fling
            // past an edge still bounces.
            if abs(chosen - proposed) > configuration.stopTolerance { target = chosen }
        }
        // A natural fling past an edge comes to rest on that edge after its bounce.
        let rest = target == projected ? min(max(projected, minOffset), maxOffset) : target
        let release = Release(
            velocity: velocity == 0 ? .zero : axis.point(velocity), pullDistance: pullDistance,
            projectedOffset: axis.replacing(contentOffset, with: projected),
            targetOffset: axis.replacing(contentOffset, with: rest))
        if target == projected {
            guard velocity != 0 else { return release }
            switch configuration.deceleration {
            case .uikit(let rate):
                motion = .decaying(Decay(t0: now, start: start, velocity: velocity, rate: rate, target: nil))
            case .androidSpline(let friction, let ppi):
                motion = .splining(Spline(t0: now, start: start,
                                          fling: SplineFling(velocity: velocity, friction: friction, pixelsPerInch: ppi)))
            }
        } else {
            moveToTarget(target)
        }
        return release
    }

    /// Decelerates from the current offset onto `target` with the configured curve: the
    /// initial velocity is the one whose projection is exactly the distance to the target.
    mutating func moveToTarget(_ target: Double) {
        let distance = target - offset
        guard abs(distance) > configuration.stopTolerance else {
            setAxisOffset(target)
            motion = .idle
            return
        }
        switch configuration.deceleration {
        case .uikit(let rate):
            let v = UIKitDecay.velocity(forProjection: distance, rate: rate)
            motion = .decaying(Decay(t0: now, start: offset, velocity: v, rate: rate, target: target))
        case .androidSpline(let friction, let ppi):
            motion = .splining(Spline(t0: now, start: offset,
                                      fling: SplineFling(distance: distance, friction: friction, pixelsPerInch: ppi)))
        }
    }

    /// Starts a bounce back to an edge; `rawDistance` is the finger-space distance past it and
    /// `rawVelocity` its rate of change (outward positive), points per second.
    mutating func startBounce(leading: Bool, rawDistance: Double, rawVelocity: Double) {
        guard rubberBands else {
            setAxisOffset(leading ? minOffset : maxOffset)
            motion = .idle
            return
        }
        let spring = BounceSpring(response: configuration.bounceResponse, x0: max(0, rawDistance), v0: rawVelocity)
        motion = .bouncing(Bounce(t0: now, leading: leading, spring: spring))
    }
}
