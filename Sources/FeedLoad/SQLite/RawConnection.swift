internal import FeedSimSQLite
import FeedStore
import Synchronization

/// An error from the load tester's own SQLite calls: result code, message and SQL.
public struct RawSQLiteError: Error, CustomStringConvertible, Sendable {
    /// Primary result code (`SQLITE_BUSY` = 5, ...).
    public var code: Int
    /// Extended result code.
    public var extendedCode: Int
    public var message: String
    public var sql: String?

    public var description: String {
        "SQLite error \(code) \(LoadErrorCode.name(ofPrimary: code)) (extended \(extendedCode)): \(message)"
            + (sql.map { " [SQL: \($0)]" } ?? "")
    }
}

/// The load tester's own thin SQLite connection, for what the item store does not offer: writers
/// that count their busy waits, ground-truth reads, and the raw C-API baseline of `bench load`.
///
/// Same rules as the store's connection: owns the handle (closed in `deinit`), one thread at a
/// time, extended result codes, WAL with `synchronous=NORMAL`. Since one thread at a time uses it,
/// it opens in multi-thread mode (`SQLITE_OPEN_NOMUTEX`, <https://sqlite.org/threadsafe.html>):
/// SQLite takes no connection mutex at all, not even the re-entry of one held across a statement
/// that serialized mode costs on every step and column call. Instead of a busy timeout it
/// installs a busy handler (<https://sqlite.org/c3ref/busy_handler.html>) that counts each wait
/// in ``busyWaits``, sleeps 1 ms and retries, giving up after ``maxBusyWaits`` waits in a row.
final class RawConnection {
    let handle: OpaquePointer
    /// How many times SQLite found the database locked and this connection waited.
    private(set) var busyWaits = 0
    /// Consecutive waits after which the busy handler lets `SQLITE_BUSY` through (≈ 10 s).
    static let maxBusyWaits: Int32 = 10_000

    init(path: String) throws {
        SQLiteLibrary.configure()
        var db: OpaquePointer?
        let code = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_close_v2(db)
            throw RawSQLiteError(code: Int(code & 0xFF), extendedCode: Int(code), message: "\(path): \(message)")
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_handler(
            db,
            { context, attempts in
                guard let context, attempts < RawConnection.maxBusyWaits else { return 0 }
                Unmanaged<RawConnection>.fromOpaque(context).takeUnretainedValue().busyWaits += 1
                sqlite3_sleep(1)
                return 1
            }, Unmanaged.passUnretained(self).toOpaque())
        try execute("PRAGMA journal_mode = WAL")
        try execute("PRAGMA synchronous = NORMAL")
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Runs statements without parameters (pragmas, BEGIN, COMMIT). Never pass input text.
    func execute(_ sql: String) throws {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw error(code, sql: sql) }
    }

    func prepare(_ sql: String) throws -> RawStatement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else { throw error(code, sql: sql) }
        return RawStatement(handle: statement, connection: self, sql: sql)
    }

    func error(_ code: Int32, sql: String?) -> RawSQLiteError {
        RawSQLiteError(
            code: Int(code & 0xFF), extendedCode: Int(sqlite3_extended_errcode(handle)),
            message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }

    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }
    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int { Int(sqlite3_changes(handle)) }
}

/// A prepared statement, finalized in `deinit`.
final class RawStatement {
    let handle: OpaquePointer
    let sql: String
    private let connection: RawConnection

    init(handle: OpaquePointer, connection: RawConnection, sql: String) {
        self.handle = handle
        self.connection = connection
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
    }

    func bind(_ value: Int64, at index: Int32) { sqlite3_bind_int64(handle, index, value) }
    func bind(_ value: Double, at index: Int32) { sqlite3_bind_double(handle, index, value) }
    func bind(_ value: String, at index: Int32) {
        sqlite3_bind_text(handle, index, value, -1, feedsim_sqlite_transient())
    }
    func bindNull(at index: Int32) { sqlite3_bind_null(handle, index) }

    /// Steps once. - Returns: whether a row is available. - Throws: ``RawSQLiteError``.
    func step() throws -> Bool {
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE { return false }
        let error = connection.error(code, sql: sql)
        sqlite3_reset(handle)
        throw error
    }

    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Resets without clearing bindings: for statements whose every parameter is bound before each run.
    func rewind() {
        sqlite3_reset(handle)
    }

    func int64(at column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    func double(at column: Int32) -> Double { sqlite3_column_double(handle, column) }
    func text(at column: Int32) -> String {
        guard let pointer = sqlite3_column_text(handle, column) else { return "" }
        return String(cString: pointer)
    }
}
