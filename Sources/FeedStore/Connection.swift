internal import FeedSimSQLite
import Foundation

/// One SQLite connection: owns the handle and closes it (`sqlite3_close_v2`) in `deinit`.
///
/// Not shared across threads: open one per thread (SQLite's own advice for WAL readers, and the
/// reason this type is not `Sendable`). On open it turns on extended result codes and foreign
/// keys, sets a busy timeout, and for files switches to WAL with `synchronous=NORMAL`
/// (<https://sqlite.org/wal.html>), checking the journal mode SQLite reports back.
final class Connection {
    /// The database file, or `:memory:`.
    let path: String
    let handle: OpaquePointer
    private var cache: [String: Statement] = [:]
    private var inTransaction = false
    /// Retries after which the counting busy handler lets `SQLITE_BUSY` through.
    private var maxBusyWaits: Int32 = 0

    /// Busy timeout: how long a writer waits for another connection's lock, in milliseconds.
    static let busyTimeoutMilliseconds: Int32 = 10_000

    /// How a connection is opened: SQLite's threading mode and what it does when another
    /// connection holds the lock it needs.
    struct Options: Hashable, Sendable {
        /// SQLite's threading mode for this connection (<https://sqlite.org/threadsafe.html>).
        enum Threading: Hashable, Sendable {
            /// `SQLITE_OPEN_FULLMUTEX`: every call takes the connection's mutex, a safety net if a
            /// connection is ever handed across threads (SQLite's default build).
            case serialized
            /// `SQLITE_OPEN_NOMUTEX`: no connection mutex; the owner guarantees one thread at a
            /// time uses it (the load tester's writers and ground-truth readers).
            case multiThread
        }

        /// What a statement does on `SQLITE_BUSY`.
        enum Busy: Hashable, Sendable {
            /// `sqlite3_busy_timeout`: retry for up to this many milliseconds.
            case timeout(milliseconds: Int32)
            /// A busy handler that sleeps 1 ms per retry, for up to `maxWaits` retries, and counts
            /// them (``Connection/busyWaits``): the load tester reports how often writers waited.
            case countingWaits(maxWaits: Int32)
        }

        var threading: Threading
        var busy: Busy

        /// Serialized, with a 10 s busy timeout: the store's default.
        static let standard = Options(threading: .serialized, busy: .timeout(milliseconds: busyTimeoutMilliseconds))
        /// Multi-thread mode, counting up to 10 000 waits of 1 ms (≈ 10 s): the load tester's writers
        /// and ground-truth readers, each on a thread of its own.
        static let loadTester = Options(threading: .multiThread, busy: .countingWaits(maxWaits: 10_000))
    }

    /// Times a statement found the database locked and the busy handler waited before retrying
    /// (``Options/Busy/countingWaits(maxWaits:)`` only; always 0 with a timeout).
    private(set) var busyWaits = 0

    /// Whether this connection was opened with `SQLITE_OPEN_READONLY`.
    let readOnly: Bool

