import FeedModel

extension PostgresStore {
    static let insertWithIDSQL = """
        INSERT INTO items (id, feed_id, published_at, kind, width, height, title, author, payload)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
        """
    static let insertSQL = """
        INSERT INTO items (feed_id, published_at, kind, width, height, title, author, payload)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id
        """
    /// After rows with explicit ids: the id sequence continues above the largest id, as SQLite's
    /// rowid does (`max(rowid) + 1`), so later inserts without an id never collide.
    static let advanceSequenceSQL = """
        SELECT setval(pg_get_serial_sequence('items', 'id'), GREATEST((SELECT max(id) FROM items), 1))
        """

    /// Inserts `items` into `feed` in one transaction: all or nothing.
    /// - Returns: the id of each item, in order (from the `items.id` sequence where `id` was `nil`).
    /// - Throws: ``PostgresStoreError/duplicateID(_:)`` when an id exists already;
    ///   ``PostgresStoreError/missingFeed(id:)`` when `feed` does not exist (checked before COMMIT under a
    ///   key-share lock, as a foreign key would); ``PostgresError`` for a failed CHECK (negative size,
    ///   empty kind). Nothing is written then.
    /// - Complexity: one round trip per item, O(log N) each.
    @discardableResult
    public func insert(items: [NewItem], feed: Int64) throws -> [Int64] {
        try connection.transaction { try insertWithoutTransaction(items, feed: feed) }
    }

    /// Creates the feed `name` when missing and inserts `items` into it, in one transaction.
    /// - Returns: the feed and the id of each item, in order. - Throws: as ``insert(items:feed:)``.
    @discardableResult
    public func insert(items: [NewItem], feedNamed name: String) throws -> (feed: Int64, ids: [Int64]) {
        try connection.transaction {
            let feed = try createFeed(named: name)
            return (feed, try insertWithoutTransaction(items, feed: feed))
        }
    }

    private func insertWithoutTransaction(_ items: [NewItem], feed: Int64) throws -> [Int64] {
        var ids: [Int64] = []
        ids.reserveCapacity(items.count)
        var explicit = false
        for item in items {
            var parameters = PostgresParameters()
            if let id = item.id { parameters.append(id) }
            parameters.append(feed)
            parameters.append(item.publishedAt)
            parameters.append(item.kind)
            parameters.append(item.width)
            parameters.append(item.height)
            parameters.append(item.title)
            parameters.append(item.author)
            parameters.append(item.payload)
            if let id = item.id {
                do {
                    try connection.execute(prepared: "feedsim_insert_id", sql: Self.insertWithIDSQL, parameters)
                } catch let error as PostgresError where error.isUniqueViolation {
                    throw PostgresStoreError.duplicateID(id)
                }
                ids.append(id)
                explicit = true
            } else {
                let result = try connection.execute(prepared: "feedsim_insert", sql: Self.insertSQL, parameters)
                let id = result.int64(0, 0)
                // As the SQLite store: never an id past 2^53 − 1 (the transaction rolls back).
                guard NewItem.idRange.contains(id) else { throw PostgresStoreError.idsExhausted(next: id) }
                ids.append(id)
            }
        }
        if explicit {
            try connection.execute(prepared: "feedsim_advance_sequence", sql: Self.advanceSequenceSQL, .init())
        }
        try keepFeed(feed)
        return ids
    }

    /// Replaces the title, author and payload of the rows with these ids, in one transaction.
    /// Ids that do not exist are ignored; stubs (and so the feed order) are unchanged.
    /// - Returns: how many rows were updated.
    /// - Throws: ``PostgresError``; nothing is written then.
    @discardableResult
    public func update(rows: [ItemRow]) throws -> Int {
        try connection.transaction {
            var updated = 0
            for row in rows {
                var parameters = PostgresParameters()
                parameters.append(row.title)
                parameters.append(row.author)
                parameters.append(row.payload)
                parameters.append(row.id)
                updated += try connection.execute(
                    prepared: "feedsim_update",
                    sql: "UPDATE items SET title = $1, author = $2, payload = $3 WHERE id = $4", parameters
                ).affectedRows
            }
            return updated
        }
    }

    /// Deletes the items with these ids (any feed; ids that do not exist are ignored), in one
    /// statement (`id = ANY($1)`), so in one transaction.
    /// - Returns: how many items were deleted.
    @discardableResult
    public func delete(ids: [Int64]) throws -> Int {
        guard !ids.isEmpty else { return 0 }
        var parameters = PostgresParameters()
        parameters.append(ids)
        return try connection.execute(
            prepared: "feedsim_delete", sql: "DELETE FROM items WHERE id = ANY($1::BIGINT[])", parameters
        ).affectedRows
    }

    /// Up to `limit` items of `feed` strictly older than `cursor`, in feed order, for the
    /// consistency oracle. Independent of the paging code: its own statement, with the expanded
    /// comparison `published_at < $2 OR (published_at = $2 AND id < $3)` instead of the pages' row value.
    public func groundTruth(after cursor: Cursor, feed: Int64, limit: Int) throws -> [Item] {
        guard
            let result = try readGroundTruth(
                prepared: "feedsim_ground_truth", columns: "id, published_at, kind, width, height", after: cursor,
                feed: feed, limit: limit)
        else { return [] }
        return (0..<result.rowCount).map { Self.stub(result, row: $0) }
    }

    /// The cursors of ``groundTruth(after:feed:limit:)``'s items, read from the feed-order index
    /// (an index-only scan where the visibility map allows; no row's text is sent).
    public func groundTruthCursors(after cursor: Cursor, feed: Int64, limit: Int) throws -> [Cursor] {
        guard
            let result = try readGroundTruth(
                prepared: "feedsim_ground_truth_cursors", columns: "published_at, id", after: cursor, feed: feed,
                limit: limit)
        else { return [] }
        return (0..<result.rowCount).map { Cursor(publishedAt: result.int64($0, 0), id: result.int64($0, 1)) }
    }

    /// The ground-truth statement with `columns` (one of the two constant lists above, never
    /// input), prepared as `prepared` and run; `nil` for a `limit` of 0.
    private func readGroundTruth(
        prepared: String, columns: StaticString, after cursor: Cursor, feed: Int64, limit: Int
    ) throws -> PostgresResult? {
        guard limit > 0 else { return nil }
        var parameters = PostgresParameters()
        parameters.append(feed)
        parameters.append(cursor.publishedAt)
        parameters.append(cursor.id)
        parameters.append(limit)
        return try connection.execute(
            prepared: prepared,
            sql: """
                SELECT \(columns) FROM items
                WHERE feed_id = $1 AND (published_at < $2 OR (published_at = $2 AND id < $3))
                ORDER BY published_at DESC, id DESC LIMIT $4
                """, parameters)
    }

    static func stub(_ result: PostgresResult, row: Int) -> Item {
        Item(
            id: result.int64(row, 0), publishedAt: result.int64(row, 1), kind: result.text(row, 2),
            width: result.double(row, 3), height: result.double(row, 4))
    }
}
