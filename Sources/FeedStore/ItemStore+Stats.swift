import FeedModel

extension ItemStore {
    /// Counts per feed and kind, and each feed's time range.
    /// - Complexity: O(N): one grouped scan of the feed-order index.
    public func stats() throws -> StoreStats {
        let statement = try connection.cachedStatement(
            """
            SELECT f.name, i.kind, count(i.id), min(i.published_at), max(i.published_at)
            FROM feeds f LEFT JOIN items i ON i.feed_id = f.id
            GROUP BY f.id, i.kind ORDER BY f.name, i.kind
            """)
        defer { statement.reset() }
        var feeds: [StoreStats.FeedSummary] = []
        while try statement.step() {
            let name = statement.text(at: 0)
            if feeds.last?.name != name {
                feeds.append(.init(name: name, items: 0, oldestPublishedAt: nil, newestPublishedAt: nil, kinds: []))
            }
            let count = Int(statement.int64(at: 2))
            guard count > 0 else { continue }  // a feed with no items: one row with a NULL kind
            let oldest = statement.int64(at: 3)
            let newest = statement.int64(at: 4)
            var summary = feeds.removeLast()
            summary.items += count
            summary.kinds.append(.init(kind: statement.text(at: 1), items: count))
            summary.oldestPublishedAt = min(summary.oldestPublishedAt ?? oldest, oldest)
            summary.newestPublishedAt = max(summary.newestPublishedAt ?? newest, newest)
            feeds.append(summary)
        }
        return StoreStats(schemaVersion: schemaVersion, feeds: feeds)
    }
}
