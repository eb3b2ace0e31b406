import FeedModel
import FeedResources
import Foundation

/// The identifier of a feed in the store (`feeds.id`).
public struct FeedID: Hashable, Sendable, Codable, CustomStringConvertible {
    public var rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
    public var description: String { String(rawValue) }
}

/// The SQLite item store: feeds, items, keyset pages, rows by id, inserts and deletes.
///
/// One `ItemStore` owns one connection and belongs to one thread at a time; open one per thread
/// on the same file for concurrent readers and writers (WAL lets readers run beside one writer;
/// writers queue on the busy timeout). Schema files from `Schema/` are applied on open.
///
/// ```swift
/// let store = try ItemStore(path: "demo.sqlite")
/// let feed = try store.createFeed(named: "home")
/// let first = try store.pages(feed: feed).newest(limit: 50)
/// ```
public final class ItemStore {
    let connection: Connection
    /// Prepared rows statements by batch size (index = number of ids), so a row fetch neither
    /// builds nor hashes its SQL text (measured with `feedsim bench load`); see ``rows(ids:)``.
    var rowStatements: [Statement?] = []
    /// Prepared page statements by ``PageStatementKind`` (index = raw value), for the same reason.
    var pageStatements = [Statement?](repeating: nil, count: PageStatementKind.allCases.count)
    /// The kinds (reuse identifiers) read so far, so a page's stubs share their `String`s.
    var kinds = TextInterner()
    /// The database file, or `:memory:`.
    public var path: String { connection.path }
    /// The schema version (`PRAGMA user_version`) after migrations.
    public let schemaVersion: Int

    deinit {
        rowStatements.removeAll()  // finalize them before the connection closes
        pageStatements.removeAll()
    }

    /// Opens the database at `path` for the commands that only read (`page`, `stats`, `layout
    /// --db`, `replay`): `SQLITE_OPEN_READONLY`, no WAL switch, no migration; the file is never
    /// changed, and a read-only file works.
    /// - Throws: as ``init(path:schemaDirectory:)``, and ``StoreError/emptyDatabase(path:)`` for an
    ///   empty (or zero-byte) file, ``StoreError/readOnly(path:reason:)`` for a schema that needs a
    ///   migration first.
    public static func openReadOnly(path: String, schemaDirectory: URL? = nil) throws -> ItemStore {
        try ItemStore(path: path, schemaDirectory: schemaDirectory, readOnly: true)
    }

    /// How long a connection waits for another's lock before failing with `SQLITE_BUSY`, milliseconds.
    public static var busyTimeoutMilliseconds: Int { Int(Connection.busyTimeoutMilliseconds) }

    /// Whether the store was opened read-only (``openReadOnly(path:schemaDirectory:)``).
    public var isReadOnly: Bool { connection.readOnly }

    /// Opens or creates the database at `path` and migrates it to the newest schema.
    /// - Parameter schemaDirectory: the migration files on disk; `nil`: ``FeedResources/ResourceDirectory/schema``
    ///   (the `Schema/` the binary carries, or `$FEEDSIM_ROOT/Schema`).
    /// - Throws: ``StoreError/notADatabase(path:)``, ``StoreError/corrupt(path:message:)``,
    ///   ``StoreError/newerSchema(path:version:newestKnown:)``, ``StoreError/resource(path:reason:)``
    ///   for a missing or unreadable schema directory, ``StoreError/foreignDatabase(path:reason:)`` for an SQLite file
    ///   that is not FeedSim's (left untouched), or ``SQLiteError``.
    public convenience init(path: String, schemaDirectory: URL? = nil) throws {
        try self.init(path: path, schemaDirectory: schemaDirectory, readOnly: false)
    }

    /// As ``init(path:schemaDirectory:)``, the connection opened with `options` (threading mode,
    /// busy handling).
    init(path: String, schemaDirectory: URL? = nil, readOnly: Bool, options: Connection.Options = .standard) throws {
        let migrator = try Migrator(directory: schemaDirectory.map(ResourceDirectory.directory) ?? .schema)
        connection = try Connection(
            path: path, readOnly: readOnly, newestSchemaVersion: migrator.newestVersion, options: options)
        do {
            if readOnly {
                let version = Int(try connection.scalarInt("PRAGMA user_version"))
                guard version == migrator.newestVersion else {
                    throw StoreError.readOnly(
                        path: path,
                        reason: "schema version \(version) needs migrating to \(migrator.newestVersion) (run feedsim seed or import on it once)")
                }
                schemaVersion = version
                return
            }
            schemaVersion = try migrator.migrate(connection)
        } catch let error as SQLiteError where error.isNotADatabase {
            throw StoreError.notADatabase(path: path)
        } catch let error as SQLiteError where error.isCorrupt {
            throw StoreError.corrupt(path: path, message: error.message)
        }
    }

