import FeedModel

extension ItemStore {
    /// Largest number of ids bound in one statement; longer requests are split into chunks.
    static let rowsChunk = 500

    /// Full rows (title, author, payload) for `ids`, of any feed, fetched in one statement per
    /// batch (`WHERE id IN (?, ?, ...)`; statements are cached per batch size).
    ///
    /// - Returns: one row per requested id that exists, in the requested order (an id asked for
    ///   twice appears twice), and the ids that do not exist in `missing`, in the requested order.
    /// - Complexity: O(k log N) for k ids.
    public func rows(ids: [Int64]) throws -> RowBatch {
        // Rows as SQLite returns them (for `id IN (…)` on the rowid: ascending id, each id once),
        // then matched to the request by binary search: no hash table per fetch.
        var found: [ItemRow] = []
        found.reserveCapacity(ids.count)
        var start = 0
        while start < ids.count {
            let chunk = ids[start..<min(ids.count, start + Self.rowsChunk)]
            let statement = try rowsStatement(count: chunk.count)
            try connection.serialized {
                defer { statement.rewind() }
                for (offset, id) in chunk.enumerated() {
                    statement.bind(id, at: Int32(offset + 1))
                }
                while try statement.step() {
                    found.append(
                        ItemRow(
                            id: statement.int64(at: 0), title: statement.text(at: 1), author: statement.text(at: 2),
                            payload: statement.text(at: 3)))
                }
            }
            start += chunk.count
        }
        if !found.isSortedByID { found.sort { $0.id < $1.id } }
        // Every id found once, asked for in ascending or descending order (a page's items usually
        // are: feed order is newest first): the answer is `found` itself, or reversed in place.
        if found.count == ids.count {
            if ids.equalsIDs(of: found, reversed: false) {
                return RowBatch(rows: found, missing: [])
            }
            if ids.equalsIDs(of: found, reversed: true) {
                found.withUnsafeMutableBufferPointer { $0.reverse() }  // moves, no retain and release per row
                return RowBatch(rows: found, missing: [])
            }
        }
        var rows: [ItemRow] = []
        rows.reserveCapacity(ids.count)
        var missing: [Int64] = []
        for id in ids {
            if let index = found.index(ofID: id) { rows.append(found[index]) } else { missing.append(id) }
        }
        return RowBatch(rows: rows, missing: missing)
    }

    /// The rows statement for `count` ids, prepared at its first use on this connection. Every use
    /// binds all its parameters and rewinds it when done (``Statement/rewind()``), so it is ready here.
    private func rowsStatement(count: Int) throws -> Statement {
        if count < rowStatements.count, let statement = rowStatements[count] { return statement }
        let statement = try connection.prepare(Self.rowsSQL(count: count))
        if rowStatements.count <= count {
            rowStatements += repeatElement(nil, count: count + 1 - rowStatements.count)
        }
        rowStatements[count] = statement
        return statement
    }

    package static func rowsSQL(count: Int) -> String {
        let marks = Array(repeating: "?", count: count).joined(separator: ", ")
        return "SELECT id, title, author, payload FROM items WHERE id IN (\(marks))"
    }
}

extension [Int64] {
    /// Whether these ids are exactly `rows`' ids (sorted ascending), in ascending order, or in
    /// descending order when `reversed`. - Precondition: `count == rows.count`.
    fileprivate func equalsIDs(of rows: [ItemRow], reversed: Bool) -> Bool {
        let last = count - 1
        for index in indices where self[index] != rows[reversed ? last - index : index].id { return false }
        return true
    }
}

extension [ItemRow] {
    fileprivate var isSortedByID: Bool {
        indices.dropFirst().allSatisfy { self[$0 - 1].id <= self[$0].id }
    }

    /// The index of a row with `id` in rows sorted by id, or `nil`. - Complexity: O(log n).
    fileprivate func index(ofID id: Int64) -> Int? {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle].id < id { low = middle + 1 } else { high = middle }
        }
        return low < count && self[low].id == id ? low : nil
    }
}
