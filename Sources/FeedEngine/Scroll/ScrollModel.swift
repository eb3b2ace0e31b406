import FeedLayout

/// A headless `UIScrollView`: content offset, viewport, content size and insets, moved by
/// touches (drag with rubber band, fling with deceleration, bounce back), wheel deltas and
/// absolute offsets. A value type driven with times in milliseconds; it reads no clock.
///
/// ```
///            contentInset.top (e.g. 50 pt while refreshing)
///   minOffset = −inset.top ─┐
///                           ▼  ┌───────────┐ ◄ contentOffset (origin of the viewport)
///   content                    │ viewport  │
///   (contentSize)              └───────────┘
///   maxOffset = max(minOffset, content + inset.bottom − viewport)
/// ```
///
/// Along the scroll axis the offset rests in `[minOffset, maxOffset]`; a drag past either
/// edge rubber-bands (``RubberBand``), a release past an edge or a fling that crosses one
/// bounces back (``BounceSpring``). Offsets below `minOffset` are a pull (``pullDistance``).
/// The other axis is left as it is (FeedSim feeds scroll on one axis, like a directionally
/// locked scroll view).
///
/// Driving it: the caller sends touches (`touchDown`/`touchMove`/`touchUp`), wheel deltas or
/// offsets as they happen and calls ``step(to:)`` every frame. Each event first advances the
/// running animation to its time, so results do not depend on how often `step` is called
/// (animations are evaluated in closed form, not integrated).
public struct ScrollModel: Sendable {
    /// Behaviour switches and constants.
    public struct Configuration: Sendable, Hashable {
        /// Scroll axis (vertical feeds; horizontal carousels and strips).
        public var axis: ScrollAxis
        /// How a fling slows down (UIKit normal by default).
        public var deceleration: DecelerationModel
        /// Whether the content can go past an edge (rubber band and bounce), as `bounces`.
        public var bounces: Bool
        /// Whether content shorter than the viewport can still be dragged (and pulled to
        /// refresh), as `alwaysBounceVertical`/`alwaysBounceHorizontal`.
        public var alwaysBounce: Bool
        /// UIKit's rubber-band coefficient, 0.55.
        public var rubberBandCoefficient: Double
        /// Period of the bounce-back spring, milliseconds (see ``BounceSpring``).
        public var bounceResponse: Double
        /// Distance the finger must move before a drag starts, points (0 = at once). UIKit: 10 pt
        /// — Apple publishes no figure (the `UIPanGestureRecognizer` reference says only that a
        /// pan begins once the finger "has moved enough to be considered a pan"); 10 pt is the
        /// hysteresis commonly measured on iOS devices and the figure FeedSim's docs and trace
        /// synthesizer use. Android: `ViewConfiguration.getScaledTouchSlop()`, 8 dp
        /// (`TOUCH_SLOP = 8` in AOSP frameworks/base core/java/android/view/ViewConfiguration.java;
        /// a device may override it with `config_viewConfigurationTouchSlop`).
        public var touchSlop: Double
        /// Slower releases do not fling, points per second (Android: 50 dp/s).
        public var minimumFlingVelocity: Double
        /// Faster releases are capped, points per second (Android: 8000 dp/s; UIKit: none).
        public var maximumFlingVelocity: Double?
        /// A fling stops once the distance it would still travel is under this, points
        /// (0.5 pt: one pixel on a 2× screen).
        public var stopTolerance: Double
        /// How the release velocity is estimated.
        public var velocityTracker: VelocityTracker.Configuration
        /// What happens past an edge: UIKit's rubber band, or Android's clamp with an edge effect.
        public var overscroll: Overscroll
        /// Android: the share of the finger's travel past the top that moves the
        /// `SwipeRefreshLayout` spinner, the distance the pull-to-refresh threshold is compared
        /// with (`DRAG_RATE = .5f` in androidx swiperefreshlayout SwipeRefreshLayout.java:
        /// `overscrollTop = (y − initialMotionY) · DRAG_RATE`). Unused by the rubber band, whose
        /// pull is the on-screen offset past the top.
        public var pullDragRate: Double

        public init(
            axis: ScrollAxis = .vertical, deceleration: DecelerationModel = .uikitNormal,
            bounces: Bool = true, alwaysBounce: Bool = false, rubberBandCoefficient: Double = 0.55,
            bounceResponse: Double = 500, touchSlop: Double = 0, minimumFlingVelocity: Double = 0,
            maximumFlingVelocity: Double? = nil, stopTolerance: Double = 0.5,
            velocityTracker: VelocityTracker.Configuration = .androidLSQ2, overscroll: Overscroll = .rubberBand,
            pullDragRate: Double = 0.5
        ) {
            self.axis = axis
            self.deceleration = deceleration
            self.bounces = bounces
            self.alwaysBounce = alwaysBounce
            self.rubberBandCoefficient = rubberBandCoefficient
            self.bounceResponse = bounceResponse
            self.touchSlop = touchSlop
            self.minimumFlingVelocity = minimumFlingVelocity
            self.maximumFlingVelocity = maximumFlingVelocity
            self.stopTolerance = stopTolerance
            self.velocityTracker = velocityTracker
            self.overscroll = overscroll
            self.pullDragRate = pullDragRate
        }