    /// A private in-memory store (gone when released).
    public static func inMemory() throws -> ItemStore {
        try ItemStore(path: ":memory:")
    }

    // MARK: Feeds

    /// The feed called `name`, or `nil`.
    /// - Complexity: O(log f) for f feeds (unique index on name).
    public func feedID(named name: String) throws -> FeedID? {
        let statement = try connection.cachedStatement("SELECT id FROM feeds WHERE name = ?")
        defer { statement.reset() }
        statement.bind(name, at: 1)
        return try statement.step() ? FeedID(rawValue: statement.int64(at: 0)) : nil
    }

    /// The feed called `name`. - Throws: ``StoreError/unknownFeed(_:known:)`` when there is none.
    public func requireFeed(named name: String) throws -> FeedID {
        guard let id = try feedID(named: name) else {
            throw StoreError.unknownFeed(name, known: try feeds().map(\.name).sorted())
        }
        return id
    }

    /// Creates the feed `name`, or returns the existing one of that name.
    /// - Throws: ``StoreError/emptyFeedName`` or ``StoreError/unusableFeedName(_:)`` for a new
    ///   feed's name that breaks ``FeedModel/FeedName``'s rule; ``SQLiteError``.
    /// - Complexity: O(log f).
    @discardableResult
    public func createFeed(named name: String) throws -> FeedID {
        if let id = try feedID(named: name) { return id }
        // Checked for new feeds only: an existing feed (written by an older feedsim) stays usable.
        switch FeedName.problem(name) {
        case .empty: throw StoreError.emptyFeedName
        case .unusable(let reason): throw StoreError.unusableFeedName(reason)
        case nil: break
        }
        let statement = try connection.cachedStatement("INSERT OR IGNORE INTO feeds (name) VALUES (?)")
        statement.bind(name, at: 1)
        try statement.run()
        return try requireFeed(named: name)
    }

    /// All feeds as `(id, name)`, sorted by name.
    public func feeds() throws -> [(id: FeedID, name: String)] {
        let statement = try connection.cachedStatement("SELECT id, name FROM feeds ORDER BY name")
        defer { statement.reset() }
        var result: [(id: FeedID, name: String)] = []
        while try statement.step() {
            result.append((FeedID(rawValue: statement.int64(at: 0)), statement.text(at: 1)))
        }
        return result
    }

    // MARK: Writes

