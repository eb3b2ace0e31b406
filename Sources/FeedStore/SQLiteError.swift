internal import FeedSimSQLite

/// An error reported by SQLite, captured the moment it happened.
///
/// Carries the primary and extended result codes (<https://sqlite.org/rescode.html>), the
/// connection's own message (`sqlite3_errmsg`, copied at once, before any other call can
/// overwrite it), the SQL that failed and the database file.
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    /// Primary result code (`SQLITE_BUSY` = 5, `SQLITE_CONSTRAINT` = 19, `SQLITE_NOTADB` = 26, ...).
    public var code: Int
    /// Extended result code (e.g. `SQLITE_CONSTRAINT_PRIMARYKEY` = 1555).
    public var extendedCode: Int
    /// SQLite's message for this error.
    public var message: String
    /// The statement that failed, when there was one.
    public var sql: String?
    /// The database file (`:memory:` for an in-memory database).
    public var path: String

    public init(code: Int, extendedCode: Int, message: String, sql: String?, path: String) {
        self.code = code
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
        self.path = path
    }

    /// `SQLITE_BUSY` or `SQLITE_LOCKED`: another connection holds the lock past the busy timeout.
    public var isBusy: Bool { code == 5 || code == 6 }
    /// `SQLITE_CONSTRAINT`: a UNIQUE, CHECK, NOT NULL or FOREIGN KEY constraint failed.
    public var isConstraint: Bool { code == 19 }
    /// `SQLITE_NOTADB`: the file is not an SQLite database.
    public var isNotADatabase: Bool { code == 26 }
    /// `SQLITE_CORRUPT`: the file is a damaged SQLite database.
    public var isCorrupt: Bool { code == 11 }

    public var description: String {
        var text = "\(path): SQLite error \(code) (extended \(extendedCode)): \(message)"
        if let sql { text += " [SQL: \(sql)]" }
        return text
    }

    /// Captures the error state of `handle` right now.
    static func capture(_ handle: OpaquePointer?, code: Int32, sql: String?, path: String) -> SQLiteError {
        let extended = handle.map { sqlite3_extended_errcode($0) } ?? code
        let message: String
        if let handle, let text = sqlite3_errmsg(handle) {
            message = String(cString: text)
        } else {
            message = String(cString: sqlite3_errstr(code))
        }
        return SQLiteError(
            code: Int(code & 0xFF), extendedCode: Int(extended), message: message, sql: sql, path: path)
    }
}
