import FeedModel

/// Keyset pages of one feed, served by one ``ItemStore`` (and so one connection and one thread).
///
/// Every query is one seek on the index `items_feed_order (feed_id, published_at DESC, id DESC)`
/// with a row-value comparison `(published_at, id) < (?, ?)` (SQLite ≥ 3.15,
/// <https://sqlite.org/rowvalue.html>), then a walk of `limit + 1` entries; never OFFSET.
/// Ties in `published_at` are ordered by id, so no item is lost or repeated across pages, and
/// items inserted or deleted between pages never shift a page boundary.
public struct FeedPageSource: PageSource, RowSource {
    public let store: ItemStore
    public let feed: FeedID

    public init(store: ItemStore, feed: FeedID) {
        self.store = store
        self.feed = feed
    }

    /// The newest `limit` items. `hasMoreBefore` is `false`; `hasMoreAfter` tells whether older
    /// items exist.
    /// - Precondition: `limit` ≥ 1.
    /// - Complexity: O(log N + limit).
    public func newest(limit: Int) throws -> Page {
        try store.newest(feed: feed, limit: limit)
    }

    /// Up to `limit` items strictly older than `cursor` (the More direction), in feed order.
    ///
    /// `hasMoreAfter`: an item older than the last one returned exists. `hasMoreBefore`: an item
    /// newer than the first one returned exists (newer than `cursor` when the page is empty).
    /// The cursor's own item need not exist any more.
    /// - Precondition: `limit` ≥ 1.
    /// - Complexity: O(log N + limit): the page seek plus one seek for `hasMoreBefore`.
    public func after(_ cursor: Cursor, limit: Int) throws -> Page {
        try store.after(cursor, feed: feed, limit: limit)
    }

    /// The `limit` items strictly newer than `cursor` nearest to it (the Refresh / prepend
    /// direction), returned in feed order (newest first).
    ///
    /// `hasMoreBefore`: items newer than the first one returned exist beyond this page.
    /// `hasMoreAfter`: an item older than the last one returned exists (older than `cursor` when
    /// the page is empty).
    /// - Precondition: `limit` ≥ 1.
    /// - Complexity: O(log N + limit).
    public func before(_ cursor: Cursor, limit: Int) throws -> Page {
        try store.before(cursor, feed: feed, limit: limit)
    }

    /// Rows for `ids` (any feed), in the requested order; see ``ItemStore/rows(ids:)``.
    public func rows(ids: [Int64]) throws -> RowBatch {
        try store.rows(ids: ids)
    }
}

extension ItemStore {
    /// A ``PageSource`` and ``RowSource`` bound to `feed` and this store's connection.
    public func pages(feed: FeedID) -> FeedPageSource {
        FeedPageSource(store: self, feed: feed)
    }

    static let stubColumns = "id, published_at, kind, width, height"
    package static let newestSQL = """
        SELECT \(stubColumns) FROM items WHERE feed_id = ?1
        ORDER BY published_at DESC, id DESC LIMIT ?2
        """
    package static let afterSQL = """
        SELECT \(stubColumns) FROM items WHERE feed_id = ?1 AND (published_at, id) < (?2, ?3)
        ORDER BY published_at DESC, id DESC LIMIT ?4
        """
    static let beforeSQL = """
        SELECT \(stubColumns) FROM items WHERE feed_id = ?1 AND (published_at, id) > (?2, ?3)
        ORDER BY published_at ASC, id ASC LIMIT ?4
        """
    package static let newerExistsSQL = """
        SELECT EXISTS (SELECT 1 FROM items WHERE feed_id = ?1 AND (published_at, id) > (?2, ?3))
        """
    static let olderExistsSQL = """
        SELECT EXISTS (SELECT 1 FROM items WHERE feed_id = ?1 AND (published_at, id) < (?2, ?3))
        """
    static let offsetSQL = """
        SELECT \(stubColumns) FROM items WHERE feed_id = ?1
        ORDER BY published_at DESC, id DESC LIMIT ?2 OFFSET ?3
        """

    /// See ``FeedPageSource/newest(limit:)``.
    public func newest(feed: FeedID, limit: Int) throws -> Page {
        precondition(limit >= 1, "page limit must be at least 1")
        let statement = try pageStatement(.newest)
        var items = try connection.serialized {
            statement.bind(feed.rawValue, at: 1)
            statement.bind(limit + 1, at: 2)
            return try readStubs(statement, capacity: limit + 1)
        }
        let more = items.count > limit
        if more { items.removeLast() }
        return Page(items: items, hasMoreBefore: false, hasMoreAfter: more)
    }

    /// See ``FeedPageSource/after(_:limit:)``.
    public func after(_ cursor: Cursor, feed: FeedID, limit: Int) throws -> Page {
        let (items, more, newer) = try keysetPage(.after, probe: .newerExists, from: cursor, feed: feed, limit: limit)
        return Page(items: items, hasMoreBefore: newer, hasMoreAfter: more)
    }

