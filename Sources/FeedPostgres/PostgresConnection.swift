internal import FeedSimPQ
import Foundation

/// One PostgreSQL connection: owns the `PGconn` and closes it (`PQfinish`) in `deinit`.
///
/// Not shared across threads (libpq allows one thread per connection at a time): open one per
/// thread, as with SQLite. Statements are prepared once per connection by name (`PQprepare`) and
/// executed with bound parameters (`PQexecPrepared`); SQL text is never built from input.
package final class PostgresConnection {
    package let handle: OpaquePointer
    /// `host:port/dbname` of the server actually connected to, for messages (no password).
    let database: String
    /// Names of the statements prepared on this connection.
    private var prepared: Set<String> = []
    private var inTransaction = false

    /// Connects with a libpq connection string: a URI (`postgresql://user@host:port/db?…`,
    /// `postgres://…`) or `key=value` pairs; what it leaves out comes from the `PG*` environment
    /// variables (`PGHOST`, `PGPORT`, `PGUSER`, `PGDATABASE`, `PGPASSWORD`, …) and libpq's defaults
    /// (<https://www.postgresql.org/docs/current/libpq-connect.html>).
    /// - Parameter settings: more connection keywords, which override the string's
    ///   (e.g. `options: -c search_path=…`).
    /// - Throws: ``PostgresStoreError/connectionFailed(target:message:)`` with libpq's message.
    package init(_ conninfo: String, settings: [(String, String)] = []) throws {
        // FeedSim's text is UTF-8: the server converts it to the database's encoding (and refuses
        // what that encoding cannot hold) instead of storing UTF-8 bytes as, say, LATIN1.
        let keywords = ["dbname", "client_encoding"] + settings.map(\.0)
        let values = [conninfo, "UTF8"] + settings.map(\.1)
        let connection: OpaquePointer? = withCStrings(keywords) { keywordPointers in
            withCStrings(values) { valuePointers in
                // expand_dbname = 1: `dbname` may itself be a URI or a conninfo string.
                PQconnectdbParams(keywordPointers, valuePointers, 1)
            }
        }
        guard let connection, PQstatus(connection) == CONNECTION_OK else {
            // libpq quotes a URI it cannot parse in its message: the password goes there too.
            let message = PostgresStore.redactingPasswords(
                connection.map { Self.trimmed(PQerrorMessage($0)) } ?? "out of memory", of: conninfo)
            PQfinish(connection)
            throw PostgresStoreError.connectionFailed(target: Self.redacted(conninfo), message: message)
        }
        handle = connection
        let host = PQhost(connection).map { String(cString: $0) } ?? ""
        let port = PQport(connection).map { String(cString: $0) } ?? ""
        let name = PQdb(connection).map { String(cString: $0) } ?? ""
        database = "\(host.hasPrefix("/") ? "[\(host)]" : host):\(port)/\(name)"
        // Notices (e.g. "relation already exists, skipping") are not FeedSim's output.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
    }

    deinit {
        PQfinish(handle)
    }

    /// The database's encoding as the server reported it at connection (`server_encoding`, e.g. `UTF8`).
    package var serverEncoding: String {
        PQparameterStatus(handle, "server_encoding").map { String(cString: $0) } ?? ""
    }

    /// `server_version_num`: e.g. 150018 for 15.18.
    var serverVersion: Int { Int(PQserverVersion(handle)) }

    // MARK: Commands

    /// Runs one or more statements without parameters (schema scripts, BEGIN / COMMIT).
    /// Never pass text that came from input: use ``execute(prepared:sql:_:)`` with bound parameters.
    /// - Throws: ``PostgresError``.
    @discardableResult
    package func execute(_ sql: String) throws -> PostgresResult {
        try check(PQexec(handle, sql), sql: sql)
    }

    /// Runs the statement `sql`, prepared on this connection under `name` at its first use, with
    /// `parameters` bound to `$1 … $n`.
    /// - Throws: ``PostgresError``.
    @discardableResult
    func execute(prepared name: String, sql: String, _ parameters: PostgresParameters) throws -> PostgresResult {
        if !prepared.contains(name) {
            _ = try check(PQprepare(handle, name, sql, 0, nil), sql: sql)
            prepared.insert(name)
        }
        let result = parameters.withValuePointers { values in
            PQexecPrepared(handle, name, Int32(parameters.count), values, nil, nil, 0)
        }
        return try check(result, sql: sql)
    }

    /// Runs `sql` with `parameters` without preparing it (one-off queries such as EXPLAIN).
    /// - Throws: ``PostgresError``.
    @discardableResult
    func execute(unprepared sql: String, _ parameters: PostgresParameters) throws -> PostgresResult {
        let result = parameters.withValuePointers { values in
            PQexecParams(handle, sql, Int32(parameters.count), nil, values, nil, nil, 0)
        }
        return try check(result, sql: sql)
    }

    /// Wraps `result`, or throws the error it carries (captured before the result is cleared).
    private func check(_ result: OpaquePointer?, sql: String?) throws -> PostgresResult {
        guard let result else { throw error(sql: sql) }
        let wrapped = PostgresResult(result)
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_COPY_IN, PGRES_EMPTY_QUERY:
            return wrapped
        default:
            throw error(result: result, sql: sql)
        }
    }

    /// The error of a failed result: SQLSTATE, primary message and detail.
    package func error(result: OpaquePointer, sql: String?) -> PostgresError {
        func field(_ code: Int32) -> String? {
            PQresultErrorField(result, code).map { String(cString: $0) }
        }
        let message = field(feedsim_pq_diag_message_primary()) ?? Self.trimmed(PQresultErrorMessage(result))
        return PostgresError(
            sqlState: field(feedsim_pq_diag_sqlstate()), message: message,
            detail: field(feedsim_pq_diag_message_detail()), sql: sql, database: database)
    }

    /// An error libpq reports on the connection itself (no result, or a COPY call failing).
    package func error(sql: String?) -> PostgresError {
        PostgresError(sqlState: nil, message: Self.trimmed(PQerrorMessage(handle)), sql: sql, database: database)
    }

    // MARK: Transactions

    /// Runs `body` in one transaction that commits when it returns and rolls back when it throws
    /// (rethrowing the first error). Inside another transaction it just runs `body`.
    /// - Parameter mode: what follows `BEGIN`, e.g. `ISOLATION LEVEL REPEATABLE READ READ ONLY`.
    /// - Throws: ``PostgresError`` from BEGIN / COMMIT; whatever `body` throws.
    func transaction<T>(_ mode: String = "", _ body: () throws -> T) throws -> T {
        if inTransaction { return try body() }
        try execute(mode.isEmpty ? "BEGIN" : "BEGIN \(mode)")
        inTransaction = true
        defer { inTransaction = false }
        let value: T
        do {
            value = try body()
        } catch {
            _ = try? execute("ROLLBACK")
            throw error
        }
        try execute("COMMIT")
        return value
    }

    /// Runs `body` in a transaction that is always rolled back: its queries see its writes, the
    /// database keeps none of them.
    /// - Throws: ``PostgresError`` from BEGIN; whatever `body` throws.
    func discardingWrites<T>(_ body: () throws -> T) throws -> T {
        precondition(!inTransaction, "discardingWrites cannot nest in a transaction")
        try execute("BEGIN")
        inTransaction = true
        defer {
            inTransaction = false
            _ = try? execute("ROLLBACK")
        }
        return try body()
    }

    // MARK: COPY

    /// Runs `COPY … FROM STDIN` (`sql`) and streams the rows `fill` writes, in PostgreSQL's text
    /// format, in chunks of ``copyChunkBytes``.
    /// - Parameter fill: called repeatedly with an empty buffer to append rows to; returns `false`
    ///   when there are no more rows.
    /// - Returns: the number of rows copied.
    /// - Throws: ``PostgresError`` (the COPY is ended with an error so the server discards it).
    func copyIn(_ sql: String, fill: (inout [UInt8]) throws -> Bool) throws -> Int {
        _ = try execute(sql)  // PGRES_COPY_IN
        var buffer: [UInt8] = []
        buffer.reserveCapacity(Self.copyChunkBytes + 4_096)
        do {
            var more = true
            while more {
                buffer.removeAll(keepingCapacity: true)
                more = try fill(&buffer)
                if !buffer.isEmpty {
                    let sent = buffer.withUnsafeBufferPointer { bytes in
                        bytes.withMemoryRebound(to: CChar.self) {
                            PQputCopyData(handle, $0.baseAddress, Int32($0.count))
                        }
                    }
                    guard sent == 1 else { throw error(sql: sql) }
                }
            }
        } catch {
            PQputCopyEnd(handle, "feedsim: copy aborted")
            while let result = PQgetResult(handle) { PQclear(result) }
            throw error
        }
        guard PQputCopyEnd(handle, nil) == 1 else { throw error(sql: sql) }
        var failure: PostgresError?
        var rows = 0
        while let result = PQgetResult(handle) {
            if PQresultStatus(result) != PGRES_COMMAND_OK, failure == nil {
                failure = error(result: result, sql: sql)
            } else if let count = PQcmdTuples(result) {
                rows = Int(String(cString: count)) ?? rows
            }
            PQclear(result)
        }
        if let failure { throw failure }
        return rows
    }

    /// Bytes gathered before one `PQputCopyData` call.
    package static let copyChunkBytes = 256 * 1_024

    // MARK: Helpers

    private static func trimmed(_ text: UnsafePointer<CChar>?) -> String {
        guard let text else { return "unknown error" }
        return String(cString: text).trimmingCharacters(in: .whitespacesAndNewlines)
            .replacingOccurrences(of: "\n", with: "; ")
    }

    /// The connection string without a password, for messages: ``PostgresStore/redacted(_:)``.
    static func redacted(_ conninfo: String) -> String { PostgresStore.redacted(conninfo) }
}

/// Calls `body` with a NULL-terminated C array of C strings, valid only during the call.
private func withCStrings<T>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> T) -> T {
    let copies = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    var pointers: [UnsafePointer<CChar>?] = copies.map { $0.map { UnsafePointer($0) } } + [nil]
    return pointers.withUnsafeMutableBufferPointer { body(UnsafePointer($0.baseAddress!)) }
}
