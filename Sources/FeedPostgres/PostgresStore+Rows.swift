import FeedModel

extension PostgresStore {
    /// Full rows (title, author, payload) for `ids`, of any feed, in one round trip:
    /// `WHERE id = ANY($1)` with the ids bound as one `bigint[]`.
    ///
    /// - Returns: one row per requested id that exists, in the requested order (an id asked for
    ///   twice appears twice), and the ids that do not exist in `missing`, in the requested order.
    /// - Complexity: O(k log N) for k ids, one statement.
    public func rows(ids: [Int64]) throws -> RowBatch {
        guard !ids.isEmpty else { return RowBatch(rows: [], missing: []) }
        var parameters = PostgresParameters()
        parameters.append(ids)
        let result = try connection.execute(
            prepared: "feedsim_rows",
            sql: "SELECT id, title, author, payload FROM items WHERE id = ANY($1::BIGINT[])", parameters)
        var found: [Int64: ItemRow] = [:]
        found.reserveCapacity(result.rowCount)
        for row in 0..<result.rowCount {
            let id = result.int64(row, 0)
            found[id] = ItemRow(id: id, title: result.text(row, 1), author: result.text(row, 2), payload: result.text(row, 3))
        }
        var rows: [ItemRow] = []
        rows.reserveCapacity(ids.count)
        var missing: [Int64] = []
        for id in ids {
            if let row = found[id] { rows.append(row) } else { missing.append(id) }
        }
        return RowBatch(rows: rows, missing: missing)
    }
}
