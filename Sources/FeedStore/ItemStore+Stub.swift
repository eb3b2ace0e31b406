import FeedModel

extension ItemStore {
    /// The stub of item `id` in any feed, or `nil` when no item has that id (for `serve`'s
    /// placeholder images).
    /// - Complexity: O(log N): one rowid seek.
    public func stub(id: Int64) throws -> Item? {
        let statement = try connection.cachedStatement("SELECT \(Self.stubColumns) FROM items WHERE id = ?1")
        return try connection.serialized {
            defer { statement.reset() }
            statement.bind(id, at: 1)
            guard try statement.step() else { return nil }
            return Item(
                id: statement.int64(at: 0), publishedAt: statement.int64(at: 1), kind: statement.text(at: 2),
                width: statement.double(at: 3), height: statement.double(at: 4))
        }
    }
}
