import FeedModel

/// Names for backend error codes, so the report groups errors by code (SQLite's result codes,
/// <https://sqlite.org/rescode.html>, named by the backend's own error type).
public enum LoadErrorCode {
    /// The report's name for `error`: its code's name (``FeedModel/NamedErrorCode``:
    /// `"SQLITE_BUSY"`), or `"other"`.
    public static func name(of error: any Error) -> String {
        (error as? any NamedErrorCode)?.codeName ?? "other"
    }
}
