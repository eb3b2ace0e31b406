import FeedModel

/// SQLite's ``FeedModel/GroundTruthReader``: reads a feed's ground truth for the load tester's
/// consistency checks with plain SQL on a connection of its own (multi-thread mode: one thread at a
/// time uses it), independent of the paging code under test.
public final class SQLiteGroundTruth: GroundTruthReader {
    private let connection: Connection
    private let maxIDStatement: Statement
    private let spanStatement: Statement
    private let spanTiesStatement: Statement
    private let spanBetweenStatement: Statement
    private let beginStatement: Statement
    private let commitStatement: Statement
    private let dataVersionStatement: Statement
    /// The last span read, with the data version it was read at (see ``spanIDs(newest:oldest:expected:)``).
    private var lastSpan: (dataVersion: Int64, newest: Cursor, oldest: Cursor, ids: [Int64])?
    /// Spans read from the index since this connection opened.
    public private(set) var spansRead = 0
    /// Spans answered from ``lastSpan`` instead, nothing having been committed since it was read.
    public private(set) var spansReused = 0
    public let feed: FeedID
    /// Whether ``spanIDs(newest:oldest:expected:)`` may answer from ``lastSpan``.
    public let reusesUnchangedSpans: Bool

    /// Opens its own connection to the database at `path`.
    /// - Throws: ``StoreError`` or ``SQLiteError`` when the file cannot be opened as a FeedSim store.
    public init(path: String, feed: FeedID, reuseUnchangedSpans: Bool = true) throws {
        connection = try ItemStore(path: path, readOnly: false, options: .loadTester).connection
        self.feed = feed
        self.reusesUnchangedSpans = reuseUnchangedSpans
        maxIDStatement = try connection.prepare("SELECT coalesce(max(id), 0) FROM items")
        // Every item of the feed from `newest` down to `oldest` in feed order, both included.
        spanStatement = try connection.prepare(
            """
            SELECT id, published_at, kind, width, height FROM items
            WHERE feed_id = ?1 AND (published_at, id) <= (?2, ?3) AND (published_at, id) >= (?4, ?5)
            """)
        // The ids of a span, in feed order, in three plain ranges of the index `items_feed_order
        // (feed_id, published_at DESC, id DESC)`, each a covering scan in index order (no table
        // lookups, no sort): the items published at `newest`'s time from its id down, the items
        // published strictly between the two times, the items published at `oldest`'s time down to
        // its id. Plain ranges cost SQLite half as much per row as the row-value comparisons of
        // `spanStatement` (measured: 25 against 51 µs per 1000 rows).
        spanTiesStatement = try connection.prepare(
            """
            SELECT id FROM items WHERE feed_id = ?1 AND published_at = ?2 AND id <= ?3 AND id >= ?4
            ORDER BY id DESC
            """)
        spanBetweenStatement = try connection.prepare(
            """
            SELECT id FROM items WHERE feed_id = ?1 AND published_at < ?2 AND published_at > ?3
            ORDER BY published_at DESC, id DESC
            """)
        beginStatement = try connection.prepare("BEGIN")
        commitStatement = try connection.prepare("COMMIT")
        dataVersionStatement = try connection.prepare("PRAGMA data_version")
    }

    /// The largest item id in the store now: with insert-only writers and SQLite-assigned rowids
    /// (`max(rowid) + 1`, <https://sqlite.org/autoinc.html>), exactly the items with a larger id
    /// are inserted later.
    public func maxID() throws -> Int64 {
        defer { maxIDStatement.reset() }
        return try maxIDStatement.step() ? maxIDStatement.int64(at: 0) : 0
    }

