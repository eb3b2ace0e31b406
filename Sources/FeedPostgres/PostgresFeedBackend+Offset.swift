import FeedModel

extension PostgresFeedBackend: OffsetPageSource {
    /// Up to `limit` items from position `offset` (0 = the newest) in feed order, and whether more
    /// follow (the `limit + 1` probe): the `--pagination offset` baseline, which repeats and skips
    /// items when rows are inserted or deleted above the page, as on SQLite. The limit is in the
    /// statement's text (one prepared statement per page size, as the keyset pages), the offset a
    /// bound parameter.
    /// - Precondition: `offset` ≥ 0, `limit` ≥ 1.
    /// - Complexity: O(log N + offset + limit): the index is walked past `offset` rows.
    /// - Throws: ``PostgresError``.
    public func offsetPage(offset: Int, limit: Int) throws -> Page {
        precondition(limit >= 1 && offset >= 0, "offset must be ≥ 0 and limit ≥ 1")
        var parameters = PostgresParameters()
        parameters.append(feed)
        parameters.append(Int64(offset))
        let result = try store.connection.execute(
            prepared: "feedsim_page_offset_" + String(limit + 1),
            sql: """
                SELECT id, published_at, kind, width, height FROM items WHERE feed_id = $1
                ORDER BY published_at DESC, id DESC LIMIT \(limit + 1) OFFSET $2
                """, parameters)
        var items = (0..<result.rowCount).map { PostgresStore.stub(result, row: $0) }
        let more = items.count > limit
        if more { items.removeLast() }
        return Page(items: items, hasMoreBefore: offset > 0, hasMoreAfter: more)
    }
}
