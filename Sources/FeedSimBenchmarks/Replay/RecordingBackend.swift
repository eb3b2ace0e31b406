import FeedEngine
import FeedLayout
import FeedModel
import FeedReplay
import FeedResources
import FeedStore
import FeedLoad
import Foundation

/// A ``ReplayBackend`` that passes every call to another one and keeps what a benchmark needs:
/// the log of store calls (to replay them later without the simulator) and how deep the feed
/// was paged.
///
/// Depth: pages are contiguous runs of the feed (the replay checks it against the store), so the
/// items of a page that lie beyond the deepest cursor seen so far are new ground, and their sum
/// is how many items from the head the feed was paged (every item that has been loaded at least
/// once). Pages of older generations or reloads after a drop add nothing. Items inserted at the
/// head during the replay are not counted.
///
/// - Complexity: O(1) per call besides the inner backend's work, plus O(k) for a page of k items;
///   memory O(calls) with ``keepsLog``, O(1) without.
public final class RecordingBackend: ReplayBackend {
    /// One call the replay made, in order.
    public enum Call: Hashable, Sendable {
        case page(FeedController.FetchRequest)
        case rows(ids: [Int64])
        case groundTruth(after: Cursor, limit: Int)
        case groundTruthCursors(after: Cursor, limit: Int)
        case insert(count: Int, t: Double)
    }

    public let inner: any ReplayBackend
    /// Whether ``log`` is kept (off for memory measurements, where it would be the growth measured).
    public let keepsLog: Bool
    /// Whether each call to ``inner`` is timed into ``callNanoseconds`` (two clock reads per call:
    /// on only for a round whose own wall time is not a benchmark figure).
    public let timesCalls: Bool
    /// Wall time spent inside ``inner``'s calls, nanoseconds (0 unless ``timesCalls``).
    public private(set) var callNanoseconds: UInt64 = 0
    public private(set) var log: [Call] = []
    /// The oldest cursor any page returned (the deepest point in feed order), `nil` before the first page.
    public private(set) var deepestCursor: Cursor?
    /// Items from the head down to ``deepestCursor``: how deep the feed was paged.
    public private(set) var depthItems = 0
    /// Calls per kind.
    public private(set) var pageCalls = 0
    public private(set) var rowCalls = 0
    public private(set) var rowIDs = 0
    public private(set) var groundTruthCalls = 0
    public private(set) var insertCalls = 0

    public init(wrapping inner: any ReplayBackend, keepsLog: Bool, timesCalls: Bool = false) {
        self.inner = inner
        self.keepsLog = keepsLog
        self.timesCalls = timesCalls
    }

    /// `body`, timed into ``callNanoseconds`` when ``timesCalls``.
    @inline(__always)
    private func timed<T>(_ body: () throws -> T) rethrows -> T {
        guard timesCalls else { return try body() }
        let start = MonotonicClock.now()
        defer { callNanoseconds &+= MonotonicClock.since(start) }
        return try body()
    }

    public func page(_ request: FeedController.FetchRequest) throws -> Page {
        pageCalls += 1
        if keepsLog { log.append(.page(request)) }
        let page = try timed { try inner.page(request) }
        noteDepth(page.items)
        return page
    }

    public func rows(ids: [Int64]) throws -> RowBatch {
        rowCalls += 1
        rowIDs += ids.count
        if keepsLog { log.append(.rows(ids: ids)) }
        return try timed { try inner.rows(ids: ids) }
    }

    public func insertAtHead(count: Int, at t: Double) throws {
        insertCalls += 1
        if keepsLog { log.append(.insert(count: count, t: t)) }
        try timed { try inner.insertAtHead(count: count, at: t) }
    }

    public func groundTruth(after cursor: Cursor, limit: Int) throws -> [Item] {
        groundTruthCalls += 1
        if keepsLog { log.append(.groundTruth(after: cursor, limit: limit)) }
        return try timed { try inner.groundTruth(after: cursor, limit: limit) }
    }

    /// The gap check's read (what the replay calls): counted as a ground-truth call and logged as
    /// its own kind, which the baseline issues as the same cursor-only read.
    public func groundTruthCursors(after cursor: Cursor, limit: Int) throws -> [Cursor] {
        groundTruthCalls += 1
        if keepsLog { log.append(.groundTruthCursors(after: cursor, limit: limit)) }
        return try timed { try inner.groundTruthCursors(after: cursor, limit: limit) }
    }

    /// Counts the items of a page that lie beyond the deepest cursor so far.
    func noteDepth(_ items: [Item]) {
        for item in items where deepestCursor.map({ $0 < item.cursor }) ?? true {
            depthItems += 1
            deepestCursor = item.cursor
        }
    }
}
