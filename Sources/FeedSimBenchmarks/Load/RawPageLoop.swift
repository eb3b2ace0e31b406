import FeedEngine
import FeedLayout
import FeedModel
import FeedReplay
import FeedResources
import FeedStore
import FeedLoad
import Foundation
internal import FeedSimSQLite
import Synchronization

/// The baseline of `feedsim bench load`: the page and row queries a scroll session runs, as a
/// bare loop over the SQLite C API on `threads` threads, one connection each, no think time.
///
/// It runs under the store's settings: serialized mode with the connection's mutex held across
/// each statement (as `Connection.serialized`), the same transactions, and it reads every column it selects (the rows' ids and the probe's answer included, as any client
/// that uses them must; the store benchmark's baseline reads them too) and discards the values.
///
/// Each walk is what a session does to the store: the newest page, then More pages by keyset
/// cursor (each with the store's "newer items exist" probe, the two in one read transaction, as
/// ``FeedStore/ItemStore/after(_:feed:limit:)`` runs them; with `rowsInPageTransaction`, as a
/// pagination session runs a page request, the page's rows too), and the rows of every page's items in
/// `IN (…)` statements of at most `rowBatchSize` ids (a pagination session fetches a page's rows in
/// batches of the virtualizer's row batch limit; replay sessions fetch them as items enter the
/// preload range, a few at a time, so the benchmark passes their measured average); a walk ends
/// after `pagesPerWalk` pages and the next one starts at the top again, as a new session would.
enum RawPageLoop {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs for `seconds` wall seconds.
    /// - Returns: pages and rows fetched, the seconds taken, and the threads' on-CPU seconds (``ThreadCPUClock``).
    static func run(
        path: String, feed: Int64, threads: Int, pageSize: Int, pagesPerWalk: Int, rowBatchSize: Int,
        rowsInPageTransaction: Bool, seconds: Double
    ) throws -> (pages: Int, rows: Int, seconds: Double, cpuSeconds: Double) {
        let totals = Mutex((pages: 0, rows: 0, cpu: UInt64(0), error: String?.none))
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start.advanced(by: .nanoseconds(Int64(seconds * 1e9)))
        let group = DispatchGroup()
        for _ in 0..<threads {
            group.enter()
            Thread {
                defer { group.leave() }
                let cpuStart = ThreadCPUClock.now()
                defer {
                    let cpu = ThreadCPUClock.now() &- cpuStart
                    totals.withLock { $0.cpu += cpu }
                }
                do {
                    let counts = try loop(
                        path: path, feed: feed, pageSize: pageSize, pagesPerWalk: pagesPerWalk,
                        rowBatchSize: rowBatchSize, rowsInPageTransaction: rowsInPageTransaction
                    ) {
                        clock.now >= deadline
                    }
                    totals.withLock {
                        $0.pages += counts.pages
                        $0.rows += counts.rows
                    }
                } catch {
                    totals.withLock { $0.error = String(describing: error) }
                }
            }.start()
        }
        group.wait()
        let elapsed = start.duration(to: clock.now).seconds
        let result = totals.withLock { $0 }
        if let error = result.error { throw Failure(description: "raw page loop: \(error)") }
        return (result.pages, result.rows, elapsed, Double(result.cpu) / 1e9)
    }