        /// UIKit: 0.998 deceleration, rubber band, 10 pt pan slop, no velocity limits.
        public static let uikit = Configuration(touchSlop: 10)
        /// Android `RecyclerView` + `OverScroller`: spline fling, clamped at the edges with an edge
        /// effect, 8 dp slop, 50…8000 dp/s (`MIN_FLING_VELOCITY`, `MAX_FLING_VELOCITY` in
        /// ViewConfiguration.java), LSQ2.
        public static let android = Configuration(
            deceleration: .android, touchSlop: 8, minimumFlingVelocity: 50, maximumFlingVelocity: 8000,
            overscroll: .edgeEffect)
    }

    /// What a scroll view does when the content is dragged or flung past an edge.
    public enum Overscroll: String, Sendable, Hashable {
        /// `UIScrollView`: the content follows the finger past the edge through the rubber band
        /// (``RubberBand``) and springs back (``BounceSpring``).
        case rubberBand
        /// Android (`RecyclerView`, `OverScroller`): the content offset is clamped to the edges;
        /// the finger's travel past an edge goes to an `EdgeEffect` instead (a glow, or the
        /// stretch of Android 12+), which ``edgeEffectDistance`` reports. As
        /// `EdgeEffect.onPullDistance` (AOSP frameworks/base core/java/android/widget/EdgeEffect.java),
        /// the effect's distance is the sum of the pulls, never below 0, and a move back toward
        /// the content first consumes the effect before the content scrolls again. A fling that
        /// reaches an edge stops there (`OverScroller.fling` with the scroll range as bounds;
        /// `EdgeEffect.onAbsorb` shows its velocity as a glow, not a movement).
        case edgeEffect
    }

    /// What a release did, for the caller to report (e.g. a pull released with `pullDistance` at
    /// or beyond the refresh threshold starts a Refresh).
    public struct Release: Sendable, Hashable {
        /// Content velocity at release, points per second (positive = offset increasing).
        public var velocity: Point
        /// How far the content was pulled past the top (leading) edge, points.
        public var pullDistance: Double
        /// Where the fling would stop without a layout's target, content offset.
        public var projectedOffset: Point
        /// Where the scroll will come to rest, content offset.
        public var targetOffset: Point
        /// ``Overscroll/edgeEffect``: how far the finger had pulled past an edge when it lifted,
        /// points (0 with the rubber band).
        public var edgeEffectDistance: Double = 0
    }

    @usableFromInline enum Motion: Sendable {
        case idle
        case tracking(Drag)
        case decaying(Decay)
        case splining(Spline)
        case bouncing(Bounce)
    }

    /// A finger on the screen. `raw` is the unconstrained offset (before the rubber band).
    @usableFromInline struct Drag: Sendable {
        var anchor: Double  // finger position (axis) the raw offset is measured from
        var rawAtAnchor: Double
        var finger: Double  // last finger position (axis)
        @usableFromInline var isDragging: Bool
    }

    /// UIKit decay from `start` at time `t0`; ends on `target` when it is set (snapping).
    @usableFromInline struct Decay: Sendable {
        var t0: Double
        var start: Double
        var velocity: Double
        var rate: Double
        var target: Double?
    }

    @usableFromInline struct Spline: Sendable {
        var t0: Double
        var start: Double
        var fling: SplineFling
    }

    /// A spring past an edge; `spring` works on the finger-space distance past the edge
    /// (outward positive); the offset shows it through the rubber band.
    @usableFromInline struct Bounce: Sendable {
        var t0: Double
        var leading: Bool
        var spring: BounceSpring
    }

    public var configuration: Configuration
    /// Origin of the viewport in content coordinates, points.
    public internal(set) var contentOffset: Point
    /// Size of the viewport (the scroll view's bounds), points.
    public internal(set) var viewport: Size
    /// Size of the content, points.
    public internal(set) var contentSize: Size
    /// Extra scrollable space around the content, points (the refresh control's 50 pt at the
    /// top while refreshing).
    public internal(set) var contentInset: EdgeInsets
    /// Time of the last event or step, milliseconds.
    public internal(set) var now: Double
    @usableFromInline var motion: Motion = .idle
    var tracker: VelocityTracker

    public init(
        viewport: Size, contentSize: Size = .zero, contentInset: EdgeInsets = .zero,
        contentOffset: Point = .zero, configuration: Configuration = .uikit, t: Double = 0
    ) {
        self.configuration = configuration
        self.viewport = viewport
        self.contentSize = contentSize
        self.contentInset = contentInset
        self.contentOffset = contentOffset
        self.now = t
        self.tracker = VelocityTracker(configuration.velocityTracker)
    }

    // MARK: - State

