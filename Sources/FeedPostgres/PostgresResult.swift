internal import FeedSimPQ
import Foundation

/// One result of a PostgreSQL command (a `PGresult`), cleared (`PQclear`) in `deinit`.
///
/// Values are read in text format, as libpq returns them by default; the accessors parse them
/// in place from libpq's buffer, without an intermediate `String` for numbers.
package final class PostgresResult {
    let handle: OpaquePointer

    init(_ handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        PQclear(handle)
    }

    /// Rows in the result.
    var rowCount: Int { Int(PQntuples(handle)) }

    /// The number of rows a command touched (`PQcmdTuples`: INSERT, UPDATE, DELETE, COPY), 0 when not given.
    var affectedRows: Int {
        guard let text = PQcmdTuples(handle) else { return 0 }
        return Int(String(cString: text)) ?? 0
    }

    func isNull(_ row: Int, _ column: Int) -> Bool {
        PQgetisnull(handle, Int32(row), Int32(column)) != 0
    }

    /// The value as text (`""` for NULL).
    func text(_ row: Int, _ column: Int) -> String {
        String(cString: PQgetvalue(handle, Int32(row), Int32(column)))
    }

    /// A decimal integer value, parsed in place (0 for NULL or non-numeric text).
    package func int64(_ row: Int, _ column: Int) -> Int64 {
        guard var pointer = UnsafePointer<CChar>(PQgetvalue(handle, Int32(row), Int32(column))) else { return 0 }
        var negative = false
        if pointer.pointee == 45 {  // "-"
            negative = true
            pointer += 1
        }
        var value: Int64 = 0
        while pointer.pointee >= 48 && pointer.pointee <= 57 {
            value = value &* 10 &- Int64(pointer.pointee - 48)  // accumulate negatively: Int64.min parses
            pointer += 1
        }
        return negative ? value : -value
    }

    /// A floating-point value (`strtod` on libpq's text; 0 for NULL).
    func double(_ row: Int, _ column: Int) -> Double {
        guard let pointer = PQgetvalue(handle, Int32(row), Int32(column)) else { return 0 }
        return strtod(pointer, nil)
    }

    /// `t` / `f` as PostgreSQL prints booleans.
    func bool(_ row: Int, _ column: Int) -> Bool {
        guard let pointer = PQgetvalue(handle, Int32(row), Int32(column)) else { return false }
        return pointer.pointee == 116  // "t"
    }
}
