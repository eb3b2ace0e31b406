import FeedModel
import Foundation
import Synchronization

/// An HTTP feed API as the load tester's backend (`feedsim load --source URL --convention …`):
/// one ``HTTPFeedBackend`` (with its own ``HTTPClient``) per session, one ``HTTPMultiDriver`` per
/// worker thread carrying every session's requests (``makeWorkerIO()``).
///
/// Ground truth: with `truth` (`--truth-db`, the database behind the API) the consistency checks
/// read it independently and find skipped items; without it the largest id is read from the API's
/// newest page and a walk's span is not read at all, so duplicates are counted and skips are not
/// (``checksSkips``).
public final class HTTPSourceConnector: FeedBackendConnector, WorkerIOProviding, AnswerAuditing, @unchecked Sendable {  // `created` is guarded by `lock`; the rest is immutable
    public let source: String
    public let convention: Convention
    public let feed: String
    public let headers: [String]
    public let timeoutMs: Int
    public let tls: HTTPClient.TLSOptions
    /// The database behind the API, or `nil`.
    public let truth: (any FeedBackendConnector)?
    private var created: [HTTPFeedBackend] = []
    private let lock = NSLock()
    /// What every backend of ``connect()`` and ``connectWriter()`` records, counted as it happens.
    private let tally = SourceTally()

    /// Problems found and requests made by this connector's backends so far, from any thread.
    public var answerTally: AnswerTally {
        AnswerTally(problems: tally.problems.load(ordering: .relaxed), requests: tally.requests.load(ordering: .relaxed))
    }

    /// - Throws: ``ConventionError`` for a malformed URL or convention, ``HTTPClientError`` for a bad header.
    public init(
        source: String, convention: Convention, feed: String, headers: [String], timeoutMs: Int,
        tls: HTTPClient.TLSOptions = HTTPClient.TLSOptions(), truth: (any FeedBackendConnector)?
    ) throws {
        self.tls = tls
        self.source = source
        self.convention = convention
        self.feed = feed
        self.headers = headers
        self.timeoutMs = timeoutMs
        self.truth = truth
        _ = try makeBackend()  // a bad URL, convention or header fails here, before any thread starts
    }

    public var backendName: String { "http" }

    /// Whether the consistency checks find skipped items (only against `--truth-db`).
    public var checksSkips: Bool { truth != nil }

    /// The URL the sessions page through (`…/v1/feeds/{feed}/items` for a bare `feedsim` origin).
    public var pageURL: String { (try? makeBackend().source) ?? source }

    private func makeBackend(truth: (any FeedBackend)? = nil) throws -> HTTPFeedBackend {
        try HTTPFeedBackend(
            source: source, convention: convention, client: try HTTPClient(headers: headers, timeoutMs: timeoutMs, tls: tls),
            feed: feed, truth: truth)
    }

    /// A session's backend, with a connection to the database behind the API (`--truth-db`) for
    /// its replay's gap check.
    public func connect() throws -> any FeedBackend {
        let backend = try makeBackend(truth: try truth?.connect())
        backend.audit.tally = tally
        lock.withLock { created.append(backend) }
        return backend
    }

    /// A writer's backend: writers of this load take turns between reading the newest item and
    /// inserting after it (``HTTPFeedBackend/insertAtHead(_:)``).
    public func connectWriter() throws -> any FeedBackend {
        let backend = try makeBackend(truth: try truth?.connect())
        backend.headLock = headLock
        backend.audit.tally = tally
        lock.withLock { created.append(backend) }
        return backend
    }

    private let headLock = NSLock()

    public func groundTruthReader(reuseUnchangedSpans: Bool) throws -> any GroundTruthReader {
        if let truth { return try truth.groundTruthReader(reuseUnchangedSpans: reuseUnchangedSpans) }
        // Its requests are the run's too: counted, and their problems reported, with the sessions'.
        let backend = try makeBackend()
        backend.audit.tally = tally
        lock.withLock { created.append(backend) }
        return APINewestGroundTruth(backend: backend)
    }

    /// One request for the newest page (a page of 1), on a backend of its own (not in the run's
    /// audit): whether the API answers at all before any session starts.
    /// - Throws: ``HTTPSourceError`` with ``SourceAudit/Problem/transport`` when no connection can
    ///   be made (refused, no such host, TLS); an API that answers, even with an error status, passes.
    public func probe() throws {
        do {
            _ = try makeBackend().newest(limit: 1)
        } catch let error as HTTPSourceError where error.problem == .transport {
            throw error
        } catch {
            return
        }
    }

    public func makeWorkerIO() -> any WorkerIO {
        HTTPMultiDriver()
    }

    /// Every session backend's audit, merged: call once the run has ended (no backend in use).
    public func combinedAudit() -> SourceAudit {
        lock.withLock {
            var total = SourceAudit()
            for backend in created { total.merge(backend.audit) }
            return total
        }
    }
}

/// Ground truth without `--truth-db`: the largest id on the API's newest page (writers' new items
/// land there), and no span (skips cannot be told without an independent listing).
final class APINewestGroundTruth: GroundTruthReader {
    private let backend: HTTPFeedBackend

    init(backend: HTTPFeedBackend) {
        self.backend = backend
    }

    /// One blocking request, not retried (each retry would hold its caller for another timeout).
    /// Sessions do not ask it (``listsSpans`` is `false`); writers read it for their baseline.
    /// - Throws: the request's ``HTTPSourceError`` (counted in the run's audit).
    func maxID() throws -> Int64 {
        try backend.newest(limit: 100).items.map(\.id).max() ?? 0
    }

    func spanIDs(newest: Cursor, oldest: Cursor, expected: Int) throws -> [Int64] { [] }

    var spansRead: Int { 0 }
    var spansReused: Int { 0 }
    /// `false`: the API is no independent listing. A session's start therefore does not read the
    /// newest page for ``maxID()``: that blocking request held the session's worker (its other
    /// sessions' transfers stalled, and `--sessions 64 --workers 1 --duration 2` served no page)
    /// for a value no check would read.
    var listsSpans: Bool { false }
}
