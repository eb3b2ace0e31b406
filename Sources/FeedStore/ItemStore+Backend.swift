import FeedModel

/// The SQLite implementation of the backend seam: one feed of an ``ItemStore``, on its connection.
extension FeedPageSource: FeedBackend {
    public var backendName: String { "sqlite" }

    /// See ``ItemStore/insert(items:feed:)``.
    @discardableResult
    public func insert(_ items: [NewItem]) throws -> [Int64] {
        try store.insert(items: items, feed: feed)
    }

    /// See ``ItemStore/update(rows:)``.
    @discardableResult
    public func update(_ rows: [ItemRow]) throws -> Int {
        try store.update(rows: rows)
    }

    /// See ``ItemStore/delete(ids:)``.
    @discardableResult
    public func delete(ids: [Int64]) throws -> Int {
        try store.delete(ids: ids)
    }

    /// See ``ItemStore/groundTruth(after:feed:limit:)``.
    public func groundTruth(after cursor: Cursor, limit: Int) throws -> [Item] {
        try store.groundTruth(after: cursor, feed: feed, limit: limit)
    }
}

extension ItemStore {
    /// Replaces the title, author and payload of the rows with these ids, in one transaction.
    /// Ids that do not exist are ignored; stubs (and so the feed order) are unchanged.
    /// - Returns: how many rows were updated.
    /// - Throws: ``SQLiteError``; nothing is written then.
    /// - Complexity: O(k log N) for k rows.
    @discardableResult
    public func update(rows: [ItemRow]) throws -> Int {
        try connection.transaction {
            let statement = try connection.cachedStatement(
                "UPDATE items SET title = ?1, author = ?2, payload = ?3 WHERE id = ?4")
            var updated = 0
            for row in rows {
                statement.bind(row.title, at: 1)
                statement.bind(row.author, at: 2)
                statement.bind(row.payload, at: 3)
                statement.bind(row.id, at: 4)
                try statement.run()
                updated += connection.changes
            }
            return updated
        }
    }

    /// Up to `limit` items of `feed` strictly older than `cursor`, in feed order, for the
    /// consistency oracle. Independent of the paging code: its own statement, written with the
    /// expanded comparison `published_at < ? OR (published_at = ? AND id < ?)` instead of the
    /// pages' row value, and not the pages' prepared statements.
    /// - Complexity: O(log N + limit).
    public func groundTruth(after cursor: Cursor, feed: FeedID, limit: Int) throws -> [Item] {
        guard limit > 0 else { return [] }
        let statement = try connection.cachedStatement(
            """
            SELECT id, published_at, kind, width, height FROM items
            WHERE feed_id = ?1 AND (published_at < ?2 OR (published_at = ?2 AND id < ?3))
            ORDER BY published_at DESC, id DESC LIMIT ?4
            """)
        return try connection.serialized {
            defer { statement.reset() }
            statement.bind(feed.rawValue, at: 1)
            statement.bind(cursor.publishedAt, at: 2)
            statement.bind(cursor.id, at: 3)
            statement.bind(limit, at: 4)
            var items: [Item] = []
            while try statement.step() {
                items.append(
                    Item(
                        id: statement.int64(at: 0), publishedAt: statement.int64(at: 1),
                        kind: statement.text(at: 2), width: statement.double(at: 3),
                        height: statement.double(at: 4)))
            }
            return items
        }
    }
}
