import FeedEngine
import FeedModel

/// The seam between a replay and the data it reads: run a page query, fetch rows, write new items.
///
/// The replay calls these synchronously at the virtual time a request is issued (the backend's
/// answer is a snapshot of that moment) and delivers the answer later, after the latency model's
/// delay. ``StoreBackend`` runs them on any ``FeedModel/FeedBackend``; the load tester wraps
/// one to time each call on the wall clock; tests use an in-memory double.
public protocol ReplayBackend: AnyObject {
    /// Runs a page query of the controller (`newest`, `after(cursor)` or `before(cursor)`).
    func page(_ request: FeedController.FetchRequest) throws -> Page
    /// Full rows for `ids`, in order, with missing ids reported.
    func rows(ids: [Int64]) throws -> RowBatch
    /// Writes `count` new items at the feed's head, published at virtual time `t` ms.
    func insertAtHead(count: Int, at t: Double) throws
    /// Ground truth for the gap check: up to `limit` items that follow `cursor` in feed order
    /// (older), straight from the store, bypassing latency and faults.
    func groundTruth(after cursor: Cursor, limit: Int) throws -> [Item]
    /// The cursors of ``groundTruth(after:limit:)``'s items, in order: all the gap check reads
    /// (the default maps ``groundTruth(after:limit:)``; a load session's backend reads them from
    /// the feed-order index alone).
    func groundTruthCursors(after cursor: Cursor, limit: Int) throws -> [Cursor]
    /// The wall time the last page or row call took, ms (see the default below).
    var lastCallMilliseconds: Double { get }
}

extension ReplayBackend {
    /// The wall time the last ``page(_:)`` or ``rows(ids:)`` call took, ms, which the replay adds
    /// to that answer's arrival on its virtual clock before the latency model's draw. 0 here: a
    /// simulated backend answers in no time, and the replay's timing stays a function of its seed.
    /// A load session's backend returns the measured time (`FeedLoad`'s `TimedBackend`).
    public var lastCallMilliseconds: Double { 0 }

    /// ``groundTruth(after:limit:)``'s cursors.
    public func groundTruthCursors(after cursor: Cursor, limit: Int) throws -> [Cursor] {
        try groundTruth(after: cursor, limit: limit).map(\.cursor)
    }
}

/// A ``ReplayBackend`` that can start a request and answer it later (an HTTP feed API under the
/// load tester): the replay keeps scrolling while the request is on the wire and delivers the
/// answer at the first frame after it arrived, plus the latency model's delay (`fixed:0` under
/// load), so the request's real time is the time the session waits for it.
public protocol DeferredReplayBackend: ReplayBackend {
    /// Starts the page query, or `nil` to have it run with ``ReplayBackend/page(_:)``.
    func startPage(_ request: FeedController.FetchRequest) -> DeferredAnswer<Page>?
    /// Starts the row fetch, or `nil` to have it run with ``ReplayBackend/rows(ids:)``.
    func startRows(ids: [Int64]) -> DeferredAnswer<RowBatch>?
}
