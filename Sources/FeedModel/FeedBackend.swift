/// An item to write: everything but the feed, with an optional id (`nil`: the backend assigns the next one).
public struct NewItem: Hashable, Sendable, Codable {
    public var id: Int64?
    /// Unix milliseconds.
    public var publishedAt: Int64
    /// Reuse identifier.
    public var kind: String
    /// Intrinsic width in points, ≥ 0.
    public var width: Double
    /// Intrinsic height in points, ≥ 0.
    public var height: Double
    public var title: String
    public var author: String
    /// JSON text.
    public var payload: String

    public init(
        id: Int64? = nil, publishedAt: Int64, kind: String, width: Double, height: Double,
        title: String = "", author: String = "", payload: String = "{}"
    ) {
        self.id = id
        self.publishedAt = publishedAt
        self.kind = kind
        self.width = width
        self.height = height
        self.title = title
        self.author = author
        self.payload = payload
    }
}

/// One feed of a backend, as the simulator sees it: the seam every backend implements (a SQLite
/// file, a PostgreSQL database, an HTTP feed API, an in-memory double) and every consumer (replay,
/// load tester, `serve`) uses, so a new backend slots in without touching the simulator.
///
/// A `FeedBackend` value is bound to one feed and one connection, and is used by one thread at a
/// time; open one per thread. Pages are in feed order (`published_at DESC, id DESC`) and served by
/// keyset cursor (``PageSource``); rows by id (``RowSource``). Latency, faults and timing are
/// decorators over any backend, never part of one.
///
/// Semantics every implementation must hold (tested on each, with the same tests): following
/// ``PageSource/after(_:limit:)`` cursors from any cursor yields exactly the items older than it,
/// in feed order, no duplicate and no gap, even while other connections write at the head;
/// ``PageSource/before(_:limit:)`` yields the newer ones; a page and its "more exists" probe come
/// from one snapshot.
public protocol FeedBackend: PageSource, RowSource {
    /// What serves the feed, for reports: `"sqlite"`, `"postgresql"`, `"http"`, `"memory"`.
    var backendName: String { get }

    /// Writes `items` into this feed in one transaction, all or nothing.
    /// - Returns: the id of each item, in order (assigned by the backend where `id` is `nil`).
    /// - Throws: the backend's error when any item cannot be written; nothing is written then.
    @discardableResult
    func insert(_ items: [NewItem]) throws -> [Int64]

    /// Replaces the title, author and payload of the rows with these ids (stubs and feed order are
    /// unchanged), in one transaction. Ids that do not exist are ignored.
    /// - Returns: how many rows were updated.
    @discardableResult
    func update(_ rows: [ItemRow]) throws -> Int

    /// Deletes the items with these ids, in one transaction. Ids that do not exist are ignored.
    /// - Returns: how many items were deleted.
    @discardableResult
    func delete(ids: [Int64]) throws -> Int

    /// Ground truth for the consistency oracle: up to `limit` items strictly older than `cursor`,
    /// in feed order, read with a query independent of the paging code under test (not through
    /// ``PageSource``), bypassing any decorator. `limit` ≥ 0.
    func groundTruth(after cursor: Cursor, limit: Int) throws -> [Item]
}
