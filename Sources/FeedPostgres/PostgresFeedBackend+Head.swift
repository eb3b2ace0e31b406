import FeedModel

extension PostgresFeedBackend {
    /// Reads the newest `published_at` and inserts what `makeItems` returns, in one transaction
    /// holding a row lock on the feed (`SELECT … FOR UPDATE`), so writers at the head take turns:
    /// no other writer's item lands above these between the read and the insert, and the ids the
    /// sequence hands out are committed in increasing order. The load tester's consistency check
    /// relies on the latter: an item with a smaller id than a session's first read was committed
    /// before it (a sequence alone gives no such order: two transactions may commit in either
    /// order). CockroachDB, YugabyteDB and Citus accept `FOR UPDATE` as well.
    /// - Returns: the ids written, in order.
    /// - Throws: ``PostgresError``; ``PostgresStoreError/duplicateID(_:)``. Nothing is written then.
    @discardableResult
    public func insertAtHead(_ makeItems: (_ newestPublishedAt: Int64?) -> [NewItem]) throws -> [Int64] {
        try store.connection.transaction {
            var parameters = PostgresParameters()
            parameters.append(feed)
            _ = try store.connection.execute(
                prepared: "feedsim_lock_feed", sql: "SELECT id FROM feeds WHERE id = $1 FOR UPDATE", parameters)
            let newest = try store.newest(feed: feed, limit: 1).items.first?.publishedAt
            return try store.insert(items: makeItems(newest), feed: feed)
        }
    }
}
