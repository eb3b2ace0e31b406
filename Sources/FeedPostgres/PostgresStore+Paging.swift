import FeedModel

/// One feed of a ``PostgresStore``, on its connection: the PostgreSQL implementation of the backend seam.
///
/// Keyset pages: one index seek on `items_feed_order (feed_id, published_at DESC, id DESC)` with a
/// row-value comparison `(published_at, id) < ($2, $3)`, then a walk of `limit + 1` entries (the
/// probe for "more beyond"); never OFFSET. A page and its "more on the other side" probe are one
/// statement, so one snapshot (<https://www.postgresql.org/docs/current/transaction-iso.html>: a
/// statement sees the data committed before it began). Rows by id: one statement, `id = ANY($1)`.
public struct PostgresFeedBackend: FeedBackend {
    public let store: PostgresStore
    public let feed: Int64

    public init(store: PostgresStore, feed: Int64) {
        self.store = store
        self.feed = feed
    }

    public var backendName: String { "postgresql" }

    /// The newest `limit` items. - Precondition: `limit` ≥ 1. - Complexity: O(log N + limit).
    public func newest(limit: Int) throws -> Page {
        try store.newest(feed: feed, limit: limit)
    }

    /// Up to `limit` items strictly older than `cursor`, in feed order; the cursor's own item need
    /// not exist. - Precondition: `limit` ≥ 1. - Complexity: O(log N + limit), one round trip.
    public func after(_ cursor: Cursor, limit: Int) throws -> Page {
        try store.keysetPage(.after, from: cursor, feed: feed, limit: limit)
    }

    /// The `limit` items strictly newer than `cursor` nearest to it, returned in feed order.
    /// - Precondition: `limit` ≥ 1. - Complexity: O(log N + limit), one round trip.
    public func before(_ cursor: Cursor, limit: Int) throws -> Page {
        try store.keysetPage(.before, from: cursor, feed: feed, limit: limit)
    }

    /// Rows for `ids` (any feed), in the requested order; see ``PostgresStore/rows(ids:)``.
    public func rows(ids: [Int64]) throws -> RowBatch {
        try store.rows(ids: ids)
    }

    @discardableResult
    public func insert(_ items: [NewItem]) throws -> [Int64] {
        try store.insert(items: items, feed: feed)
    }

    @discardableResult
    public func update(_ rows: [ItemRow]) throws -> Int {
        try store.update(rows: rows)
    }

    @discardableResult
    public func delete(ids: [Int64]) throws -> Int {
        try store.delete(ids: ids)
    }

    public func groundTruth(after cursor: Cursor, limit: Int) throws -> [Item] {
        try store.groundTruth(after: cursor, feed: feed, limit: limit)
    }

    public func groundTruthCursors(after cursor: Cursor, limit: Int) throws -> [Cursor] {
        try store.groundTruthCursors(after: cursor, feed: feed, limit: limit)
    }
}

/// The two keyset directions and the SQL of each.
package enum KeysetDirection {
    /// Older than the cursor (More).
    case after
    /// Newer than the cursor (Refresh / prepend), nearest first.
    case before

    /// One prepared statement per direction and page size.
    func statementName(rows: Int) -> String {
        (self == .after ? "feedsim_page_after_" : "feedsim_page_before_") + String(rows)
    }

    /// The page (`limit + 1` = `$4` rows, nearest the cursor first) and, on every row, whether an
    /// item exists on the other side of the page's nearest item — of the cursor itself when the page
    /// is empty, then one row of NULLs carries the answer. Since nothing lies between the cursor and
    /// the nearest item, "beyond the nearest item" is "beyond the cursor, or the cursor's own row".
    /// "Beyond the cursor" is the nearest such item's id, not `EXISTS`: with `ORDER BY … LIMIT 1`
    /// the planner seeks the feed-order index, where for `EXISTS` it may pick a sequential scan that
    /// reads the whole feed when nothing is beyond (the top of the feed, on every Refresh).
    ///
    /// `rows` (the page size + 1) is written into the SQL, not bound: with `LIMIT $4` PostgreSQL
    /// cannot cost a generic plan (it assumes a tenth of the table), keeps planning each execution
    /// afresh, and planning took longer than running the page (0.5 ms of 0.7 ms, `EXPLAIN ANALYZE`
    /// on 1,000,000 items; `feedsim bench store --db … --clients` against pgbench showed it). It is
    /// an `Int` of the caller's, never input text; one statement is prepared per page size.
    package func sql(rows: Int) -> String {
        let (toward, away, order, awayOrder) = self == .after ? ("<", ">", "DESC", "ASC") : (">", "<", "ASC", "DESC")
        return """
            WITH page AS (
                SELECT id, published_at, kind, width, height FROM items
                WHERE feed_id = $1 AND (published_at, id) \(toward) ($2, $3)
                ORDER BY published_at \(order), id \(order) LIMIT \(rows)
            ), probe AS (
                SELECT (SELECT id FROM items WHERE feed_id = $1 AND (published_at, id) \(away) ($2, $3)
                        ORDER BY published_at \(awayOrder), id \(awayOrder) LIMIT 1) IS NOT NULL
                    OR (EXISTS (SELECT 1 FROM page)
                        AND EXISTS (SELECT 1 FROM items WHERE feed_id = $1 AND published_at = $2 AND id = $3))
                    AS behind
            )
            SELECT page.id, page.published_at, page.kind, page.width, page.height, probe.behind
            FROM probe LEFT JOIN page ON TRUE
            ORDER BY page.published_at \(order), page.id \(order)
            """
    }
}

