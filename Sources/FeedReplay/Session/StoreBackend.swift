import FeedEngine
import FeedModel
import FeedResources

/// The real ``ReplayBackend``: one feed of any ``FeedModel/FeedBackend`` (a SQLite file, a
/// PostgreSQL database, an HTTP feed API), on this session's connection.
///
/// Upstream inserts make rows at the feed's head, generated from a preset, so a later Refresh
/// finds them. They are kept in memory (``PendingInserts``) and merged into what the replay
/// reads, so the backend is not written (nor its write lock held) while the replay runs — it may
/// be opened read-only; ``commitInserts()`` writes them all in one transaction at the end when
/// they are kept. Virtual time 0 is mapped to just after the newest item at the start, so an
/// insert at `t` ms is published at `newest + 1 + t` ms or later (saturating at `Int64.max`).
public final class StoreBackend: ReplayBackend {
    /// The backend the replay reads (and, on ``commitInserts()``, writes).
    public let backend: any FeedBackend
    private var generator: ItemGenerator
    private let epoch: Int64
    private var pending: PendingInserts
    /// Ids given by ``insertAtHead(count:at:)``, in order (in memory until ``commitInserts()``).
    public private(set) var insertedIDs: [Int64] = []

    /// - Parameters:
    ///   - backend: an open backend bound to the replayed feed (one thread at a time).
    ///   - insertPreset: the preset new items are generated from; `seed` seeds that generator.
    ///   - largestID: the backend's largest item id (any feed), so inserts take the ids after it,
    ///     as SQLite's rowids would; `nil`: after the largest id on the feed's newest page.
    /// - Throws: the backend's error when the newest item cannot be read in
    ///   ``readAttempts`` attempts.
    public init(backend: any FeedBackend, insertPreset: Preset, seed: UInt64, largestID: Int64? = nil) throws {
        self.backend = backend
        let newestPage = try Self.withAttempts { try backend.newest(limit: 100) }
        let newest = newestPage.items.first?.publishedAt ?? ItemGenerator.defaultStart
        let (start, overflow) = newest.addingReportingOverflow(1)
        self.epoch = overflow ? newest : start
        self.generator = ItemGenerator(preset: insertPreset, seed: seed, start: epoch)
        self.pending = PendingInserts(largestID: largestID ?? newestPage.items.map(\.id).max())
    }

    /// Attempts at the one read made before the replay starts (the newest page) and at each
    /// ground-truth read of the gap check: an HTTP API under
    /// test may fail any request (`feedsim serve --faults`), and the replay's own requests are
    /// retried by the controller, so one failed set-up request should not end the run.
    public static let readAttempts = 3

    static func withAttempts<T>(_ body: () throws -> T) throws -> T {
        var attempt = 1
        while true {
            do { return try body() } catch {
                if attempt >= readAttempts { throw error }
                attempt += 1
            }
        }
    }

    /// How many rows the trace's insert events made so far (in memory until committed).
    public var pendingInsertCount: Int { pending.count }

    public func page(_ request: FeedController.FetchRequest) throws -> Page {
        let page = try request.run(on: backend)
        if pending.isEmpty { return page }
        let shape: PendingInserts.PageRequest
        switch request.query {
        case .newest: shape = .newest
        case .after(let cursor): shape = .after(cursor)
        case .before(let cursor): shape = .before(cursor)
        }
        return try pending.merge(shape, limit: request.limit, storePage: page, storeProbe: probe)
    }

    /// Whether the backend holds an item newer (`newer`) or older than `anchor`.
    private func probe(_ anchor: Cursor, _ newer: Bool) throws -> Bool {
        newer ? !(try backend.before(anchor, limit: 1).items.isEmpty) : !(try backend.after(anchor, limit: 1).items.isEmpty)
    }

    public func rows(ids: [Int64]) throws -> RowBatch {
        if pending.isEmpty { return try backend.rows(ids: ids) }
        return try pending.rows(ids: ids) { try backend.rows(ids: $0) }
    }

    public func insertAtHead(count: Int, at t: Double) throws {
        let offset = t.isFinite && t > 0 ? Int64(min(t.rounded(.down), 1e15)) : 0
        let (notBefore, overflow) = epoch.addingReportingOverflow(offset)
        let items = generator.items(count: count, notBefore: overflow ? Int64.max : notBefore)
        insertedIDs += try pending.add(items)
    }

    public func groundTruth(after cursor: Cursor, limit: Int) throws -> [Item] {
        guard limit > 0 else { return [] }
        // Tried as the set-up read is: the oracle's reads are not what is under test, and an API
        // that fails some requests on purpose should not show as a gap check that failed.
        let truth = try Self.withAttempts { try backend.groundTruth(after: cursor, limit: limit) }
        if pending.isEmpty { return truth }
        let page = Page(items: truth, hasMoreBefore: false, hasMoreAfter: false)
        return try pending.merge(.after(cursor), limit: limit, storePage: page, storeProbe: { _, _ in false }).items
    }

    /// ``groundTruth(after:limit:)``'s cursors: while no insert is pending, the backend's own
    /// cursor-only read (SQLite's and PostgreSQL's from the feed-order index alone), tried as
    /// ``groundTruth(after:limit:)`` is.
    public func groundTruthCursors(after cursor: Cursor, limit: Int) throws -> [Cursor] {
        guard limit > 0 else { return [] }
        guard pending.isEmpty else { return try groundTruth(after: cursor, limit: limit).map(\.cursor) }
        return try Self.withAttempts { try backend.groundTruthCursors(after: cursor, limit: limit) }
    }

    /// Writes every pending insert into the backend in one transaction (``FeedModel/FeedBackend/insert(_:)``:
    /// all or nothing; the write lock is held only for that), with the ids the replay gave them;
    /// when another writer took one of those ids meanwhile, the backend assigns new ones instead
    /// (the same rows, all kept).
    /// - Returns: how many rows were written.
    /// - Throws: the backend's error; nothing is written then.
    @discardableResult
    public func commitInserts() throws -> Int {
        let items = pending.newItems
        guard !items.isEmpty else { return 0 }
        do {
            insertedIDs = try backend.insert(items)
        } catch {
            // Another writer took some of these ids meanwhile (the backend refused a duplicate id, and
            // wrote nothing): let the backend assign them. Any other failure fails again, and throws.
            insertedIDs = try backend.insert(items.map { var item = $0; item.id = nil; return item })
        }
        return items.count
    }
}
