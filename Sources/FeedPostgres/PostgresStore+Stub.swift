import FeedModel

extension PostgresStore {
    /// The stub of item `id` in any feed, or `nil` when no item has that id (for `serve`'s
    /// placeholder images), as ``FeedStore/ItemStore/stub(id:)``.
    /// - Complexity: O(log N): one primary-key seek.
    /// - Throws: ``PostgresError``.
    public func stub(id: Int64) throws -> Item? {
        var parameters = PostgresParameters()
        parameters.append(id)
        let result = try connection.execute(
            prepared: "feedsim_stub_by_id", sql: "SELECT id, published_at, kind, width, height FROM items WHERE id = $1",
            parameters)
        return result.rowCount > 0 ? Self.stub(result, row: 0) : nil
    }
}
