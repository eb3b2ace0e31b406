internal import FeedSimSQLite

/// A prepared statement; finalized when the last reference goes.
///
/// Owned by one ``Connection`` (and so by one thread). Parameters are 1-based as in SQLite,
/// columns 0-based. Text is bound with `SQLITE_TRANSIENT` (SQLite copies it before the call
/// returns) and column text is copied into a Swift `String` at once.
final class Statement {
    let sql: String
    let handle: OpaquePointer
    private let database: OpaquePointer
    private let path: String

    init(sql: String, database: OpaquePointer, path: String) throws {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(database, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else {
            let error = SQLiteError.capture(database, code: code, sql: sql, path: path)
            sqlite3_finalize(statement)
            throw error
        }
        self.sql = sql
        self.handle = statement
        self.database = database
        self.path = path
    }

    deinit {
        sqlite3_finalize(handle)
    }

    // MARK: Binding

    /// The first failed bind since the last reset (e.g. `SQLITE_TOOBIG` for a huge text), thrown by
    /// the next ``step()``: binds stay non-throwing at the call sites, and no failure is lost.
    private var bindFailure: SQLiteError?

    private func checkBind(_ code: Int32) {
        if code != SQLITE_OK, bindFailure == nil {
            bindFailure = SQLiteError.capture(database, code: code, sql: sql, path: path)
        }
    }

    func bind(_ value: Int64, at index: Int32) {
        checkBind(sqlite3_bind_int64(handle, index, value))
    }

    func bind(_ value: Int, at index: Int32) {
        checkBind(sqlite3_bind_int64(handle, index, Int64(value)))
    }

    func bind(_ value: Double, at index: Int32) {
        checkBind(sqlite3_bind_double(handle, index, value))
    }

    func bind(_ value: String, at index: Int32) {
        var value = value
        let code = value.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars -> Int32 in
                // An empty String may have no base address: bind a zero-length text then.
                guard let base = chars.baseAddress else {
                    return sqlite3_bind_text(handle, index, "", 0, feedsim_sqlite_transient())
                }
                // Longer than SQLite's 32-bit length: report it as SQLite's "string or blob too big".
                guard let length = Int32(exactly: chars.count) else { return SQLITE_TOOBIG }
                return sqlite3_bind_text(handle, index, base, length, feedsim_sqlite_transient())
            }
        }
        checkBind(code)
    }

    // MARK: Stepping

    /// Advances to the next row. - Returns: `true` when a row is ready, `false` when done.
    /// - Throws: ``SQLiteError`` with this statement's SQL.
    @inline(__always)
    func step() throws -> Bool {
        if let failure = bindFailure { throw failure }
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE { return false }
        throw SQLiteError.capture(database, code: code, sql: sql, path: path)
    }

    /// Runs a statement that returns no rows, then resets it.
    func run() throws {
        defer { reset() }
        while try step() {}
    }

    /// Runs a statement without parameters that returns no rows (`BEGIN`, `COMMIT`), then rewinds
    /// it: one SQLite call fewer than ``run()``, which also clears bindings it does not have.
    func runRewinding() throws {
        defer { rewind() }
        while try step() {}
    }

    /// Resets to the first row and clears the bindings, ready for reuse.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        bindFailure = nil
    }

    /// Resets to the first row and keeps the bindings: for statements whose every parameter is
    /// bound again before each step (the store's page and row statements), one SQLite call instead
    /// of two (in serialized mode each call takes the connection's mutex).
    @inline(__always)
    func rewind() {
        sqlite3_reset(handle)
        bindFailure = nil
    }

    // MARK: Columns

    @inline(__always)
    func int64(at column: Int32) -> Int64 {
        sqlite3_column_int64(handle, column)
    }

    @inline(__always)
    func double(at column: Int32) -> Double {
        sqlite3_column_double(handle, column)
    }

    /// The column as text, copied; `""` for NULL.
    @inline(__always)
    func text(at column: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// Calls `body` with the column's text bytes, not copied (valid only inside `body`); empty for NULL.
    @inline(__always)
    func withText<R>(at column: Int32, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        guard let bytes = sqlite3_column_text(handle, column) else {
            return body(UnsafeBufferPointer(start: nil, count: 0))
        }
        return body(UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, column))))
    }

    func isNull(at column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_NULL
    }
}
