/// What the server does to one request before answering it: hold it, fail it, or both. Drawn per
/// request by the command line from the same latency and fault models as `feedsim replay`.
public struct ResponsePlan: Sendable, Equatable {
    /// How the request fails, if it does.
    public enum Fault: Sendable, Equatable {
        /// Answered normally.
        case none
        /// `500 Internal Server Error` after the delay.
        case serverError
        /// `503 Service Unavailable` (an outage window) after the delay.
        case outage
        /// `429 Too Many Requests` with `Retry-After: seconds`, after the delay.
        case rateLimited(retryAfterSeconds: Int)
        /// Held for `holdMs` milliseconds, then the connection is closed with no response.
        case timeout(holdMs: Double)
    }

    /// Milliseconds the response is held before it is sent (≥ 0).
    public var delayMs: Double
    public var fault: Fault

    public init(delayMs: Double = 0, fault: Fault = .none) {
        self.delayMs = max(0, delayMs.isFinite ? delayMs : 0)
        self.fault = fault
    }

    /// Answer at once, no fault.
    public static let immediate = ResponsePlan()
}

/// Draws the plan of the `index`-th request the server received (0, 1, 2, ...), issued
/// `elapsedMs` milliseconds after the server started. Must be safe to call from any thread.
public typealias ResponsePlanner = @Sendable (_ index: UInt64, _ elapsedMs: Double) -> ResponsePlan
