import FeedEngine
import FeedModel

/// How a session pages down the feed.
public enum PaginationMode: String, CaseIterable, Hashable, Sendable, Codable {
    /// Keyset cursors: the backend's ``FeedModel/PageSource/after(_:limit:)``.
    case keyset
    /// `LIMIT ? OFFSET ?`: page n starts at the number of items loaded so far. Kept as the
    /// baseline that shows the duplicates and skips OFFSET causes under concurrent writes; needs a
    /// backend that serves ``FeedModel/OffsetPageSource`` pages.
    case offset
}

/// A session's ``PageSource`` and ``RowSource`` on its own backend connection: runs the real
/// queries, times each with a monotonic clock (``MonotonicClock``) and keeps the samples until the
/// session hands them to its worker's metrics, and records the walks down the feed for the
/// consistency check, as the store returned them (before any controller filters a duplicate).
///
/// A walk starts with each `newest` page (Init, or a Refresh) and goes on with every More page
/// (`after(cursor)`) whose cursor is the walk's last item; a More from any other cursor (after
/// page dropping re-fetches dropped items) starts a new walk, in keyset mode. `before` pages
/// (prepends, gap-fills) go up the feed and are not part of a walk.
///
/// In ``PaginationMode/offset`` a More request (`after(cursor)`) is answered with the OFFSET page
/// that starts at the number of items the current walk loaded so far, as an OFFSET client would
/// ask for it.
public final class TimedFeedSource: PageSource, RowSource {
    /// The session's connection to the feed.
    public let backend: any FeedBackend
    /// The same connection's OFFSET pages, in ``PaginationMode/offset``.
    private let offsetPages: (any OffsetPageSource)?
    /// The same connection's requests that need not be waited for (an HTTP feed API), or `nil`:
    /// cast once here. A replay session asks on every row fetch, page and gap check; a cast per
    /// request cost 1.4–2.8 k instructions (callgrind, `feedsim load` of 10 synthesized flinger
    /// sessions, grid: 2,822 row fetches, 427 pages and 426 gap checks, 5.9 M of 1,500 M, 0.4 %).
    public let deferred: (any DeferredFeedSource)?
    public let mode: PaginationMode
    /// Every walk: the ids of its `newest` page and of its More pages, in load order, and its span.
    public private(set) var walks: [Walk] = []
    private var samples: [(QueryKind, UInt64)] = []
    private var pageCount = 0
    private var itemCount = 0
    private var rowCount = 0
    private var errors: [any Error] = []
    /// The last error counted here, as text: a session that ends on it (a failed row fetch) lets
    /// the scheduler know it is counted already (``LoadSession/hasCounted(_:)``).
    private var lastErrorText: String?
    /// Wall time of the last query (answered or failed), nanoseconds.
    public private(set) var lastCallNanoseconds: UInt64 = 0

    /// - Precondition: in ``PaginationMode/offset``, `backend` is an ``FeedModel/OffsetPageSource``
    ///   (``LoadRunner`` checks it first).
    public convenience init(backend: any FeedBackend, mode: PaginationMode) {
        self.init(backend: backend, faces: BackendFaces(backend), mode: mode)
    }

    /// The same, with `backend`'s optional protocols already cast (``BackendFaces``: once per
    /// pooled connection, not once per session).
    init(backend: any FeedBackend, faces: BackendFaces, mode: PaginationMode) {
        self.backend = backend
        self.offsetPages = faces.offsetPages
        self.deferred = faces.deferred
        precondition(mode == .keyset || offsetPages != nil, "OFFSET pagination needs a backend with OFFSET pages")
        self.mode = mode
    }

    public func newest(limit: Int) throws -> Page {
        let page = try timed(.newest) { try backend.newest(limit: limit) }
        count(page)
        walks.append(Walk(page.items))
        return page
    }

    public func after(_ cursor: Cursor, limit: Int) throws -> Page {
        let page: Page
        switch mode {
        case .keyset:
            page = try timed(.after) { try backend.after(cursor, limit: limit) }
            if walks.last?.last != cursor { walks.append(Walk()) }
        case .offset:
            let offset = walks.last?.count ?? 0
            page = try timed(.offset) { try offsetPages!.offsetPage(offset: offset, limit: limit) }
            if walks.isEmpty { walks.append(Walk()) }
        }
        count(page)
        walks[walks.count - 1].append(page.items)
        return page
    }

    public func before(_ cursor: Cursor, limit: Int) throws -> Page {
        let page = try timed(.before) { try backend.before(cursor, limit: limit) }
        count(page)
        return page
    }

