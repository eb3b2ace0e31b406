import FeedEngine
import FeedLayout
import FeedModel
import FeedReplay
import FeedResources
import FeedStore
import FeedLoad
import Foundation
internal import FeedSimSQLite

/// The baseline of `feedsim bench store`: the same work as the store's API, written as a minimal
/// loop over the SQLite C API (no wrapper classes, no statement cache lookups, no error structs).
enum RawSQLite {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func check(_ code: Int32, _ db: OpaquePointer?, _ what: String) throws {
        if code != SQLITE_OK && code != SQLITE_DONE && code != SQLITE_ROW {
            throw Failure(description: "raw baseline: \(what): \(db.map { String(cString: sqlite3_errmsg($0)) } ?? "")")
        }
    }

    static func close(_ db: OpaquePointer) {
        sqlite3_close_v2(db)
    }

    static func open(_ path: String) throws -> OpaquePointer {
        var db: OpaquePointer?
        try check(
            sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nil), db,
            "open")
        guard let db else { throw Failure(description: "raw baseline: open returned no handle") }
        try check(
            sqlite3_exec(
                db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON", nil, nil, nil),
            db, "pragmas")
        return db
    }

    static func prepare(_ db: OpaquePointer, _ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        try check(sqlite3_prepare_v2(db, sql, -1, &statement, nil), db, "prepare")
        guard let statement else { throw Failure(description: "raw baseline: prepare returned no statement") }
        return statement
    }

