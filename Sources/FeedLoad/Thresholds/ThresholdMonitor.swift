import FeedModel
import Synchronization

/// Why a run was stopped early by `--abort-on-fail`: the first threshold found breached.
public struct ThresholdAbort: Codable, Hashable, Sendable {
    /// The expression breached.
    public var threshold: String
    /// Wall seconds into the run at which the check found it breached.
    public var atS: Double
    /// The measured value then, in the threshold's unit.
    public var value: Double?
}

/// Checks the thresholds on the run so far each time the timeline's sampler takes a snapshot
/// (every second), and stops the run at the first breach (k6's `abortOnFail`, which k6 checks
/// every 2 s). A threshold without samples yet is not breached.
final class ThresholdMonitor: Sendable {
    let thresholds: [LoadThreshold]
    private let stop: StopSignal
    private let abort = Mutex<ThresholdAbort?>(nil)

    /// The HTTP feed API's problems so far (`--source`), for `api_problems`.
    private let answers: (any AnswerAuditing)?

    init(thresholds: [LoadThreshold], stop: StopSignal, answers: (any AnswerAuditing)? = nil) {
        self.thresholds = thresholds
        self.stop = stop
        self.answers = answers
    }

    /// The breach that stopped the run, if one did.
    var breach: ThresholdAbort? { abort.withLock { $0 } }

    /// Checks one snapshot; on a breach records it (the first only) and sets the stop signal.
    func check(_ sample: TimelineSampler.Sample) {
        guard !thresholds.isEmpty, breach == nil else { return }
        var metrics = sample.0.metrics
        if let writers = sample.1 { metrics.merge(writers) }
        let inputs = ThresholdInputs(
            metrics: metrics, droppedIterations: sample.0.counts.dropped, elapsedSeconds: sample.0.elapsed.seconds,
            answers: answers?.answerTally)
        for threshold in thresholds {
            let result = threshold.evaluate(inputs)
            guard !result.passed else { continue }
            abort.withLock {
                if $0 == nil {
                    $0 = ThresholdAbort(
                        threshold: threshold.expression, atS: LoadReport.round(inputs.elapsedSeconds, 3),
                        value: result.value)
                }
            }
            stop.set()
            return
        }
    }
}