    package static let insertSQL = """
        INSERT INTO items (id, feed_id, published_at, kind, width, height, title, author, payload)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    /// Inserts `items` into `feed` in one transaction: all or nothing.
    /// - Returns: the id of each item, in order (assigned by SQLite where `id` was `nil`).
    /// - Throws: ``StoreError/duplicateID(_:)`` when an id exists already; ``SQLiteError`` for a
    ///   failed CHECK (negative size, empty kind) or an unknown feed. Nothing is written then.
    /// - Complexity: O(n log N) for n items into a store of N.
    @discardableResult
    public func insert(items: [NewItem], feed: FeedID) throws -> [Int64] {
        try connection.transaction { try insertWithoutTransaction(items, feed: feed, shouldStop: nil) }
    }

    /// As ``insert(items:feed:)``, checking `shouldStop` every 1,000 items: when it returns `true`
    /// the transaction is rolled back and ``StoreError/interrupted`` thrown (SIGINT, SIGTERM).
    @discardableResult
    public func insert(items: [NewItem], feed: FeedID, shouldStop: @escaping () -> Bool) throws -> [Int64] {
        try connection.transaction { try insertWithoutTransaction(items, feed: feed, shouldStop: shouldStop) }
    }

    /// The largest item id in the store (any feed), `nil` when it holds none.
    /// - Complexity: O(log N) (the rowid B-tree's last entry).
    public func largestItemID() throws -> Int64? {
        let statement = try connection.prepare("SELECT max(id) FROM items")
        guard try statement.step(), !statement.isNull(at: 0) else { return nil }
        return statement.int64(at: 0)
    }

    /// Creates the feed `name` when missing and inserts `items` into it, in one transaction: when
    /// an item fails, neither the feed nor any item is written.
    /// - Returns: the feed and the id of each item, in order.
    /// - Throws: as ``insert(items:feed:)``.
    /// - Complexity: O(n log N).
    /// - Parameter shouldStop: checked every 1,000 items; `true` rolls everything back and throws
    ///   ``StoreError/interrupted``.
    @discardableResult
    public func insert(
        items: [NewItem], feedNamed name: String, shouldStop: (() -> Bool)? = nil
    ) throws -> (feed: FeedID, ids: [Int64]) {
        try connection.transaction {
            let feed = try createFeed(named: name)
            return (feed, try insertWithoutTransaction(items, feed: feed, shouldStop: shouldStop))
        }
    }

    func insertWithoutTransaction(_ items: [NewItem], feed: FeedID, shouldStop: (() -> Bool)? = nil) throws -> [Int64] {
        let statement = try connection.cachedStatement(Self.insertSQL)
        var ids: [Int64] = []
        ids.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            if let shouldStop, index % 1_000 == 0, shouldStop() { throw StoreError.interrupted }
            ids.append(try insertOne(item, feed: feed, using: statement))
        }
        if let shouldStop, shouldStop() { throw StoreError.interrupted }
        return ids
    }

    /// Binds, steps and resets the prepared INSERT for one item (inside a caller's transaction).
    @inline(__always)
    func insertOne(_ item: NewItem, feed: FeedID, using statement: Statement) throws -> Int64 {
        defer { statement.reset() }
        if let id = item.id { statement.bind(id, at: 1) }
        statement.bind(feed.rawValue, at: 2)
        statement.bind(item.publishedAt, at: 3)
        statement.bind(item.kind, at: 4)
        statement.bind(item.width, at: 5)
        statement.bind(item.height, at: 6)
        statement.bind(item.title, at: 7)
        statement.bind(item.author, at: 8)
        statement.bind(item.payload, at: 9)
        do {
            _ = try statement.step()
        } catch let error as SQLiteError where error.isPrimaryKeyConstraint && item.id != nil {
            throw StoreError.duplicateID(item.id ?? 0)
        }
        let id = connection.lastInsertRowID
        // SQLite gives the largest id + 1: after an item at 2^53 − 1, ids JSON clients cannot read
        // exactly (serve handed out 2^53, 2^53 + 1, …). The caller's transaction rolls back.
        if item.id == nil, !NewItem.idRange.contains(id) { throw StoreError.idsExhausted(next: id) }
        return id
    }

    /// Deletes the items with these ids (ids that do not exist are ignored), in one transaction.
    /// - Returns: how many items were deleted.
    /// - Complexity: O(k log N) for k ids.
    @discardableResult
    public func delete(ids: [Int64]) throws -> Int {
        try connection.transaction {
            let statement = try connection.cachedStatement("DELETE FROM items WHERE id = ?")
            var deleted = 0
            for id in ids {
                statement.bind(id, at: 1)
                try statement.run()
                deleted += connection.changes
            }
            return deleted
        }
    }

    /// Items in `feed`. - Complexity: O(n) over the feed's index entries.
    public func itemCount(feed: FeedID) throws -> Int {
        let statement = try connection.cachedStatement("SELECT count(*) FROM items WHERE feed_id = ?")
        statement.bind(feed.rawValue, at: 1)
        defer { statement.reset() }
        return try statement.step() ? Int(statement.int64(at: 0)) : 0
    }

    /// The newest `published_at` in `feed` (Unix milliseconds), `nil` when it is empty.
    /// - Complexity: O(log N): one seek on the feed-order index.
    public func newestPublishedAt(feed: FeedID) throws -> Int64? {
        let statement = try connection.cachedStatement(
            "SELECT published_at FROM items WHERE feed_id = ? ORDER BY published_at DESC, id DESC LIMIT 1")
        statement.bind(feed.rawValue, at: 1)
        defer { statement.reset() }
        return try statement.step() ? statement.int64(at: 0) : nil
    }

    /// Deletes every item of `feed` (inside the caller's transaction when there is one).
    /// - Returns: how many were deleted.
    @discardableResult
    public func deleteAll(feed: FeedID) throws -> Int {
        let statement = try connection.cachedStatement("DELETE FROM items WHERE feed_id = ?")
        statement.bind(feed.rawValue, at: 1)
        try statement.run()
        return connection.changes
    }

    /// Runs `body` inside one write transaction on this store's connection (used by the seeder).
    func writeTransaction<T>(_ body: () throws -> T) throws -> T {
        try connection.transaction(body)
    }

    /// Runs `body` in one read transaction on this store's connection: every page and row query in
    /// it reads the same snapshot of the database (under WAL, as of the first read;
    /// <https://sqlite.org/isolation.html>), so the rows of a page's items cannot go missing because
    /// a writer deleted them in between, and the connection takes and releases its shared locks
    /// once. Inside another transaction it just runs `body`.
    /// - Throws: ``SQLiteError`` from `BEGIN`/`COMMIT`; whatever `body` throws (the transaction ends).
    public func read<T>(_ body: () throws -> T) throws -> T {
        try connection.read(body)
    }

    /// Runs `body` with every write it makes through this store undone afterwards: queries inside
    /// see the writes, the database file keeps none of them (a replay's upstream inserts, so the
    /// same replay can run again with the same result). Holds the write lock while `body` runs.
    /// - Throws: ``SQLiteError`` when the lock cannot be taken; whatever `body` throws.
    public func discardingWrites<T>(_ body: () throws -> T) throws -> T {
        try connection.discardingWrites(body)
    }
}