    /// A text column as SQLite's docs advise reading it: the bytes, then their count (a text may
    /// hold a NUL), decoded as UTF-8; the store and the store benchmark's baseline read it so too.
    @inline(__always)
    private static func text(_ statement: OpaquePointer, _ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(statement, column) else { return "" }
        return String(
            decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(statement, column))),
            as: UTF8.self)
    }

    private static func loop(
        path: String, feed: Int64, pageSize: Int, pagesPerWalk: Int, rowBatchSize: Int,
        rowsInPageTransaction: Bool, done: () -> Bool
    ) throws -> (pages: Int, rows: Int) {
        var db: OpaquePointer?
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX, nil) == SQLITE_OK, let db else {
            sqlite3_close_v2(db)
            throw Failure(description: "cannot open \(path)")
        }
        defer { sqlite3_close_v2(db) }
        func prepare(_ sql: String) throws -> OpaquePointer {
            var statement: OpaquePointer?
            guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
                throw Failure(description: String(cString: sqlite3_errmsg(db)))
            }
            return statement
        }
        let columns = "id, published_at, kind, width, height"
        let newest = try prepare(
            "SELECT \(columns) FROM items WHERE feed_id = ?1 ORDER BY published_at DESC, id DESC LIMIT ?2")
        let after = try prepare(
            """
            SELECT \(columns) FROM items WHERE feed_id = ?1 AND (published_at, id) < (?2, ?3)
            ORDER BY published_at DESC, id DESC LIMIT ?4
            """)
        let newer = try prepare(
            "SELECT EXISTS (SELECT 1 FROM items WHERE feed_id = ?1 AND (published_at, id) > (?2, ?3))")
        let begin = try prepare("BEGIN")
        let commit = try prepare("COMMIT")
        // One rows statement per batch size, 1...pageSize.
        let rowStatements = try (1...pageSize).map { size in
            let marks = Array(repeating: "?", count: size).joined(separator: ", ")
            return try prepare("SELECT id, title, author, payload FROM items WHERE id IN (\(marks))")
        }
        defer {
            for statement in [newest, after, newer, begin, commit] + rowStatements { sqlite3_finalize(statement) }
        }
        let batchSize = max(1, min(pageSize, rowBatchSize))
        let mutex = sqlite3_db_mutex(db)
        var pages = 0
        var rowCount = 0
        var ids = [Int64](repeating: 0, count: pageSize + 1)
        while !done() {
            var cursor: (Int64, Int64)?
            for _ in 0..<pagesPerWalk {
                let statement: OpaquePointer
                // As the sessions: a pagination session's page, probe and rows in one read
                // transaction; a replay session's More page and probe in one (the store's `after`),
                // its rows later, each statement on its own.
                let inTransaction = rowsInPageTransaction || cursor != nil
                if inTransaction {
                    guard sqlite3_step(begin) == SQLITE_DONE else { throw Failure(description: "BEGIN failed") }
                    sqlite3_reset(begin)
                }
                // As the store: the connection's mutex held across the page query and its probe.
                sqlite3_mutex_enter(mutex)
                if let (publishedAt, id) = cursor {
                    statement = after
                    sqlite3_bind_int64(statement, 1, feed)
                    sqlite3_bind_int64(statement, 2, publishedAt)
                    sqlite3_bind_int64(statement, 3, id)
                    sqlite3_bind_int64(statement, 4, Int64(pageSize + 1))
                } else {
                    statement = newest
                    sqlite3_bind_int64(statement, 1, feed)
                    sqlite3_bind_int64(statement, 2, Int64(pageSize + 1))
                }
                var count = 0
                var first: (Int64, Int64)?
                var last: (Int64, Int64)?
                while sqlite3_step(statement) == SQLITE_ROW {
                    let id = sqlite3_column_int64(statement, 0)
                    let publishedAt = sqlite3_column_int64(statement, 1)
                    _ = text(statement, 2)
                    _ = sqlite3_column_double(statement, 3)
                    _ = sqlite3_column_double(statement, 4)
                    if count == 0 { first = (publishedAt, id) }
                    ids[count] = id
                    count += 1
                    if count <= pageSize { last = (publishedAt, id) }
                }
                sqlite3_reset(statement)
                // As the store: the probe starts at the first item's cursor, else at the request's.
                if let probe = cursor.map({ first ?? $0 }) {
                    sqlite3_bind_int64(newer, 1, feed)
                    sqlite3_bind_int64(newer, 2, probe.0)
                    sqlite3_bind_int64(newer, 3, probe.1)
                    if sqlite3_step(newer) == SQLITE_ROW { _ = sqlite3_column_int64(newer, 0) }
                    sqlite3_reset(newer)
                }
                sqlite3_mutex_leave(mutex)
                if inTransaction && !rowsInPageTransaction {
                    guard sqlite3_step(commit) == SQLITE_DONE else { throw Failure(description: "COMMIT failed") }
                    sqlite3_reset(commit)
                }
                pages += 1
                let onPage = min(count, pageSize)
                var start = 0
                while start < onPage {
                    let end = min(onPage, start + batchSize)
                    let rows = rowStatements[end - start - 1]
                    sqlite3_mutex_enter(mutex)  // as the store: held across a rows statement
                    defer { sqlite3_mutex_leave(mutex) }
                    for index in start..<end { sqlite3_bind_int64(rows, Int32(index - start + 1), ids[index]) }
                    while sqlite3_step(rows) == SQLITE_ROW {
                        _ = sqlite3_column_int64(rows, 0)  // which item the row is: a row is of no use without it
                        _ = text(rows, 1)
                        _ = text(rows, 2)
                        _ = text(rows, 3)
                        rowCount += 1
                    }
                    sqlite3_reset(rows)
                    start = end
                }
                if rowsInPageTransaction {
                    guard sqlite3_step(commit) == SQLITE_DONE else { throw Failure(description: "COMMIT failed") }
                    sqlite3_reset(commit)
                }
                guard count > pageSize, let last else { break }  // end of the feed
                cursor = last
                if done() { break }
            }
        }
        return (pages, rowCount)
    }
}
