import FeedModel
import Foundation

/// The PostgreSQL item store: feeds, items, keyset pages, rows by id, writes, COPY seeding and
/// import — the same semantics as the SQLite `ItemStore`, over libpq.
///
/// One `PostgresStore` owns one connection and belongs to one thread at a time; open one per
/// thread on the same database for concurrent readers and writers. The schema
/// (`Schema/postgres/`) is migrated on open in the connection's current schema.
///
/// ```swift
/// let store = try PostgresStore(conninfo: "postgresql://localhost/feeds", migrator: migrator)
/// let feed = try store.createFeed(named: "home")
/// let first = try store.backend(feed: feed).newest(limit: 50)
/// ```
public final class PostgresStore {
    package let connection: PostgresConnection
    /// The schema version (`feedsim_schema`) after migrations.
    public let schemaVersion: Int
    /// `host:port/dbname` (never the password), for messages and reports.
    public var database: String { connection.database }
    /// The server's `server_version_num` (e.g. 150018).
    public var serverVersion: Int { connection.serverVersion }

    /// Connects and migrates the current schema to the newest version.
    /// - Parameters:
    ///   - conninfo: a libpq connection string: `postgresql://` / `postgres://` URI or `key=value`
    ///     pairs; `PG*` environment variables fill what it leaves out.
    ///   - settings: more libpq keywords that override the string's (e.g. `("options", "-c search_path=s1")`).
    ///   - migrator: the migrations of `Schema/postgres/`.
    /// - Throws: ``PostgresStoreError`` (cannot connect, unsupported server, foreign database,
    ///   newer schema) or ``PostgresError``.
    public init(conninfo: String, settings: [(String, String)] = [], migrator: PostgresMigrator) throws {
        connection = try PostgresConnection(conninfo, settings: settings)
        schemaVersion = try migrator.migrate(connection)
    }

    /// `conninfo` with its password replaced by `***`, for every message, hint and report that
    /// echoes a `--db` value: `postgresql://feeds:***@host/db`, `?password=***`, `password=***`.
    ///
    /// Works on the text itself, not on a parsed URL, so a URI that does not parse (a port that is
    /// not a number, an unclosed `[` of an IPv6 address) is masked as well: the user information
    /// is what lies between `://` and the last `@` before the query, and its password what follows
    /// its first `:` (RFC 3986 §3.2.1; libpq's URI form,
    /// <https://www.postgresql.org/docs/current/libpq-connect.html#LIBPQ-CONNSTRING-URIS>).
    public static func redacted(_ conninfo: String) -> String {
        guard isConnectionURI(conninfo), let schemeEnd = conninfo.range(of: "://") else {
            // key=value pairs: `password=…` (quoted values with spaces are masked up to their end).
            return maskKeyword(in: conninfo)
        }
        var text = conninfo
        let queryStart = text[schemeEnd.upperBound...].firstIndex(of: "?") ?? text.endIndex
        if let at = text[schemeEnd.upperBound..<queryStart].lastIndex(of: "@"),
            let colon = text[schemeEnd.upperBound..<at].firstIndex(of: ":")
        {
            text.replaceSubrange(text.index(after: colon)..<at, with: "***")
        }
        guard let query = text.firstIndex(of: "?") else { return text }
        let parameters = text[text.index(after: query)...].split(separator: "&", omittingEmptySubsequences: false).map {
            $0.hasPrefix("password=") ? "password=***" : String($0)
        }
        return String(text[...query]) + parameters.joined(separator: "&")
    }

    /// `message` with every copy of `conninfo` (as given, or just its password) masked as by
    /// ``redacted(_:)``: libpq's own messages quote a URI they cannot parse.
    public static func redactingPasswords(_ message: String, of conninfo: String) -> String {
        let masked = redacted(conninfo)
        guard masked != conninfo else { return message }
        var text = message.replacingOccurrences(of: conninfo, with: masked)
        // A password quoted alone (`invalid … "secret"`), however unlikely, goes too.
        for password in passwords(in: conninfo) where password.count >= 3 {
            text = text.replacingOccurrences(of: password, with: "***")
        }
        return text
    }

    /// The passwords `conninfo` holds (the URI's user information, `password=` values).
    private static func passwords(in conninfo: String) -> [String] {
        var found: [String] = []
        if isConnectionURI(conninfo), let schemeEnd = conninfo.range(of: "://") {
            let queryStart = conninfo[schemeEnd.upperBound...].firstIndex(of: "?") ?? conninfo.endIndex
            if let at = conninfo[schemeEnd.upperBound..<queryStart].lastIndex(of: "@"),
                let colon = conninfo[schemeEnd.upperBound..<at].firstIndex(of: ":")
            {
                found.append(String(conninfo[conninfo.index(after: colon)..<at]))
            }
        }
        for part in conninfo.split(whereSeparator: { $0 == " " || $0 == "&" || $0 == "?" }) where part.hasPrefix("password=") {
            found.append(String(part.dropFirst("password=".count)))
        }
        return found.filter { !$0.isEmpty && $0 != "***" }
    }

    private static func maskKeyword(in conninfo: String) -> String {
        conninfo.split(separator: " ", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("password=") ? "password=***" : String($0) }.joined(separator: " ")
    }

