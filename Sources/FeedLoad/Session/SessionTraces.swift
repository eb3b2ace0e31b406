import FeedReplay

/// Where load sessions' traces come from: files read once and taken round-robin, or synthesized
/// per session with its own seed.
public enum SessionTraces: Sendable {
    /// Recorded (or prepared) traces; session k replays `traces[k % traces.count]`.
    case files([Trace])
    /// Session k replays a ``TraceSynthesizer`` trace of `models[k % models.count]` lasting
    /// `durationSeconds`, seeded with `seed + k` (wrapping), so every session scrolls differently
    /// and a run with the same seed replays the same traces.
    case synthesized(models: [SynthModel], durationSeconds: Double)

    /// The trace of session `index`.
    /// - Precondition: a non-empty list of traces or models (``LoadRunner`` checks it).
    /// - Complexity: O(1) for files; O(duration × sample rate) to synthesize.
    public func trace(forSession index: Int, seed: UInt64) -> Trace {
        switch self {
        case .files(let traces):
            return traces[index % traces.count]
        case .synthesized(let models, let duration):
            let synthesizer = TraceSynthesizer(
                model: models[index % models.count], duration: duration, seed: seed &+ UInt64(index))
            return synthesizer.generate()
        }
    }

    /// The length of each synthesized trace, seconds; `nil` for files.
    public var synthesizedSeconds: Double? {
        if case .synthesized(_, let seconds) = self { return seconds }
        return nil
    }

    /// Names for the report: the traces' sources, or `synth:MODEL` per model.
    public var names: [String] {
        switch self {
        case .files(let traces): traces.map(\.header.source)
        case .synthesized(let models, _): models.map { "synth:\($0.rawValue)" }
        }
    }
}
