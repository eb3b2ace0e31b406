internal import FeedSimPQ
import FeedModel
import FeedPostgres
import Foundation

/// The baseline of ``PostgresBenchmark``: the same work as ``PostgresStore`` written directly
/// against libpq, as someone would by hand — `PQexecPrepared` with text parameters built in place,
/// `PQgetvalue` read with `strtoll` / `strtod`, COPY rows formatted with string interpolation.
/// Uses the same SQL text, so the comparison measures the wrapper, not the query.
final class RawPostgres {
    /// Only for the benchmark's set-up (schema, ANALYZE); the measured loops call libpq directly.
    let connection: PostgresConnection
    private var handle: OpaquePointer { connection.handle }

    init(conninfo: String, schema: String) throws {
        connection = try PostgresConnection(conninfo, settings: [("options", "-c search_path=\(schema)")])
    }

    func createSchema(_ scripts: [String]) throws {
        for script in scripts { try connection.execute(script) }
    }

    func feedID() throws -> Int64 {
        try connection.execute("SELECT id FROM feeds WHERE name = 'home'").int64(0, 0)
    }

    func exec(_ sql: String) throws {
        guard let result = PQexec(handle, sql) else { throw connection.error(sql: sql) }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK || status == PGRES_COPY_IN else {
            throw connection.error(result: result, sql: sql)
        }
    }

    /// BEGIN; the feed; COPY of `count` generated items in 256 KiB chunks, in the binary format
    /// (as ``PostgresStore`` on a UTF-8 database) written with `bigEndian` values; the feed's row
    /// key-share locked; COMMIT.
    func seed(count: Int, next: () -> NewItem) throws {
        precondition(connection.serverEncoding.uppercased() == "UTF8", "the raw loop writes binary COPY (UTF-8 text)")
        try exec("BEGIN")
        try exec("INSERT INTO feeds (name) VALUES ('home')")
        let feed = try feedID()
        try exec(PostgresStore.copySQL + " WITH BINARY")
        var chunk: [UInt8] = Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0x00] + [UInt8](repeating: 0, count: 8)
        chunk.reserveCapacity(300_000)
        func put<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.bigEndian) { chunk.append(contentsOf: $0) }
        }
        func put8(_ value: UInt64) {
            put(Int32(8))
            put(value)
        }
        func put(_ text: String) {
            let bytes = Array(text.utf8)
            put(Int32(bytes.count))
            chunk.append(contentsOf: bytes)
        }
        func send() throws {
            let sent = chunk.withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { PQputCopyData(handle, $0.baseAddress, Int32($0.count)) }
            }
            guard sent == 1 else { throw connection.error(sql: "COPY") }
            chunk.removeAll(keepingCapacity: true)
        }
        for _ in 0..<count {
            let item = next()
            put(Int16(8))
            put8(UInt64(bitPattern: feed))
            put8(UInt64(bitPattern: item.publishedAt))
            put(item.kind)
            put8(item.width.bitPattern)
            put8(item.height.bitPattern)
            put(item.title)
            put(item.author)
            put(item.payload)
            if chunk.count >= PostgresConnection.copyChunkBytes { try send() }
        }
        put(Int16(-1))
        try send()
        guard PQputCopyEnd(handle, nil) == 1 else { throw connection.error(sql: "COPY") }
        while let result = PQgetResult(handle) {
            defer { PQclear(result) }
            guard PQresultStatus(result) == PGRES_COMMAND_OK else { throw connection.error(result: result, sql: "COPY") }
        }
        // The feed kept until COMMIT, as PostgresStore does without a foreign key (schema version 2).
        try exec("SELECT id FROM feeds WHERE id = \(feed) FOR KEY SHARE")
        try exec("COMMIT")
    }

    /// Runs a prepared statement with text parameters. `body` reads the result before it is cleared.
    func run<T>(_ name: String, _ values: [String], _ body: (OpaquePointer) -> T) throws -> T {
        let copies = values.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        var pointers = copies.map { UnsafePointer<CChar>($0) }
        let result = pointers.withUnsafeMutableBufferPointer {
            PQexecPrepared(handle, name, Int32(values.count), UnsafePointer($0.baseAddress), nil, nil, 0)
        }
        guard let result else { throw connection.error(sql: name) }
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_TUPLES_OK else { throw connection.error(result: result, sql: name) }
        return body(result)
    }

    func prepare(_ name: String, _ sql: String) throws {
        guard let result = PQprepare(handle, name, sql, 0, nil) else { throw connection.error(sql: sql) }
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_COMMAND_OK else { throw connection.error(result: result, sql: sql) }
    }

    private var walkPrepared = false

    /// Newest page, then `after` pages (page and probe in one statement) to the end.
    func walk(feed: Int64, limit: Int) throws -> (pages: Int, items: Int) {
        if !walkPrepared {
            try prepare("raw_newest", PostgresStore.newestSQL(rows: limit + 1))
            try prepare("raw_after", KeysetDirection.after.sql(rows: limit + 1))
            walkPrepared = true
        }
        func stubs(_ result: OpaquePointer) -> (items: [Item], behind: Bool) {
            var items: [Item] = []
            let rows = PQntuples(result)
            items.reserveCapacity(Int(rows))
            let hasProbe = PQnfields(result) > 5
            for row in 0..<rows where PQgetisnull(result, row, 0) == 0 {
                items.append(
                    Item(
                        id: strtoll(PQgetvalue(result, row, 0), nil, 10),
                        publishedAt: strtoll(PQgetvalue(result, row, 1), nil, 10),
                        kind: String(cString: PQgetvalue(result, row, 2)),
                        width: strtod(PQgetvalue(result, row, 3), nil), height: strtod(PQgetvalue(result, row, 4), nil)))
            }
            let behind = hasProbe && rows > 0 && PQgetvalue(result, 0, 5).pointee == 116
            return (items, behind)
        }
        var page = try run("raw_newest", [String(feed)], stubs).items
        var pages = 1
        var total = min(page.count, limit)
        while page.count > limit {
            page.removeLast()
            let last = page[page.count - 1]
            page = try run("raw_after", [String(feed), String(last.publishedAt), String(last.id)], stubs)
                .items
            pages += 1
            total += min(page.count, limit)
        }
        return (pages, total)
    }

    private var rowsPrepared = false

    /// Rows for each batch with one `= ANY($1)` statement, returned in the requested order.
    func rows(batches: [[Int64]]) throws -> Int {
        if !rowsPrepared {
            try prepare("raw_rows", "SELECT id, title, author, payload FROM items WHERE id = ANY($1::BIGINT[])")
            rowsPrepared = true
        }
        var found = 0
        for ids in batches {
            let literal = "{" + ids.map(String.init).joined(separator: ",") + "}"
            let byID = try run("raw_rows", [literal]) { result -> [Int64: ItemRow] in
                var byID: [Int64: ItemRow] = [:]
                for row in 0..<PQntuples(result) {
                    let id = strtoll(PQgetvalue(result, row, 0), nil, 10)
                    byID[id] = ItemRow(
                        id: id, title: String(cString: PQgetvalue(result, row, 1)),
                        author: String(cString: PQgetvalue(result, row, 2)),
                        payload: String(cString: PQgetvalue(result, row, 3)))
                }
                return byID
            }
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
