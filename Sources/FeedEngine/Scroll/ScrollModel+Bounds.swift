import FeedLayout

extension ScrollModel {
    /// Sets the content size (points) at `now`. At rest, an offset left past an edge is
    /// clamped at once (as a collection view does after a reload); during a drag or a bounce
    /// the offset on screen stays where it is and the motion continues from there.
    public mutating func setContentSize(_ size: Size) {
        let shown = offset
        contentSize = size
        boundsChanged(keeping: shown, animated: false)
    }

    /// Sets the viewport size (points), with the same rules as ``setContentSize(_:)``.
    public mutating func setViewport(_ size: Size) {
        let shown = offset
        viewport = size
        boundsChanged(keeping: shown, animated: false)
    }

    /// Sets the content inset (points). At rest past the new edge, the content springs back to
    /// it (as when a refresh control ends refreshing and its 50 pt inset is removed).
    public mutating func setContentInset(_ insets: EdgeInsets) {
        let shown = offset
        contentInset = insets
        boundsChanged(keeping: shown, animated: true)
    }

    /// Moves the offset by `delta` points along the axis without disturbing a drag or a fling
    /// (scroll anchoring: content was inserted or removed before the visible items). A drag
    /// keeps following the finger from the new offset, a fling or snap keeps its curve (start
    /// and target shift by `delta`), a bounce continues from the new offset.
    public mutating func adjustOffset(by delta: Double) {
        guard delta != 0 else { return }
        let shown = offset + delta
        setAxisOffset(shown)
        switch motion {
        case .idle:
            break
        case .decaying(var decay):
            decay.start += delta
            decay.target = decay.target.map { $0 + delta }
            motion = .decaying(decay)
        case .splining(var spline):
            spline.start += delta
            motion = .splining(spline)
        case .tracking, .bouncing:
            boundsChanged(keeping: shown, animated: true)
        }
    }

    /// Sets the content offset directly (traces that recorded absolute offsets). Stops any
    /// drag or animation; the offset is taken as given, not clamped.
    public mutating func setOffset(_ point: Point, t: Double? = nil) {
        if let t { now = max(now, t) }
        motion = .idle
        tracker.reset()
        contentOffset = point
    }

    /// Scrolls by a wheel or trackpad delta at `t` ms: `delta` points along the axis (positive
    /// = further into the content, as a DOM `WheelEvent.deltaY`), applied at once and clamped
    /// to the edges (wheels do not rubber-band). Stops a fling or bounce; ignored while a
    /// finger is down or when the content does not scroll.
    public mutating func wheel(delta: Double, t: Double) {
        step(to: t)
        if case .tracking = motion { return }
        motion = .idle
        guard maxOffset > minOffset else { return }
        setAxisOffset(min(max(offset + delta, minOffset), maxOffset))
    }

    /// Re-expresses the motion after the edges moved, keeping `shown` as the offset on screen.
    mutating func boundsChanged(keeping shown: Double, animated: Bool) {
        switch motion {
        case .idle:
            guard shown < minOffset || shown > maxOffset else { return }
            if animated && rubberBands {
                setAxisOffset(shown)
                settle()
            } else {
                setAxisOffset(min(max(shown, minOffset), maxOffset))
            }
        case .tracking(var drag):
            // Same finger position, same offset on screen, new edges. An Android edge effect keeps
            // its pull while the content still rests on that edge (a page landing mid-pull does not
            // reset the EdgeEffect); past an edge that moved away, the finger scrolls on from here.
            var excess = 0.0
            if configuration.overscroll == .edgeEffect {
                let pulled = currentRaw(drag) - shown
                if (pulled < 0 && shown <= minOffset) || (pulled > 0 && shown >= maxOffset) { excess = pulled }
            }
            drag.rawAtAnchor = raw(displayed: shown) + excess + (drag.finger - drag.anchor)
            motion = .tracking(drag)
            setAxisOffset(shown)
        case .decaying, .splining:
            break  // the next step checks the edges
        case .bouncing(let bounce):
            let velocity = axisVelocity
            setAxisOffset(shown)
            let elapsed = now - bounce.t0
            if shown < minOffset || shown > maxOffset {
                let leading = shown < minOffset
                let past = leading ? minOffset - shown : shown - maxOffset
                let rawDistance = rubberBand.distance(forOffset: past)
                let rawVelocity = leading == bounce.leading
                    ? bounce.spring.velocity(at: elapsed) : 0
                startBounce(leading: leading, rawDistance: rawDistance, rawVelocity: rawVelocity)
            } else {
                // Back inside: carry on as a free fling with the speed on screen.
                motion = .idle
                _ = startFling(velocity: velocity, pullDistance: 0, targetOffset: nil)
            }
        }
    }
}