    /// See ``FeedPageSource/before(_:limit:)``.
    public func before(_ cursor: Cursor, feed: FeedID, limit: Int) throws -> Page {
        let (nearestFirst, more, older) = try keysetPage(
            .before, probe: .olderExists, from: cursor, feed: feed, limit: limit)
        return Page(items: nearestFirst.reversed(), hasMoreBefore: more, hasMoreAfter: older)
    }

    /// Up to `limit` items on one side of `cursor` (`kind`: `.after` or `.before`), nearest to the
    /// cursor first; whether more lie beyond them; and whether an item exists on the other side of
    /// the nearest one (of `cursor` for an empty page) — `probe`: `.newerExists` or `.olderExists`.
    /// The page and its probe run in one read transaction (``Connection/read(_:)``): one snapshot.
    /// - Precondition: `limit` ≥ 1.
    private func keysetPage(
        _ kind: PageStatementKind, probe probeKind: PageStatementKind, from cursor: Cursor, feed: FeedID, limit: Int
    ) throws -> (items: [Item], more: Bool, behind: Bool) {
        precondition(limit >= 1, "page limit must be at least 1")
        let statement = try pageStatement(kind)
        let probe = try pageStatement(probeKind)
        return try connection.read {
            try connection.serialized {
                bind(statement, feed: feed, cursor: cursor, limit: limit + 1)
                var items = try readStubs(statement, capacity: limit + 1)
                let more = items.count > limit
                if more { items.removeLast() }
                let behind = try exists(probe, feed: feed, than: items.first?.cursor ?? cursor)
                return (items, more, behind)
            }
        }
    }

    /// A page by OFFSET: kept only as the baseline that shows what OFFSET paging does wrong
    /// (items inserted above shift later pages: duplicates; deletions above: skips).
    ///
    /// `hasMoreBefore` is `offset > 0`; `hasMoreAfter` whether an item exists past this page.
    /// - Precondition: `offset` ≥ 0, `limit` ≥ 1.
    /// - Complexity: O(log N + offset + limit): SQLite steps over the skipped rows.
    public func offsetPage(feed: FeedID, offset: Int, limit: Int) throws -> Page {
        precondition(limit >= 1 && offset >= 0, "offset must be ≥ 0 and limit ≥ 1")
        let statement = try pageStatement(.offset)
        var items = try connection.serialized {
            statement.bind(feed.rawValue, at: 1)
            statement.bind(limit + 1, at: 2)
            statement.bind(offset, at: 3)
            return try readStubs(statement, capacity: limit + 1)
        }
        let more = items.count > limit
        if more { items.removeLast() }
        return Page(items: items, hasMoreBefore: offset > 0, hasMoreAfter: more)
    }

    private func bind(_ statement: Statement, feed: FeedID, cursor: Cursor, limit: Int) {
        statement.bind(feed.rawValue, at: 1)
        statement.bind(cursor.publishedAt, at: 2)
        statement.bind(cursor.id, at: 3)
        statement.bind(limit, at: 4)
    }

    private func exists(_ statement: Statement, feed: FeedID, than cursor: Cursor) throws -> Bool {
        defer { statement.rewind() }
        statement.bind(feed.rawValue, at: 1)
        statement.bind(cursor.publishedAt, at: 2)
        statement.bind(cursor.id, at: 3)
        return try statement.step() && statement.int64(at: 0) != 0
    }

    /// The statement of `kind`, prepared at its first use on this connection. Every use binds all
    /// its parameters and rewinds it when done (``Statement/rewind()``), so it is ready here.
    private func pageStatement(_ kind: PageStatementKind) throws -> Statement {
        if let statement = pageStatements[kind.rawValue] { return statement }
        let statement = try connection.prepare(kind.sql)
        pageStatements[kind.rawValue] = statement
        return statement
    }

    private func readStubs(_ statement: Statement, capacity: Int) throws -> [Item] {
        // The interner is moved out for the loop and back after: one access to the stored
        // property per page rather than one (dynamically checked) per row.
        var kinds = self.kinds
        self.kinds = TextInterner()
        defer {
            self.kinds = kinds
            statement.rewind()
        }
        var items: [Item] = []
        items.reserveCapacity(Swift.min(capacity, 1_024))
        while try statement.step() {
            items.append(
                Item(
                    id: statement.int64(at: 0), publishedAt: statement.int64(at: 1),
                    kind: statement.withText(at: 2) { kinds.string($0) },
                    width: statement.double(at: 3), height: statement.double(at: 4)))
        }
        return items
    }
}

/// The kinds of prepared statement an ``ItemStore`` keeps for pages and their probes, one slot each
/// in ``ItemStore/pageStatements`` (not `FeedController.PageQuery`, the request a controller makes).
enum PageStatementKind: Int, CaseIterable {
    case newest, after, before, newerExists, olderExists, offset

    var sql: String {
        switch self {
        case .newest: ItemStore.newestSQL
        case .after: ItemStore.afterSQL
        case .before: ItemStore.beforeSQL
        case .newerExists: ItemStore.newerExistsSQL
        case .olderExists: ItemStore.olderExistsSQL
        case .offset: ItemStore.offsetSQL
        }
    }
}
