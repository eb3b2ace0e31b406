import FeedModel

extension PostgresStore {
    /// Counts per feed and kind, and each feed's time range (the same shape as SQLite's).
    /// ``FeedModel/StoreStats/orphanItems`` counts items whose feed is missing (none unless the
    /// database was changed by other means than FeedSim: docs/postgres.md).
    /// - Complexity: O(N): one grouped scan, and one anti-join for the orphans.
    public func stats() throws -> StoreStats {
        let result = try connection.execute(
            prepared: "feedsim_stats",
            sql: """
                SELECT f.name, i.kind, count(i.id), min(i.published_at), max(i.published_at)
                FROM feeds f LEFT JOIN items i ON i.feed_id = f.id
                GROUP BY f.id, f.name, i.kind
                """, PostgresParameters())
        // Sorted here, by bytes, so the order does not depend on the database's collation.
        let rows = (0..<result.rowCount).map { row in
            (
                name: result.text(row, 0), kind: result.isNull(row, 1) ? nil : result.text(row, 1),
                count: Int(result.int64(row, 2)), oldest: result.int64(row, 3), newest: result.int64(row, 4)
            )
        }.sorted { lhs, rhs in
            if lhs.name != rhs.name { return Array(lhs.name.utf8).lexicographicallyPrecedes(Array(rhs.name.utf8)) }
            return Array((lhs.kind ?? "").utf8).lexicographicallyPrecedes(Array((rhs.kind ?? "").utf8))
        }
        var feeds: [StoreStats.FeedSummary] = []
        for row in rows {
            if feeds.last?.name != row.name {
                feeds.append(.init(name: row.name, items: 0, oldestPublishedAt: nil, newestPublishedAt: nil, kinds: []))
            }
            guard row.count > 0, let kind = row.kind else { continue }  // a feed with no items
            var summary = feeds.removeLast()
            summary.items += row.count
            summary.kinds.append(.init(kind: kind, items: row.count))
            summary.oldestPublishedAt = min(summary.oldestPublishedAt ?? row.oldest, row.oldest)
            summary.newestPublishedAt = max(summary.newestPublishedAt ?? row.newest, row.newest)
            feeds.append(summary)
        }
        let orphans = try connection.execute(
            prepared: "feedsim_orphans",
            sql: "SELECT count(*) FROM items i WHERE NOT EXISTS (SELECT 1 FROM feeds f WHERE f.id = i.feed_id)",
            PostgresParameters())
        return StoreStats(schemaVersion: schemaVersion, feeds: feeds, orphanItems: Int(orphans.int64(0, 0)))
    }
}
