import FeedStore

/// Names for SQLite result codes, so the report groups errors by code
/// (<https://sqlite.org/rescode.html>).
public enum LoadErrorCode {
    /// The name of a primary result code, e.g. 5 → `"SQLITE_BUSY"`.
    public static func name(ofPrimary code: Int) -> String {
        let names: [Int: String] = [
            1: "SQLITE_ERROR", 2: "SQLITE_INTERNAL", 3: "SQLITE_PERM", 4: "SQLITE_ABORT", 5: "SQLITE_BUSY",
            6: "SQLITE_LOCKED", 7: "SQLITE_NOMEM", 8: "SQLITE_READONLY", 9: "SQLITE_INTERRUPT", 10: "SQLITE_IOERR",
            11: "SQLITE_CORRUPT", 12: "SQLITE_NOTFOUND", 13: "SQLITE_FULL", 14: "SQLITE_CANTOPEN",
            15: "SQLITE_PROTOCOL", 17: "SQLITE_SCHEMA", 18: "SQLITE_TOOBIG", 19: "SQLITE_CONSTRAINT",
            20: "SQLITE_MISMATCH", 21: "SQLITE_MISUSE", 23: "SQLITE_AUTH", 25: "SQLITE_RANGE", 26: "SQLITE_NOTADB",
        ]
        return names[code & 0xFF] ?? "SQLITE_\(code & 0xFF)"
    }

    /// The report's name for `error`: the SQLite primary code's name, or `"other"`.
    public static func name(of error: any Error) -> String {
        if let error = error as? RawSQLiteError { return name(ofPrimary: error.code) }
        if let error = error as? SQLiteError { return name(ofPrimary: error.code) }
        return "other"
    }
}