    /// Opens (creating if needed, unless `readOnly`) the database at `path`; `":memory:"` opens a
    /// private in-memory one.
    ///
    /// A read-only connection (`SQLITE_OPEN_READONLY`) changes nothing in the file: no WAL switch,
    /// no migration; it reads a WAL database as it is (<https://sqlite.org/wal.html#readonly>).
    /// Before anything is changed, the file's tables are checked (``StoreSchemaCheck``): a foreign
    /// SQLite database is refused untouched, whatever its `user_version`.
    /// - Throws: ``StoreError/notADatabase(path:)`` for a file that is not SQLite,
    ///   ``StoreError/foreignDatabase(path:reason:)``, ``StoreError/emptyDatabase(path:)`` (read-only
    ///   only), ``SQLiteError`` otherwise.
    /// - Parameter newestSchemaVersion: the newest migration known (a higher `user_version` is
    ///   ``StoreError/newerSchema(path:version:newestKnown:)``); `nil` when opened without a migrator.
    /// - Parameter options: threading mode and busy handling (``Options/standard``: serialized, a
    ///   10 s busy timeout).
    init(path: String, readOnly: Bool = false, newestSchemaVersion: Int? = nil, options: Options = .standard) throws {
        var db: OpaquePointer?
        let mutex = options.threading == .serialized ? SQLITE_OPEN_FULLMUTEX : SQLITE_OPEN_NOMUTEX
        let flags =
            (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | mutex | SQLITE_OPEN_URI
        let code = sqlite3_open_v2(Self.uri(path: path, readOnly: readOnly), &db, flags, nil)
        guard code == SQLITE_OK, let db else {
            let error = SQLiteError.capture(db, code: code, sql: nil, path: path)
            sqlite3_close_v2(db)
            throw error
        }
        self.path = path
        self.handle = db
        self.readOnly = readOnly
        sqlite3_extended_result_codes(db, 1)
        switch options.busy {
        case .timeout(let milliseconds):
            sqlite3_busy_timeout(db, milliseconds)
        case .countingWaits(let maxWaits):
            self.maxBusyWaits = maxWaits
            // The handler's context is this connection, unretained: the handler is uninstalled with
            // the handle, which this object closes in deinit.
            sqlite3_busy_handler(
                db,
                { context, attempts in
                    guard let context else { return 0 }
                    let connection = Unmanaged<Connection>.fromOpaque(context).takeUnretainedValue()
                    guard attempts < connection.maxBusyWaits else { return 0 }
                    connection.busyWaits += 1
                    sqlite3_sleep(1)
                    return 1
                }, Unmanaged.passUnretained(self).toOpaque())
        }
        do {
            try execute("PRAGMA foreign_keys = ON")
            // Someone else's database is refused before anything, journal mode included, is changed in it.
            // In one read transaction: its version and its tables from one snapshot (another
            // process's migration committing between the two reads looked like "FeedSim's tables
            // but no FeedSim schema version").
            switch try read({ try StoreSchemaCheck.inspect(self, newestKnown: newestSchemaVersion) }) {
            case .feedSim: break
            case .newer(let version):
                throw StoreError.newerSchema(path: path, version: version, newestKnown: newestSchemaVersion ?? 0)
            case .empty:
                if readOnly { throw StoreError.emptyDatabase(path: path) }
            case .foreign(let reason):
                throw StoreError.foreignDatabase(path: path, reason: reason)
            }
            if !readOnly && path != ":memory:" && !path.isEmpty {
                let mode = try switchingToWAL()
                guard mode.lowercased() == "wal" else {
                    throw StoreError.resource(path: path, reason: "could not switch to WAL (journal mode is \(mode))")
                }
                try execute("PRAGMA synchronous = NORMAL")
            }
        } catch let error as SQLiteError where error.isNotADatabase {
            throw StoreError.notADatabase(path: path)
        } catch let error as SQLiteError where error.isCorrupt {
            throw StoreError.corrupt(path: path, message: error.message)
        }
    }

    /// `PRAGMA journal_mode = WAL`, retried while another connection holds the lock it needs:
    /// two processes opening one new database switch it at once, each holding a shared lock and
    /// wanting the exclusive one, and SQLite answers one of them `SQLITE_BUSY` at once (its busy
    /// handler is not called where waiting could deadlock). Retried every millisecond up to the
    /// busy timeout (``busyTimeoutMilliseconds``); no transaction is open meanwhile.
    /// - Returns: the journal mode SQLite reports. - Throws: ``SQLiteError`` otherwise, or when still busy.
    private func switchingToWAL() throws -> String {
        var attempts: Int32 = 0
        while true {
            do {
                return try scalarText("PRAGMA journal_mode = WAL")
            } catch let error as SQLiteError where error.isBusy && attempts < Self.busyTimeoutMilliseconds {
                attempts += 1
                sqlite3_sleep(1)
            }
        }
    }

    /// The `file:` URI SQLite opens (<https://sqlite.org/uri.html>): the path percent-encoded, with
    /// `immutable=1` for a read-only open of a database whose directory this process cannot write
    /// and which has no `-shm` file: a WAL database can then not be read any other way
    /// (<https://sqlite.org/wal.html#readonly>), and nobody can be writing it without that file.
    static func uri(path: String, readOnly: Bool) -> String {
        if path == ":memory:" || path.isEmpty { return path }
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/".utf8)
        var encoded = ""
        for byte in path.utf8 {
            if allowed.contains(byte) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                encoded += String(format: "%%%02X", byte)
            }
        }
        guard readOnly else { return "file:" + encoded }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let immutable = access(directory, W_OK) != 0 && access(path + "-shm", F_OK) != 0
            && access(path + "-wal", F_OK) != 0
        return "file:" + encoded + "?mode=ro" + (immutable ? "&immutable=1" : "")
    }

    deinit {
        cache.removeAll()  // finalize cached statements before closing
        readStatements = nil
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements without parameters or results (schema scripts, pragmas).
    /// Never pass text that came from input: use a ``Statement`` with bound parameters.
    func execute(_ sql: String) throws {
        var errorText: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &errorText)
        if code != SQLITE_OK {
            var error = SQLiteError.capture(handle, code: code, sql: sql, path: path)
            if let errorText {
                error.message = String(cString: errorText)
                sqlite3_free(errorText)
            }
            throw error
        }
    }

    /// A new statement, finalized when released.
    func prepare(_ sql: String) throws -> Statement {
        try Statement(sql: sql, database: handle, path: path)
    }

