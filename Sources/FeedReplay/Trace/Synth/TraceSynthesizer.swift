import FeedLayout
import FeedModel

/// Generates realistic finger input for a scroll session: touch gestures (a `down`, `move`
/// samples at the touch sampling rate, an `up`) separated by pauses, following one ``SynthModel``.
///
/// Only the finger is generated; the physics (touch slop, deceleration, rubber band, clamping)
/// happen in the replay's scroll model, which turns the touches into content offsets.
/// Gesture shapes:
/// - a drag that ends at rest follows the minimum-jerk profile `s(τ) = 10τ³ − 15τ⁴ + 6τ⁵`
///   (Flash & Hogan, "The coordination of arm movements", J. Neurosci. 1985): zero speed at both
///   ends, so the finger lifts without a fling; then it rests 50–150 ms before lifting;
/// - a fling accelerates, `s(τ) = τ²`, over 80–160 ms and lifts at its release speed `v`, so its
///   length is `v·T/2` (capped by the room on screen, which shortens `T`);
/// - the finger stays between 10 % and 90 % of the viewport height; x starts in the middle
///   40 % and drifts by up to ±12 pt along a gesture;
/// - `up` repeats the last `move`'s time and position (as Android delivers `ACTION_UP`), so a
///   velocity tracker reads the release speed from the `move`s.
///
/// Determinism: every draw comes from one ``SplitMix64`` seeded with ``seed``; the same
/// parameters give the same trace and therefore the same bytes.
public struct TraceSynthesizer: Sendable {
    public var model: SynthModel
    /// Session length in seconds; the trace's `end` is at `duration × 1000` ms.
    public var duration: Double
    public var seed: UInt64
    public var viewport: Size
    /// Touch sampling rate in Hz (moves are `1000 / sampleRate` ms apart); also the header's refresh rate.
    public var sampleRate: Double
    public var screenScale: Double

    /// - Precondition: `duration` > 0 and finite, viewport sides > 0, `sampleRate` in 30...1000.
    public init(
        model: SynthModel, duration: Double, seed: UInt64, viewport: Size = Size(width: 390, height: 844),
        sampleRate: Double = 120, screenScale: Double = 3
    ) {
        precondition(duration.isFinite && duration > 0, "duration must be > 0 s")
        precondition(viewport.width > 0 && viewport.height > 0, "viewport sides must be > 0")
        precondition((30...1000).contains(sampleRate), "sample rate must be 30...1000 Hz")
        self.model = model
        self.duration = duration
        self.seed = seed
        self.viewport = viewport
        self.sampleRate = sampleRate
        self.screenScale = screenScale
    }

    /// The generated trace.
    /// - Complexity: O(duration × sampleRate) events at most.
    public func generate() -> Trace {
        var state = SynthState(synth: self)
        state.run()
        let source = "synth:\(model.rawValue) seed=\(seed) duration=\(TraceNumberFormat.format(duration))s"
        let header = TraceHeader(viewport: viewport, screenScale: screenScale, refreshRate: sampleRate, source: source)
        let trace = Trace(header: header, events: state.events)
        do {
            try trace.validate(file: "synth")
        } catch {
            preconditionFailure("synthesizer produced an invalid trace: \(error)")
        }
        return trace
    }
}