extension PostgresStore {
    /// The newest page; `rows` written into the SQL for the reason given at ``KeysetDirection/sql(rows:)``.
    package static func newestSQL(rows: Int) -> String {
        """
        SELECT id, published_at, kind, width, height FROM items WHERE feed_id = $1
        ORDER BY published_at DESC, id DESC LIMIT \(rows)
        """
    }

    /// See ``PostgresFeedBackend/newest(limit:)``.
    func newest(feed: Int64, limit: Int) throws -> Page {
        precondition(limit >= 1, "page limit must be at least 1")
        var parameters = PostgresParameters()
        parameters.append(feed)
        let result = try connection.execute(
            prepared: "feedsim_page_newest_" + String(limit + 1), sql: Self.newestSQL(rows: limit + 1), parameters)
        var items = (0..<result.rowCount).map { Self.stub(result, row: $0) }
        let more = items.count > limit
        if more { items.removeLast() }
        return Page(items: items, hasMoreBefore: false, hasMoreAfter: more)
    }

    /// One keyset page and its probe, in one statement (one snapshot).
    func keysetPage(_ direction: KeysetDirection, from cursor: Cursor, feed: Int64, limit: Int) throws -> Page {
        precondition(limit >= 1, "page limit must be at least 1")
        var parameters = PostgresParameters()
        parameters.append(feed)
        parameters.append(cursor.publishedAt)
        parameters.append(cursor.id)
        let result = try connection.execute(
            prepared: direction.statementName(rows: limit + 1), sql: direction.sql(rows: limit + 1), parameters)
        let behind = result.rowCount > 0 && result.bool(0, 5)
        var items: [Item] = []
        items.reserveCapacity(result.rowCount)
        for row in 0..<result.rowCount where !result.isNull(row, 0) {
            items.append(Self.stub(result, row: row))
        }
        let more = items.count > limit
        if more { items.removeLast() }
        switch direction {
        case .after:
            return Page(items: items, hasMoreBefore: behind, hasMoreAfter: more)
        case .before:
            return Page(items: items.reversed(), hasMoreBefore: more, hasMoreAfter: behind)
        }
    }

    /// The query plan PostgreSQL picks for a page statement (`EXPLAIN`, parameters bound), one line
    /// per plan node: for tests and for users checking that the feed-order index serves pages.
    /// - Parameter direction: `"newest"`, `"after"` or `"before"`.
    public func explainPage(_ direction: String, cursor: Cursor, feed: Int64, limit: Int) throws -> [String] {
        var parameters = PostgresParameters()
        parameters.append(feed)
        let sql: String
        switch direction {
        case "after", "before":
            sql = (direction == "after" ? KeysetDirection.after : .before).sql(rows: limit + 1)
            parameters.append(cursor.publishedAt)
            parameters.append(cursor.id)
        default:
            sql = Self.newestSQL(rows: limit + 1)
        }
        let result = try connection.execute(unprepared: "EXPLAIN " + sql, parameters)
        return (0..<result.rowCount).map { result.text($0, 0) }
    }
}
