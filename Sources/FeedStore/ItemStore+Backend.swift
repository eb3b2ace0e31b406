import FeedModel

/// The SQLite implementation of the backend seam: one feed of an ``ItemStore``, on its connection.
extension FeedPageSource: FeedBackend {
    public var backendName: String { "sqlite" }

    /// See ``ItemStore/insert(items:feed:)``.
    @discardableResult
    public func insert(_ items: [NewItem]) throws -> [Int64] {
        try store.insert(items: items, feed: feed)
    }

    /// See ``ItemStore/insertAtHead(feed:_:)``: one `BEGIN IMMEDIATE` transaction.
    @discardableResult
    public func insertAtHead(_ makeItems: (_ newestPublishedAt: Int64?) -> [NewItem]) throws -> [Int64] {
        try store.insertAtHead(feed: feed, makeItems)
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

    /// See ``ItemStore/groundTruthCursors(after:feed:limit:)``.
    public func groundTruthCursors(after cursor: Cursor, limit: Int) throws -> [Cursor] {
        try store.groundTruthCursors(after: cursor, feed: feed, limit: limit)
    }
}

extension ItemStore {
    /// Writes items at the head of `feed` in one `BEGIN IMMEDIATE` transaction: reads the feed's
    /// newest `published_at` (`nil` when empty), then inserts what `makeItems` returns for it.
    /// Writers on other connections queue on the write lock, so none lands an item above these in
    /// between.
    /// - Returns: the ids, in order.
    /// - Throws: as ``insert(items:feed:)``; nothing is written then.
    /// - Complexity: O(log N) for the head, O(n log N) for n items.
    @discardableResult
    public func insertAtHead(feed: FeedID, _ makeItems: (_ newestPublishedAt: Int64?) -> [NewItem]) throws -> [Int64] {
        try connection.transaction {
            let head = try connection.cachedStatement("SELECT max(published_at) FROM items WHERE feed_id = ?1")
            head.bind(feed.rawValue, at: 1)
            let newest: Int64? = try head.step() && !head.isNull(at: 0) ? head.int64(at: 0) : nil
            head.reset()
            return try insertWithoutTransaction(makeItems(newest), feed: feed)
        }
    }

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
        try readGroundTruth(columns: "id, published_at, kind, width, height", after: cursor, feed: feed, limit: limit) {
            Item(
                id: $0.int64(at: 0), publishedAt: $0.int64(at: 1), kind: $0.text(at: 2), width: $0.double(at: 3),
                height: $0.double(at: 4))
        }
    }

    /// The cursors of ``groundTruth(after:feed:limit:)``'s items, read from the feed-order index
    /// alone (a covering index: no row of the table is read). A load session's gap check reads
    /// one span per page: its full rows were 7 % of `feedsim load`'s instructions (callgrind,
    /// 16 grid sessions on 100 000 items), the covering read a third of that.
    /// - Complexity: O(log N + limit).
    public func groundTruthCursors(after cursor: Cursor, feed: FeedID, limit: Int) throws -> [Cursor] {
        try readGroundTruth(columns: "published_at, id", after: cursor, feed: feed, limit: limit) {
            Cursor(publishedAt: $0.int64(at: 0), id: $0.int64(at: 1))
        }
    }

    /// The ground-truth statement with `columns` (one of the two constant lists above, never
    /// input), bound and stepped, each row read by `row`.
    private func readGroundTruth<T>(
        columns: StaticString, after cursor: Cursor, feed: FeedID, limit: Int, row: (Statement) -> T
    ) throws -> [T] {
        guard limit > 0 else { return [] }
        let statement = try connection.cachedStatement(
            """
            SELECT \(columns) FROM items
            WHERE feed_id = ?1 AND (published_at < ?2 OR (published_at = ?2 AND id < ?3))
            ORDER BY published_at DESC, id DESC LIMIT ?4
            """)
        return try connection.serialized {
            defer { statement.reset() }
            statement.bind(feed.rawValue, at: 1)
            statement.bind(cursor.publishedAt, at: 2)
            statement.bind(cursor.id, at: 3)
            statement.bind(limit, at: 4)
            var rows: [T] = []  // no reserve: a walk's check may ask for every item after the cursor
            while try statement.step() { rows.append(row(statement)) }
            return rows
        }
    }
}

extension FeedPageSource: OffsetPageSource, LockWaitCounting {
    /// See ``ItemStore/offsetPage(feed:offset:limit:)``.
    public func offsetPage(offset: Int, limit: Int) throws -> Page {
        try store.offsetPage(feed: feed, offset: offset, limit: limit)
    }

    /// Busy-handler waits of the store's connection (0 unless it was opened counting them, as
    /// ``SQLiteConnector/connectWriter()`` does).
    public var lockWaits: Int { store.connection.busyWaits }

    /// See ``ItemStore/read(_:)``: one read transaction.
    public func read<T>(_ body: () throws -> T) throws -> T {
        try store.read(body)
    }
}