    /// The feed's items now between `newest` and `oldest` in feed order, both included, any order.
    public func span(newest: Cursor, oldest: Cursor) throws -> [Item] {
        defer { spanStatement.reset() }
        spanStatement.bind(feed.rawValue, at: 1)
        spanStatement.bind(newest.publishedAt, at: 2)
        spanStatement.bind(newest.id, at: 3)
        spanStatement.bind(oldest.publishedAt, at: 4)
        spanStatement.bind(oldest.id, at: 5)
        var items: [Item] = []
        while try spanStatement.step() {
            items.append(
                Item(
                    id: spanStatement.int64(at: 0), publishedAt: spanStatement.int64(at: 1),
                    kind: spanStatement.text(at: 2), width: spanStatement.double(at: 3),
                    height: spanStatement.double(at: 4)))
        }
        return items
    }

    /// The ids of ``span(newest:oldest:)``'s items, in feed order: what the sessions' consistency
    /// check needs, read from the index alone, in one read transaction (one snapshot).
    ///
    /// Sessions that walk from the top of an unchanged feed check the same span again and again.
    /// So the last span's ids are kept with the connection's data version
    /// (`PRAGMA data_version`, <https://sqlite.org/pragma.html#pragma_data_version>: it changes
    /// whenever another connection commits, and this one never writes): when the same span is asked
    /// for and the version read in this transaction is the same, nothing in the database changed
    /// since, and the kept ids are the answer the index would give. Any commit in between (a writer's
    /// insert, a deletion, an update, by this process or another) makes the next check read the
    /// index again; a rolled-back write does not.
    /// - Parameter expected: how many ids to reserve room for (the walk's length is a good guess).
    /// - Complexity: O(log N + k) for k items in the span, no row reads; O(1) reads when reused.
    public func spanIDs(newest: Cursor, oldest: Cursor, expected: Int = 0) throws -> [Int64] {
        guard newest <= oldest else { return [] }
        try run(beginStatement)
        do {
            guard try dataVersionStatement.step() else {
                dataVersionStatement.rewind()
                throw SQLiteError(
                    code: .error, extendedCode: .error, message: "PRAGMA data_version returned no row",
                    sql: "PRAGMA data_version", path: connection.path)
            }
            let dataVersion = dataVersionStatement.int64(at: 0)
            dataVersionStatement.rewind()
            if reusesUnchangedSpans, let last = lastSpan, last.dataVersion == dataVersion, last.newest == newest,
                last.oldest == oldest
            {
                try run(commitStatement)
                spansReused += 1
                return last.ids
            }
            var ids: [Int64] = []
            ids.reserveCapacity(expected)
            if newest.publishedAt == oldest.publishedAt {
                try readTies(at: newest.publishedAt, from: newest.id, downTo: oldest.id, into: &ids)
            } else {
                try readTies(at: newest.publishedAt, from: newest.id, downTo: .min, into: &ids)
                defer { spanBetweenStatement.rewind() }
                spanBetweenStatement.bind(feed.rawValue, at: 1)
                spanBetweenStatement.bind(newest.publishedAt, at: 2)
                spanBetweenStatement.bind(oldest.publishedAt, at: 3)
                while try spanBetweenStatement.step() { ids.append(spanBetweenStatement.int64(at: 0)) }
                try readTies(at: oldest.publishedAt, from: .max, downTo: oldest.id, into: &ids)
            }
            try run(commitStatement)
            spansRead += 1
            lastSpan = (dataVersion, newest, oldest, ids)
            return ids
        } catch {
            lastSpan = nil
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// Appends the ids of the items published at `publishedAt` with ids from `high` down to `low`.
    private func readTies(at publishedAt: Int64, from high: Int64, downTo low: Int64, into ids: inout [Int64]) throws {
        defer { spanTiesStatement.rewind() }
        spanTiesStatement.bind(feed.rawValue, at: 1)
        spanTiesStatement.bind(publishedAt, at: 2)
        spanTiesStatement.bind(high, at: 3)
        spanTiesStatement.bind(low, at: 4)
        while try spanTiesStatement.step() { ids.append(spanTiesStatement.int64(at: 0)) }
    }

    private func run(_ statement: Statement) throws {
        defer { statement.rewind() }
        while try statement.step() {}
    }
}