    public func rows(ids: [Int64]) throws -> RowBatch {
        let batch = try timed(.rows) { try backend.rows(ids: ids) }
        rowCount += batch.rows.count
        return batch
    }

    /// Starts a page request on a ``FeedModel/DeferredFeedSource`` backend (keyset only); when the
    /// answer is polled, it is timed by the request's own time on the wire and recorded in the
    /// walks, as ``newest(limit:)`` and ``after(_:limit:)`` record theirs.
    /// - Precondition: ``deferred`` is not `nil` and the mode is keyset.
    public func startPage(_ request: FeedController.FetchRequest) -> DeferredAnswer<Page> {
        let (query, limit) = (request.query, request.limit)
        guard let deferred, mode == .keyset else { preconditionFailure("deferred pages need a deferred keyset backend") }
        let kind: QueryKind
        let answer: DeferredAnswer<Page>
        switch query {
        case .newest:
            (kind, answer) = (.newest, deferred.startNewest(limit: limit))
        case .after(let cursor):
            (kind, answer) = (.after, deferred.startAfter(cursor, limit: limit))
        case .before(let cursor):
            (kind, answer) = (.before, deferred.startBefore(cursor, limit: limit))
        }
        return answer.map { [self] page in
            samples.append((kind, UInt64(max(0, (answer.elapsedMs ?? 0) * 1e6))))
            count(page)
            switch query {
            case .newest: walks.append(Walk(page.items))
            case .after(let cursor):
                if walks.last?.last != cursor { walks.append(Walk()) }
                walks[walks.count - 1].append(page.items)
            case .before: break
            }
            return page
        }
        .recordingFailure { [self] in record($0) }
    }

    /// Starts a row request on a ``FeedModel/DeferredFeedSource`` backend, timed as ``startPage(_:limit:)``.
    public func startRows(ids: [Int64]) -> DeferredAnswer<RowBatch> {
        guard let deferred else { preconditionFailure("deferred rows need a deferred backend") }
        let answer = deferred.startRows(ids: ids)
        return answer.map { [self] batch in
            samples.append((.rows, UInt64(max(0, (answer.elapsedMs ?? 0) * 1e6))))
            rowCount += batch.rows.count
            return batch
        }
        .recordingFailure { [self] in record($0) }
    }

    /// Moves the samples and counts gathered since the last call into `metrics`.
    public func flush(into metrics: inout LoadMetrics) {
        for (kind, nanoseconds) in samples { metrics.record(kind, nanoseconds: nanoseconds) }
        metrics.pages += pageCount
        metrics.items += itemCount
        metrics.rows += rowCount
        for error in errors { metrics.recordError(error) }
        samples.removeAll(keepingCapacity: true)
        errors.removeAll()
        pageCount = 0
        itemCount = 0
        rowCount = 0
    }

    private func count(_ page: Page) {
        pageCount += 1
        itemCount += page.items.count
    }

    private func record(_ error: any Error) {
        errors.append(error)
        lastErrorText = String(describing: error)
    }

    /// Whether `error` is the last one counted here.
    public func counted(_ error: any Error) -> Bool {
        lastErrorText != nil && lastErrorText == String(describing: error)
    }

    private func timed<T>(_ kind: QueryKind, _ query: () throws -> T) throws -> T {
        let start = MonotonicClock.now()
        do {
            let result = try query()
            lastCallNanoseconds = MonotonicClock.since(start)
            samples.append((kind, lastCallNanoseconds))
            return result
        } catch {
            lastCallNanoseconds = MonotonicClock.since(start)
            record(error)
            throw error
        }
    }
}

/// A backend connection's optional protocols, cast once. A cast that fails (an SQLite connection is
/// no ``FeedModel/DeferredFeedSource``) walks the runtime's conformance records: 34 k instructions
/// each (callgrind, `feedsim load --session pagination`, 2 sessions, 20 iterations of 50 pages on 1M
/// items: the two casts of a session's start were 1.4 k of 277 k instructions per page), so a pooled
/// connection keeps the answers for every session that takes it.
struct BackendFaces {
    let offsetPages: (any OffsetPageSource)?
    let deferred: (any DeferredFeedSource)?
    let sessionScoped: (any SessionScopedBackend)?

    init(_ backend: any FeedBackend) {
        offsetPages = backend as? any OffsetPageSource
        deferred = backend as? any DeferredFeedSource
        sessionScoped = backend as? any SessionScopedBackend
    }
}

extension Duration {
    /// Whole nanoseconds (0 for negative durations).
    var nanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return 0 }
        return UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
    }
}
