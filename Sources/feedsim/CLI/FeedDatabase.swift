import FeedModel
import FeedPostgres
import FeedResources
import FeedStore
import Foundation

/// The one place the command line turns `--db` into an open backend: a SQLite file path, or a
/// PostgreSQL connection URI (`postgresql://…` / `postgres://…`, libpq conninfo; `PG*`
/// environment variables fill what the URI leaves out). Every command that takes `--db` opens it
/// here, so a new kind of backend (`--source URL` for an HTTP feed API) is one more case.
enum FeedDatabase {
    case sqlite(ItemStore)
    case postgres(PostgresStore)

    /// How a `--db` value names its database.
    enum Target {
        case sqlitePath(String)
        case postgresURI(String)

        init(_ text: String) {
            self = PostgresStore.isConnectionURI(text) ? .postgresURI(text) : .sqlitePath(text)
        }
    }

    /// What a command does with the database.
    enum Access {
        /// Reads only (page, stats, layout --db, replay): a SQLite file must exist and is opened read-only.
        case readOnly
        /// Writes, creating a SQLite file when missing (seed, import).
        case create
        /// Writes to a database that must exist (replay --keep-inserts).
        case writeExisting
    }

    /// Opens the database `--db` names.
    /// - Parameter access: for SQLite, whether the file must exist and may be changed
    ///   (``StoreCommandSupport``'s rules). A PostgreSQL database always exists; its FeedSim tables
    ///   are created (migrated) when missing whatever the access.
    /// - Throws: ``CommandFailure`` for a missing file or directory; the backend's errors (cannot
    ///   connect, foreign database, newer schema, unsupported server …) with their own messages.
    static func open(_ text: String, for access: Access) throws -> FeedDatabase {
        switch Target(text) {
        case .sqlitePath(let path):
            switch access {
            case .readOnly: return .sqlite(try StoreCommandSupport.openExisting(path))
            case .create: return .sqlite(try StoreCommandSupport.openForWriting(path))
            case .writeExisting:
                try StoreCommandSupport.requireDatabaseFile(path, hint: "create one with `feedsim seed --db \(path) ...`")
                return .sqlite(try ItemStore(path: path))
            }
        case .postgresURI(let uri):
            return .postgres(try PostgresStore(conninfo: uri, migrator: try postgresMigrator()))
        }
    }

    /// The migrations of `Schema/postgres/`.
    /// The migrations of `Schema/postgres/` (embedded in the binary, or the `FEEDSIM_ROOT` override).
    /// - Throws: ``CommandFailure`` naming a badly named or unreadable migration file.
    static func postgresMigrator() throws -> PostgresMigrator {
        let directory = ResourceDirectory.schema.subdirectory("postgres")
        var migrations: [PostgresMigrator.Migration] = []
        for name in try directory.fileNames() where name.hasSuffix(".sql") {
            let digits = name.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, let version = Int(digits), name.dropFirst(digits.count).first == "_" else {
                throw CommandFailure("\(directory.path(name)): migration files are named NNN_description.sql")
            }
            guard let sql = String(data: try directory.data(name), encoding: .utf8) else {
                throw CommandFailure("\(directory.path(name)): not UTF-8 text")
            }
            migrations.append(PostgresMigrator.Migration(version: version, sql: sql, source: directory.path(name)))
        }
        return try PostgresMigrator(migrations: migrations)
    }

    /// The largest item id of the database (any feed), so a replay's inserts take the ids after it;
    /// `nil` where the backend does not tell (the replay then starts after the newest page's ids).
    func largestItemID() throws -> Int64? {
        switch self {
        case .sqlite(let store): try store.largestItemID()
        case .postgres: nil
        }
    }

    /// What to call the database in messages: the file, or `host:port/dbname` (never a password).
    var name: String {
        switch self {
        case .sqlite(let store): store.path
        case .postgres(let store): store.database
        }
    }

    /// The feed names, sorted.
    func feedNames() throws -> [String] {
        switch self {
        case .sqlite(let store): try store.feeds().map(\.name)
        case .postgres(let store): try store.feeds().map(\.name)
        }
    }

    /// The backend of the feed `name`. - Throws: the backend's unknown-feed error listing the feeds.
    func backend(feedNamed name: String) throws -> any FeedBackend {
        switch self {
        case .sqlite(let store): store.pages(feed: try store.requireFeed(named: name))
        case .postgres(let store): store.backend(feed: try store.requireFeed(named: name))
        }
    }

    /// The feed named by `--feed`; without it, `home` when present, else the only feed.
    func backend(feedArgument name: String?) throws -> any FeedBackend {
        if let name { return try backend(feedNamed: name) }
        let names = try feedNames()
        if names.contains("home") { return try backend(feedNamed: "home") }
        if names.count == 1 { return try backend(feedNamed: names[0]) }
        if names.isEmpty { throw CommandFailure("\(self.name): the database has no feeds") }
        throw CommandFailure("several feeds, pick one with --feed: \(names.joined(separator: ", "))")
    }

    func stats() throws -> StoreStats {
        switch self {
        case .sqlite(let store): try store.stats()
        case .postgres(let store): try store.stats()
        }
    }

    /// Runs `body`, turning the PostgreSQL store's interruption into the CLI's (exit 130, one line).
    static func interruptible<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch PostgresStoreError.interrupted {
            throw StoreError.interrupted
        }
    }
}