    /// The statement for `sql`, prepared once per connection and reset before it is handed out.
    func cachedStatement(_ sql: String) throws -> Statement {
        if let statement = cache[sql] {
            statement.reset()
            return statement
        }
        let statement = try prepare(sql)
        cache[sql] = statement
        return statement
    }

    /// The first column of the first row as text (`""` when there is no row).
    func scalarText(_ sql: String) throws -> String {
        let statement = try prepare(sql)
        return try statement.step() ? statement.text(at: 0) : ""
    }

    /// The first column of the first row as an integer (`0` when there is no row).
    func scalarInt(_ sql: String) throws -> Int64 {
        let statement = try prepare(sql)
        return try statement.step() ? statement.int64(at: 0) : 0
    }

    /// The rowid of the last successful INSERT on this connection.
    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Rows changed by the last INSERT, UPDATE or DELETE on this connection.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// Runs `body` holding this connection's own mutex (`sqlite3_db_mutex`; none in multi-thread
    /// mode, and then this only runs `body`).
    ///
    /// In serialized mode every SQLite call on the connection enters and leaves that mutex. It is
    /// recursive, so calls made while it is already held only count up and down on the owning
    /// thread, with no atomic operation: a page read (a step and five column reads per row) takes
    /// it once instead of some hundred times. Nothing else waits on it, as a connection belongs to
    /// one thread at a time (<https://sqlite.org/c3ref/db_mutex.html>).
    @inline(__always)
    func serialized<T>(_ body: () throws -> T) rethrows -> T {
        let mutex = sqlite3_db_mutex(handle)
        sqlite3_mutex_enter(mutex)
        defer { sqlite3_mutex_leave(mutex) }
        return try body()
    }

    /// Prepared `BEGIN` and `COMMIT` of ``read(_:)``, made at its first use.
    private var readStatements: (begin: Statement, commit: Statement)?
    private var inReadTransaction = false

    /// Runs `body` in one read transaction (`BEGIN` … `COMMIT`, deferred): every query in it reads
    /// the same snapshot — under WAL, the database as of its first read
    /// (<https://sqlite.org/isolation.html>) — and the connection takes and releases its shared
    /// locks once, not once per statement. Inside another transaction (this type's, or one begun
    /// with plain SQL) it just runs `body`.
    /// A write inside `body` fails with SQLite's "cannot start a transaction within a transaction"
    /// (``transaction(_:)`` does not turn a read into a write), and the read transaction then ends.
    /// - Throws: `body`'s error (the transaction is rolled back, which for reads only ends it), or
    ///   ``SQLiteError`` from `BEGIN`/`COMMIT`.
    func read<T>(_ body: () throws -> T) throws -> T {
        if inTransaction || inReadTransaction || sqlite3_get_autocommit(handle) == 0 { return try body() }
        if readStatements == nil { readStatements = (try prepare("BEGIN"), try prepare("COMMIT")) }
        try readStatements.unsafelyUnwrapped.begin.runRewinding()
        inReadTransaction = true
        defer { inReadTransaction = false }
        do {
            let result = try body()
            try readStatements.unsafelyUnwrapped.commit.runRewinding()
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Runs `body` in a `BEGIN IMMEDIATE` transaction: commits when it returns, rolls back and
    /// rethrows the first error when it throws (or when COMMIT fails).
    ///
    /// IMMEDIATE takes the write lock up front, so a writer waits (busy timeout) instead of failing
    /// later with `SQLITE_BUSY_SNAPSHOT` under WAL (<https://sqlite.org/lang_transaction.html>).
    /// Inside ``discardingWrites(_:)`` it becomes a savepoint (<https://sqlite.org/lang_savepoint.html>),
    /// so a failed write still undoes only itself.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        if inTransaction { return try savepoint(body) }
        try execute("BEGIN IMMEDIATE")
        inTransaction = true
        defer { inTransaction = false }
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            // The first error wins; a failing ROLLBACK (e.g. SQLite already rolled back) is ignored.
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Runs `body` with everything it writes undone afterwards (`BEGIN IMMEDIATE` … `ROLLBACK`):
    /// reads inside see the writes, the file never does. Writes in `body` run as savepoints.
    func discardingWrites<T>(_ body: () throws -> T) throws -> T {
        precondition(!inTransaction, "discardingWrites does not nest in a transaction")
        try execute("BEGIN IMMEDIATE")
        inTransaction = true
        defer {
            inTransaction = false
            try? execute("ROLLBACK")
        }
        return try body()
    }

    private func savepoint<T>(_ body: () throws -> T) throws -> T {
        // A fixed name: SQLite savepoints nest by name on a stack, and only this code names them.
        try execute("SAVEPOINT feedsim_write")
        do {
            let result = try body()
            try execute("RELEASE feedsim_write")
            return result
        } catch {
            try? execute("ROLLBACK TO feedsim_write")
            try? execute("RELEASE feedsim_write")
            throw error
        }
    }
}