    /// The scroll axis.
    @inlinable public var axis: ScrollAxis { configuration.axis }
    /// The content offset along the scroll axis, points.
    /// Inlinable: read from a scroll model stored in a class (the replay session), a call to the
    /// getter copied the whole model out first, every frame.
    @inlinable @inline(__always) public var offset: Double { axis.component(of: contentOffset) }
    // The small reads below are inlinable (or always inlined) for the same reason: a call to the
    // getter of a 360-byte model passes it by address, and the callers made a copy of it first
    // (a memcpy, and a retain and release of the velocity samples), every frame in
    // `advanceFrame`, `record`, the scroll steps and the velocity read (perf: memcpy 4.7 % of
    // `bench replay`'s wall time).
    /// Smallest resting offset along the axis: `−leading inset`.
    @inlinable @inline(__always) public var minOffset: Double { -axis.leadingInset(of: contentInset) }
    /// Largest resting offset along the axis: `max(minOffset, content + trailing inset − viewport)`.
    @inlinable @inline(__always) public var maxOffset: Double {
        max(minOffset,
            axis.length(of: contentSize) + axis.trailingInset(of: contentInset) - axis.length(of: viewport))
    }
    /// Whether a drag moves the content: the content (with insets) is longer than the viewport,
    /// or `alwaysBounce` is on.
    @inlinable public var isScrollable: Bool { maxOffset > minOffset || configuration.alwaysBounce }

    /// A finger is down (UIKit `isTracking`).
    @inlinable public var isTracking: Bool {
        if case .tracking = motion { return true }
        return false
    }
    /// A finger is down and has moved past the touch slop (UIKit `isDragging`).
    @inlinable public var isDragging: Bool {
        if case .tracking(let drag) = motion { return drag.isDragging }
        return false
    }
    /// Moving without a finger: a fling, a snap or a bounce back (UIKit `isDecelerating`).
    @inlinable public var isDecelerating: Bool {
        switch motion {
        case .decaying, .splining, .bouncing: return true
        case .idle, .tracking: return false
        }
    }
    /// Returning from past an edge.
    @inlinable public var isBouncing: Bool {
        if case .bouncing = motion { return true }
        return false
    }
    /// How far the content is pulled past the top (leading) edge, points (0 when not pulled).
    /// With ``Overscroll/edgeEffect`` the offset never passes the edge, so this is the
    /// `SwipeRefreshLayout` spinner's travel: the leading edge-effect distance × `pullDragRate`.
    public var pullDistance: Double {
        switch configuration.overscroll {
        case .rubberBand: return max(0, minOffset - offset)
        case .edgeEffect: return leadingEdgeEffectDistance * configuration.pullDragRate
        }
    }

    /// Android's edge effect: how far the finger has pulled past an edge while the offset stays
    /// clamped there, points (`EdgeEffect.getDistance()` × the view's length). 0 with the rubber
    /// band, when no finger is down, or when the content cannot scroll.
    public var edgeEffectDistance: Double {
        guard configuration.overscroll == .edgeEffect, case .tracking(let drag) = motion, drag.isDragging, isScrollable
        else { return 0 }
        let raw = currentRaw(drag)
        return max(0, minOffset - raw, raw - maxOffset)
    }

    /// ``edgeEffectDistance`` at the leading (top) edge only.
    var leadingEdgeEffectDistance: Double {
        guard configuration.overscroll == .edgeEffect, case .tracking(let drag) = motion, drag.isDragging, isScrollable
        else { return 0 }
        return max(0, minOffset - currentRaw(drag))
    }
    /// How far the content is pushed past the bottom (trailing) edge, points.
    public var overscrollPastEnd: Double { max(0, offset - maxOffset) }

    /// Content velocity, points per second (positive = offset increasing). While a finger is
    /// down, the tracker's estimate mapped to the content.
    @inline(__always) public var velocity: Point { axis.point(axisVelocity) }

    /// ``velocity``, read in place by a caller that holds the model in a class's stored property:
    /// a computed property read there is evaluated on a copy of the whole model (its velocity
    /// samples retained and released, ~150 instructions), a mutating method on the stored value
    /// itself. Changes nothing.
    public mutating func velocityInPlace() -> Point { velocity }

    @inline(__always) var axisVelocity: Double {
        switch motion {
        case .idle: return 0
        case .tracking(let drag):
            guard drag.isDragging, isScrollable else { return 0 }
            return -axis.component(of: tracker.velocity()) * dragSlope(raw: currentRaw(drag))
        case .decaying(let decay):
            return UIKitDecay.velocity(initial: decay.velocity, rate: decay.rate, t: now - decay.t0)
        case .splining(let spline):
            return spline.fling.velocity(at: now - spline.t0)
        case .bouncing(let bounce):
            let raw = bounce.spring.displacement(at: now - bounce.t0)
            let outward = bounce.spring.velocity(at: now - bounce.t0) * rubberBand.slope(atDistance: raw)
            return bounce.leading ? -outward : outward
        }
    }

    var rubberBand: RubberBand {
        RubberBand(coefficient: configuration.rubberBandCoefficient, dimension: axis.length(of: viewport))
    }

    mutating func setAxisOffset(_ value: Double) {
        contentOffset = axis.replacing(contentOffset, with: value)
    }
}
