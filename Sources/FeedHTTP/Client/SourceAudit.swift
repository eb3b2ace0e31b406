import Synchronization

/// Problems and requests counted across threads: the audits of one connector's backends add to
/// one of these as they record (``HTTPSourceConnector``'s ``FeedModel/AnswerTally``), so a running
/// load can read the total without touching the audits, which belong to their threads.
final class SourceTally: Sendable {
    let problems = Atomic<Int>(0)
    let requests = Atomic<Int>(0)
}

/// What an HTTP feed API returned wrong, counted by kind with the first examples' URLs, and the
/// time each request took.
public struct SourceAudit: Sendable, Equatable {
    /// A kind of problem in an API's answers.
    public enum Problem: String, Sendable, CaseIterable, Codable, Comparable {
        /// A status outside 200...299.
        case httpStatus = "http_status"
        /// No answer within the timeout.
        case timeout
        /// Refused, reset, DNS: no HTTP answer for another reason.
        case transport
        /// The body is not JSON (truncated, HTML error page).
        case malformedJSON = "malformed_json"
        /// The items array, an item's id or timestamp, or a has-more flag is absent or of the wrong type.
        case missingField = "missing_field"
        /// An item not after the previous one in feed order, or on the wrong side of the request's cursor.
        case outOfOrder = "out_of_order"
        /// An item the same walk already received.
        case duplicateItem = "duplicate_item"
        /// The next cursor equals the one just sent: following it would ask for the same page forever.
        case cursorUnchanged = "cursor_unchanged"
        /// More was asked after an item whose cursor the API never gave, or a page said more items
        /// exist but gave no cursor to ask for them (an empty page whose convention takes the
        /// cursor from the last item).
        case noCursor = "no_cursor"
        /// Items the ground truth holds that a walk never received (with `--truth-db`).
        case skippedItem = "skipped_item"

        public static func < (a: Problem, b: Problem) -> Bool { a.rawValue < b.rawValue }
    }

    /// One recorded problem.
    public struct Example: Sendable, Equatable, Codable {
        public var problem: Problem
        public var url: String
        public var detail: String
    }

    /// How many of each problem occurred.
    public private(set) var counts: [Problem: Int] = [:]
    /// The first ``exampleLimit`` problems, in order.
    public private(set) var examples: [Example] = []
    public static let exampleLimit = 20
    /// Each request's wall time, milliseconds, in order.
    public private(set) var requestMs: [Double] = []
    /// HTTP versions seen, with counts.
    public private(set) var httpVersions: [String: Int] = [:]

    /// Where the records are counted too, when the audit is one of a connector's backends'.
    var tally: SourceTally?

    public init() {}

    /// Equal counts, examples, request times and versions (the tally is not compared).
    public static func == (a: SourceAudit, b: SourceAudit) -> Bool {
        a.counts == b.counts && a.examples == b.examples && a.requestMs == b.requestMs && a.httpVersions == b.httpVersions
    }

    /// Total problems.
    public var problemCount: Int { counts.values.reduce(0, +) }

    public mutating func record(_ problem: Problem, url: String, _ detail: String) {
        counts[problem, default: 0] += 1
        tally?.problems.add(1, ordering: .relaxed)
        if examples.count < Self.exampleLimit { examples.append(Example(problem: problem, url: url, detail: detail)) }
    }

    mutating func recordRequest(ms: Double, version: String?) {
        requestMs.append(ms)
        tally?.requests.add(1, ordering: .relaxed)
        if let version { httpVersions[version, default: 0] += 1 }
    }

    /// The `p`-th percentile (0...100) of request times by the nearest-rank method, ms; 0 without requests.
    public func percentile(_ p: Double) -> Double {
        guard !requestMs.isEmpty else { return 0 }
        let sorted = requestMs.sorted()
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(sorted.count - 1, max(0, rank - 1))]
    }

    /// Adds another audit's counts, examples (up to the limit) and request times.
    public mutating func merge(_ other: SourceAudit) {
        for (problem, count) in other.counts { counts[problem, default: 0] += count }
        for example in other.examples where examples.count < Self.exampleLimit { examples.append(example) }
        requestMs += other.requestMs
        for (version, count) in other.httpVersions { httpVersions[version, default: 0] += count }
    }

    /// Lines for a report: requests and their times, then each problem kind with its count and examples.
    public var textLines: [String] {
        var lines: [String] = []
        let versions = httpVersions.keys.sorted().map { "HTTP/\($0) \(httpVersions[$0]!)" }.joined(separator: ", ")
        lines.append(
            "requests: \(requestMs.count)" + (versions.isEmpty ? "" : " (\(versions))")
                + (requestMs.isEmpty
                    ? ""
                    : "   ms p50 \(format(percentile(50))) p90 \(format(percentile(90))) p99 \(format(percentile(99))) max \(format(requestMs.max() ?? 0))"))
        if counts.isEmpty {
            lines.append("problems: none")
        } else {
            lines.append("problems: \(problemCount)")
            for problem in counts.keys.sorted() {
                lines.append("  \(problem.rawValue): \(counts[problem]!)")
            }
            for example in examples {
                lines.append("  - \(example.problem.rawValue) \(example.url): \(example.detail)")
            }
        }
        return lines
    }

    private func format(_ ms: Double) -> String {
        let tenths = (ms * 10).rounded() / 10
        return tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)
    }
}
