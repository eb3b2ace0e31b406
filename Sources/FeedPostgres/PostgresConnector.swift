import FeedModel

/// Opens connections to one feed of a PostgreSQL database, one per thread: what the load tester
/// needs to run sessions and writers on threads of their own, each with its own connection, and a
/// ground-truth reader per session (``PostgresGroundTruthReader``).
public struct PostgresConnector: FeedBackendConnector {
    public let conninfo: String
    /// libpq settings added to every connection (`options` with a `search_path`, …).
    public let settings: [(String, String)]
    public let migrator: PostgresMigrator
    public let feedName: String

    public init(conninfo: String, settings: [(String, String)] = [], migrator: PostgresMigrator, feed: String) {
        self.conninfo = conninfo
        self.settings = settings
        self.migrator = migrator
        self.feedName = feed
    }

    public var backendName: String { "postgresql" }

    /// A new connection bound to the feed.
    /// - Throws: ``PostgresStoreError`` (cannot connect, unknown feed, …), ``PostgresError``.
    public func connect() throws -> any FeedBackend {
        let store = try PostgresStore(conninfo: conninfo, settings: settings, migrator: migrator)
        return store.backend(feed: try store.requireFeed(named: feedName))
    }

    /// A new ground-truth reader on a connection of its own.
    /// - Parameter reuseUnchangedSpans: ignored: PostgreSQL has no cheap "nothing was written
    ///   since" signal like SQLite's `PRAGMA data_version`, so every span is read.
    public func groundTruthReader(reuseUnchangedSpans: Bool) throws -> any GroundTruthReader {
        let store = try PostgresStore(conninfo: conninfo, settings: settings, migrator: migrator)
        return PostgresGroundTruthReader(store: store, feed: try store.requireFeed(named: feedName))
    }
}

/// The ground truth of one feed for the load tester's consistency checks, read independently of
/// the paging statements (its own SQL, with the expanded comparison). One thread at a time.
public final class PostgresGroundTruthReader: GroundTruthReader {
    let store: PostgresStore
    let feed: Int64
    public private(set) var spansRead = 0
    public var spansReused: Int { 0 }

    init(store: PostgresStore, feed: Int64) {
        self.store = store
        self.feed = feed
    }

    /// The largest item id in the database now (0 when empty).
    public func maxID() throws -> Int64 {
        try store.connection.execute(
            prepared: "feedsim_truth_max_id", sql: "SELECT COALESCE(max(id), 0) FROM items", PostgresParameters()
        ).int64(0, 0)
    }

    /// The ids of the feed's items from `newest` down to `oldest` in feed order, both included,
    /// in one statement (one snapshot); empty when `newest` comes after `oldest`.
    public func spanIDs(newest: Cursor, oldest: Cursor, expected: Int) throws -> [Int64] {
        spansRead += 1
        guard !(oldest < newest) else { return [] }
        var parameters = PostgresParameters()
        parameters.append(feed)
        parameters.append(newest.publishedAt)
        parameters.append(newest.id)
        parameters.append(oldest.publishedAt)
        parameters.append(oldest.id)
        let result = try store.connection.execute(
            prepared: "feedsim_truth_span",
            sql: """
                SELECT id FROM items
                WHERE feed_id = $1
                  AND (published_at < $2 OR (published_at = $2 AND id <= $3))
                  AND (published_at > $4 OR (published_at = $4 AND id >= $5))
                ORDER BY published_at DESC, id DESC
                """, parameters)
        var ids: [Int64] = []
        ids.reserveCapacity(max(expected, result.rowCount))
        for row in 0..<result.rowCount { ids.append(result.int64(row, 0)) }
        return ids
    }
}

extension PostgresFeedBackend {
    /// Runs `body` (pages, probes and row fetches) in one `REPEATABLE READ READ ONLY` transaction:
    /// one snapshot, so no row of a page can go missing between the page and its rows
    /// (<https://www.postgresql.org/docs/current/transaction-iso.html#XACT-REPEATABLE-READ>).
    /// Inside another transaction (a replay's discarded writes) it just runs `body`.
    /// - Throws: what `body` throws; ``PostgresError`` from BEGIN / COMMIT.
    public func read<T>(_ body: () throws -> T) throws -> T {
        try store.connection.transaction("ISOLATION LEVEL REPEATABLE READ READ ONLY", body)
    }
}