    /// Whether `text` names a PostgreSQL database (a `postgresql://` or `postgres://` URI) rather than a file.
    public static func isConnectionURI(_ text: String) -> Bool {
        text.hasPrefix("postgresql://") || text.hasPrefix("postgres://")
    }

    // MARK: Feeds

    /// The feed called `name`, or `nil`.
    public func feedID(named name: String) throws -> Int64? {
        var parameters = PostgresParameters()
        parameters.append(name)
        let result = try connection.execute(
            prepared: "feedsim_feed_id", sql: "SELECT id FROM feeds WHERE name = $1", parameters)
        return result.rowCount > 0 ? result.int64(0, 0) : nil
    }

    /// The feed called `name`. - Throws: ``PostgresStoreError/unknownFeed(_:known:)`` when there is none.
    public func requireFeed(named name: String) throws -> Int64 {
        guard let id = try feedID(named: name) else {
            throw PostgresStoreError.unknownFeed(name, known: try feeds().map(\.name))
        }
        return id
    }

    /// Creates the feed `name`, or returns the existing one of that name.
    /// - Throws: ``PostgresStoreError/emptyFeedName``, ``PostgresStoreError/unusableFeedName(_:)``
    ///   (``FeedModel/FeedName``'s rule, for a new feed), ``PostgresError``.
    @discardableResult
    public func createFeed(named name: String) throws -> Int64 {
        if let id = try feedID(named: name) { return id }
        // Checked for new feeds only, as the SQLite store does.
        switch FeedName.problem(name) {
        case .empty: throw PostgresStoreError.emptyFeedName
        case .unusable(let reason): throw PostgresStoreError.unusableFeedName(reason)
        case nil: break
        }
        var parameters = PostgresParameters()
        parameters.append(name)
        try connection.execute(
            prepared: "feedsim_create_feed",
            sql: "INSERT INTO feeds (name) VALUES ($1) ON CONFLICT (name) DO NOTHING", parameters)
        return try requireFeed(named: name)
    }

    /// Makes sure `feed` exists until the current transaction ends: a key-share lock on its row
    /// (`SELECT … FOR KEY SHARE`, what a foreign key's check takes), so a concurrent delete of the
    /// feed waits for this transaction, or this transaction sees that it is gone. Called by every
    /// transaction that writes items, after writing them and just before COMMIT, so the lock is held
    /// for an instant, not for a seed's length (schema version 2 has no foreign key: docs/postgres.md).
    /// - Throws: ``PostgresStoreError/missingFeed(id:)`` when the feed does not exist (the caller's
    ///   transaction then rolls back), ``PostgresError``.
    func keepFeed(_ feed: Int64) throws {
        var parameters = PostgresParameters()
        parameters.append(feed)
        let result = try connection.execute(
            prepared: "feedsim_keep_feed", sql: "SELECT id FROM feeds WHERE id = $1 FOR KEY SHARE", parameters)
        guard result.rowCount == 1 else { throw PostgresStoreError.missingFeed(id: feed) }
    }

    /// Deletes the feed `name` and its items in one transaction. The feed's row goes first (its
    /// lock makes a concurrent writer of items wait, or see it gone and roll back); the items after,
    /// in a statement whose snapshot includes whatever such a writer committed before it.
    /// - Returns: how many items were deleted.
    /// - Throws: ``PostgresStoreError/unknownFeed(_:known:)``, ``PostgresError``; nothing is deleted then.
    @discardableResult
    public func deleteFeed(named name: String) throws -> Int {
        try connection.transaction {
            var parameters = PostgresParameters()
            parameters.append(name)
            let deleted = try connection.execute(
                prepared: "feedsim_delete_feed", sql: "DELETE FROM feeds WHERE name = $1 RETURNING id", parameters)
            guard deleted.rowCount == 1 else { throw PostgresStoreError.unknownFeed(name, known: try feeds().map(\.name)) }
            var feed = PostgresParameters()
            feed.append(deleted.int64(0, 0))
            return try connection.execute(
                prepared: "feedsim_delete_feed_items", sql: "DELETE FROM items WHERE feed_id = $1", feed
            ).affectedRows
        }
    }

    /// All feeds as `(id, name)`, sorted by name (byte order, as SQLite sorts).
    public func feeds() throws -> [(id: Int64, name: String)] {
        let result = try connection.execute(
            prepared: "feedsim_feeds", sql: "SELECT id, name FROM feeds", PostgresParameters())
        let feeds = (0..<result.rowCount).map { (id: result.int64($0, 0), name: result.text($0, 1)) }
        return feeds.sorted { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
    }

    /// A ``FeedModel/FeedBackend`` bound to `feed` and this store's connection.
    public func backend(feed: Int64) -> PostgresFeedBackend {
        PostgresFeedBackend(store: self, feed: feed)
    }

    // MARK: Transactions

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    /// - Throws: ``PostgresError``; whatever `body` throws.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try connection.transaction("", body)
    }

    /// Runs `body` with every write it makes through this store undone afterwards (one transaction,
    /// always rolled back): queries inside see the writes, the database keeps none (a replay's
    /// upstream inserts, so the same replay can run again with the same result).
    /// - Throws: ``PostgresError``; whatever `body` throws.
    public func discardingWrites<T>(_ body: () throws -> T) throws -> T {
        try connection.discardingWrites(body)
    }
}
