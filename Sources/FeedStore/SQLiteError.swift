internal import FeedSimSQLite
import FeedModel

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

    public init(code: ResultCode, extendedCode: ResultCode, message: String, sql: String?, path: String) {
        self.init(code: code.rawValue, extendedCode: extendedCode.rawValue, message: message, sql: sql, path: path)
    }

    public init(code: Int, extendedCode: Int, message: String, sql: String?, path: String) {
        self.code = code
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
        self.path = path
    }

    /// `SQLITE_BUSY` or `SQLITE_LOCKED`: another connection holds the lock past the busy timeout.
    public var isBusy: Bool { code == ResultCode.busy.rawValue || code == ResultCode.locked.rawValue }
    /// `SQLITE_CONSTRAINT`: a UNIQUE, CHECK, NOT NULL or FOREIGN KEY constraint failed.
    public var isConstraint: Bool { code == ResultCode.constraint.rawValue }
    /// `SQLITE_CONSTRAINT_PRIMARYKEY`: an id that exists already.
    public var isPrimaryKeyConstraint: Bool { extendedCode == ResultCode.constraintPrimaryKey.rawValue }
    /// `SQLITE_NOTADB`: the file is not an SQLite database.
    public var isNotADatabase: Bool { code == ResultCode.notADatabase.rawValue }
    /// `SQLITE_CORRUPT`: the file is a damaged SQLite database.
    public var isCorrupt: Bool { code == ResultCode.corrupt.rawValue }

    /// The name of the primary result code (`"SQLITE_BUSY"`), for reports that group errors by code.
    public var codeName: String { ResultCode(rawValue: code & 0xFF).name }

    public var description: String {
        var text = "\(path): SQLite error \(code) (extended \(extendedCode)): \(message)"
        // One line, as every error FeedSim prints: the statement's line breaks become spaces.
        if let sql { text += " [SQL: \(sql.split(whereSeparator: \.isNewline).joined(separator: " "))]" }
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

/// A SQLite result code, named as SQLite names it (<https://sqlite.org/rescode.html>); the values
/// come from `sqlite3.h`, as GRDB's `ResultCode` does, never written out as numbers.
public struct ResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    init(_ code: Int32) { rawValue = Int(code) }

    public static let ok = ResultCode(SQLITE_OK)
    public static let error = ResultCode(SQLITE_ERROR)
    public static let busy = ResultCode(SQLITE_BUSY)
    public static let locked = ResultCode(SQLITE_LOCKED)
    public static let corrupt = ResultCode(SQLITE_CORRUPT)
    public static let ioError = ResultCode(SQLITE_IOERR)
    public static let constraint = ResultCode(SQLITE_CONSTRAINT)
    public static let notADatabase = ResultCode(SQLITE_NOTADB)
    /// `SQLITE_CONSTRAINT_PRIMARYKEY`, an extended code.
    public static let constraintPrimaryKey = ResultCode(feedsim_sqlite_constraint_primarykey())

    /// The primary codes' names.
    private static let names: [Int32: String] = [
        SQLITE_ERROR: "SQLITE_ERROR", SQLITE_INTERNAL: "SQLITE_INTERNAL", SQLITE_PERM: "SQLITE_PERM",
        SQLITE_ABORT: "SQLITE_ABORT", SQLITE_BUSY: "SQLITE_BUSY", SQLITE_LOCKED: "SQLITE_LOCKED",
        SQLITE_NOMEM: "SQLITE_NOMEM", SQLITE_READONLY: "SQLITE_READONLY", SQLITE_INTERRUPT: "SQLITE_INTERRUPT",
        SQLITE_IOERR: "SQLITE_IOERR", SQLITE_CORRUPT: "SQLITE_CORRUPT", SQLITE_NOTFOUND: "SQLITE_NOTFOUND",
        SQLITE_FULL: "SQLITE_FULL", SQLITE_CANTOPEN: "SQLITE_CANTOPEN", SQLITE_PROTOCOL: "SQLITE_PROTOCOL",
        SQLITE_SCHEMA: "SQLITE_SCHEMA", SQLITE_TOOBIG: "SQLITE_TOOBIG", SQLITE_CONSTRAINT: "SQLITE_CONSTRAINT",
        SQLITE_MISMATCH: "SQLITE_MISMATCH", SQLITE_MISUSE: "SQLITE_MISUSE", SQLITE_AUTH: "SQLITE_AUTH",
        SQLITE_RANGE: "SQLITE_RANGE", SQLITE_NOTADB: "SQLITE_NOTADB",
    ]

    /// `SQLITE_BUSY`, or `SQLITE_<n>` for a code without a name here.
    public var name: String { Self.names[Int32(truncatingIfNeeded: rawValue)] ?? "SQLITE_\(rawValue)" }
    public var description: String { name }
}

extension SQLiteError: NamedErrorCode {}

extension SQLiteError: PermanentBackendFailure {
    /// A damaged file (`SQLITE_CORRUPT`), not a database (`SQLITE_NOTADB`), or an I/O error
    /// (`SQLITE_IOERR`): no retry reads it right. Busy and constraint errors are not permanent.
    public var isPermanent: Bool { Self.permanentCodes.contains(ResultCode(rawValue: code)) }

    /// The primary codes of a permanent failure: `SQLITE_CORRUPT`, `SQLITE_NOTADB`, `SQLITE_IOERR`
    /// (their ``ResultCode/name``s are the keys a load report counts them under).
    public static let permanentCodes: [ResultCode] = [.corrupt, .notADatabase, .ioError]
}

extension StoreError: PermanentBackendFailure {
    /// ``corrupt(path:message:)`` and ``notADatabase(path:)``.
    public var isPermanent: Bool {
        switch self {
        case .corrupt, .notADatabase: true
        default: false
        }
    }
}