    static func bindText(_ statement: OpaquePointer, _ index: Int32, _ text: String) {
        var text = text
        _ = text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                if let base = chars.baseAddress {
                    sqlite3_bind_text(statement, index, base, Int32(chars.count), feedsim_sqlite_transient())
                } else {
                    sqlite3_bind_text(statement, index, "", 0, feedsim_sqlite_transient())
                }
            }
        }
    }

    static func columnText(_ statement: OpaquePointer, _ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(statement, column) else { return "" }
        return String(
            decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(statement, column))),
            as: UTF8.self)
    }

    /// Creates the schema on a fresh file and inserts `count` generated items in one transaction.
    static func seed(path: String, schema: String, generator: inout ItemGenerator, count: Int) throws {
        let db = try open(path)
        defer { sqlite3_close_v2(db) }
        try check(sqlite3_exec(db, schema, nil, nil, nil), db, "schema")
        try check(sqlite3_exec(db, "INSERT INTO feeds (name) VALUES ('home')", nil, nil, nil), db, "feed")
        let feed = sqlite3_last_insert_rowid(db)
        try check(sqlite3_exec(db, "BEGIN IMMEDIATE", nil, nil, nil), db, "begin")
        let statement = try prepare(db, ItemStore.insertSQL)
        defer { sqlite3_finalize(statement) }
        for _ in 0..<count {
            let item = generator.next()
            sqlite3_bind_int64(statement, 2, feed)
            sqlite3_bind_int64(statement, 3, item.publishedAt)
            bindText(statement, 4, item.kind)
            sqlite3_bind_double(statement, 5, item.width)
            sqlite3_bind_double(statement, 6, item.height)
            bindText(statement, 7, item.title)
            bindText(statement, 8, item.author)
            bindText(statement, 9, item.payload)
            try check(sqlite3_step(statement), db, "insert")
            sqlite3_reset(statement)
        }
        try check(sqlite3_exec(db, "COMMIT", nil, nil, nil), db, "commit")
    }

    /// Walks the whole feed in `after` pages of `limit`, with the same two queries per page as
    /// ``ItemStore/after(_:feed:limit:)`` (page of limit + 1, then "any newer?", in one read
    /// transaction).
    /// - Returns: pages and items read.
    static func walk(db: OpaquePointer, feed: Int64, limit: Int) throws -> (pages: Int, items: Int) {
        let newest = try prepare(db, ItemStore.newestSQL)
        let after = try prepare(db, ItemStore.afterSQL)
        let newer = try prepare(db, ItemStore.newerExistsSQL)
        let begin = try prepare(db, "BEGIN")
        let commit = try prepare(db, "COMMIT")
        defer {
            for statement in [newest, after, newer, begin, commit] { sqlite3_finalize(statement) }
        }
        // As the store: the connection's mutex held across each statement (`Connection.serialized`).
        let mutex = sqlite3_db_mutex(db)
        func read(_ statement: OpaquePointer) throws -> [Item] {
            sqlite3_mutex_enter(mutex)
            defer { sqlite3_mutex_leave(mutex) }
            var items: [Item] = []
            var code = sqlite3_step(statement)
            while code == SQLITE_ROW {
                items.append(
                    Item(
                        id: sqlite3_column_int64(statement, 0), publishedAt: sqlite3_column_int64(statement, 1),
                        kind: columnText(statement, 2), width: sqlite3_column_double(statement, 3),
                        height: sqlite3_column_double(statement, 4)))
                code = sqlite3_step(statement)
            }
            try check(code, db, "page")
            sqlite3_reset(statement)
            return items
        }
        sqlite3_bind_int64(newest, 1, feed)
        sqlite3_bind_int64(newest, 2, Int64(limit + 1))
        var page = try read(newest)
        var pages = 1
        var total = min(page.count, limit)
        while page.count > limit {
            page.removeLast()
            let last = page[page.count - 1]
            try check(sqlite3_step(begin), db, "begin")
            sqlite3_reset(begin)
            sqlite3_bind_int64(after, 1, feed)
            sqlite3_bind_int64(after, 2, last.publishedAt)
            sqlite3_bind_int64(after, 3, last.id)
            sqlite3_bind_int64(after, 4, Int64(limit + 1))
            page = try read(after)
            let first = page.first ?? last
            sqlite3_mutex_enter(mutex)
            defer { sqlite3_mutex_leave(mutex) }
            sqlite3_bind_int64(newer, 1, feed)
            sqlite3_bind_int64(newer, 2, first.publishedAt)
            sqlite3_bind_int64(newer, 3, first.id)
            try check(sqlite3_step(newer), db, "exists")
            _ = sqlite3_column_int64(newer, 0)
            sqlite3_reset(newer)
            try check(sqlite3_step(commit), db, "commit")
            sqlite3_reset(commit)
            pages += 1
            total += min(page.count, limit)
        }
        return (pages, total)
    }

    /// Fetches rows for `batches` of ids with one `IN (?, ...)` statement per batch, returning
    /// them in the requested order (the same work as ``ItemStore/rows(ids:)``).
    /// - Returns: rows found.
    static func rows(db: OpaquePointer, batches: [[Int64]]) throws -> Int {
        var statements: [Int: OpaquePointer] = [:]
        defer {
            for statement in statements.values { sqlite3_finalize(statement) }
        }
        let mutex = sqlite3_db_mutex(db)
        var found = 0
        for ids in batches {
            let statement: OpaquePointer
            if let cached = statements[ids.count] {
                statement = cached
            } else {
                statement = try prepare(db, ItemStore.rowsSQL(count: ids.count))
                statements[ids.count] = statement
            }
            sqlite3_mutex_enter(mutex)  // as the store: held across each rows statement
            defer { sqlite3_mutex_leave(mutex) }
            for (offset, id) in ids.enumerated() { sqlite3_bind_int64(statement, Int32(offset + 1), id) }
            var byID: [Int64: ItemRow] = [:]
            byID.reserveCapacity(ids.count)
            var code = sqlite3_step(statement)
            while code == SQLITE_ROW {
                let row = ItemRow(
                    id: sqlite3_column_int64(statement, 0), title: columnText(statement, 1),
                    author: columnText(statement, 2), payload: columnText(statement, 3))
                byID[row.id] = row
                code = sqlite3_step(statement)
            }
            try check(code, db, "rows")
            sqlite3_reset(statement)
            var rows: [ItemRow] = []
            rows.reserveCapacity(ids.count)
            var missing: [Int64] = []
            for id in ids {
                if let row = byID[id] { rows.append(row) } else { missing.append(id) }
            }
            found += rows.count
        }
        return found
    }
}
