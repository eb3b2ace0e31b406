/// One simulated user's session, run by the ``SessionScheduler`` one step at a time.
///
/// A session does a little work per step (a page query, a row fetch) and says when it wants the
/// next step, so a pool of a few threads can run many concurrent sessions that mostly wait (think
/// time, scrolling). A session is used by one worker thread at a time but may move between
/// workers between steps; it owns its SQLite connection, which SQLite allows in multi-thread mode
/// as long as no two threads use it at once (<https://sqlite.org/threadsafe.html>).
public protocol LoadSession: AnyObject {
    /// Runs the work that is due now and records it into `metrics` (the running worker's).
    /// - Returns: how long to wait before the next step (`.zero` to continue at once), or `nil`
    ///   when the session has finished.
    /// - Throws: any error: the scheduler ends this session, reports the error and runs on.
    func step(_ metrics: inout LoadMetrics) throws -> Duration?

    /// Ends the session (after its last step, or early when the run stops): records its
    /// consistency check into `metrics`.
    /// - Throws: an error of the final check; it is reported like a failed step.
    func finish(interrupted: Bool, _ metrics: inout LoadMetrics) throws

    /// See the extension's default.
    var awaitsIO: Bool { get }

    /// See the extension's default.
    func hasCounted(_ error: any Error) -> Bool
}

extension LoadSession {
    /// Whether the session's last step left it waiting for a request on its worker's
    /// ``FeedModel/WorkerIO`` (an HTTP page on the worker's multi handle): the worker then keeps it
    /// aside, drives its I/O, and hands it back to the queue once this is `false`. Default `false`.
    public var awaitsIO: Bool { false }

    /// Whether `error`, thrown by ``step(_:)``, is a failed query the session counted already in
    /// the metrics (its backend records every failed query): the scheduler then counts the
    /// session as failed without counting the error again. Default `false`.
    public func hasCounted(_ error: any Error) -> Bool { false }
}

/// How sessions arrive.
public enum ArrivalModel: Hashable, Sendable {
    /// A closed model: `sessions` run at once; when one ends another starts (k6's constant VUs).
    case closed(sessions: Int)
    /// An open model: a new session arrives every `1 / ratePerSecond` seconds, whatever the
    /// system's speed; an arrival that finds all `slots` busy is dropped and counted (k6's
    /// constant-arrival-rate executor with `maxVUs = slots`,
    /// <https://grafana.com/docs/k6/latest/using-k6/scenarios/executors/constant-arrival-rate/>).
    case open(ratePerSecond: Double, slots: Int)
}
