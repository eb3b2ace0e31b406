internal import FeedSimPQ
import FeedModel
import FeedPostgres
import Foundation

extension RawPostgres {
    /// What a pagination load session does to PostgreSQL, by hand against libpq, until `done()`:
    /// walks of `pagesPerWalk` pages from the newest, each page request one
    /// `REPEATABLE READ READ ONLY` transaction holding the page (newest, or a keyset page with its
    /// probe in one statement: the store's SQL) and its rows in `= ANY($1)` statements of at most
    /// `rowBatchSize` ids; the next walk starts at the top again, as a new session would. Every
    /// column selected is read (`strtoll`, `strtod`, `String(cString:)`), as any client must.
    /// - Returns: pages and rows fetched.
    /// - Throws: ``PostgresError`` from a failed statement.
    func pageLoop(
        feed: Int64, pageSize: Int, pagesPerWalk: Int, rowBatchSize: Int, done: () -> Bool
    ) throws -> (pages: Int, rows: Int) {
        try prepare("raw_loop_newest", PostgresStore.newestSQL(rows: pageSize + 1))
        try prepare("raw_loop_after", KeysetDirection.after.sql(rows: pageSize + 1))
        try prepare("raw_loop_rows", "SELECT id, title, author, payload FROM items WHERE id = ANY($1::BIGINT[])")
        let batch = max(1, min(pageSize, rowBatchSize))
        var pages = 0
        var rows = 0
        var ids: [Int64] = []
        ids.reserveCapacity(pageSize + 1)
        while !done() {
            var cursor: (publishedAt: Int64, id: Int64)?
            for _ in 0..<pagesPerWalk {
                try exec("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
                ids.removeAll(keepingCapacity: true)
                var last: (publishedAt: Int64, id: Int64)?
                let values = cursor.map { [String(feed), String($0.publishedAt), String($0.id)] } ?? [String(feed)]
                let count = try run(cursor == nil ? "raw_loop_newest" : "raw_loop_after", values) { result -> Int in
                    var count = 0
                    for row in 0..<PQntuples(result) where PQgetisnull(result, row, 0) == 0 {
                        let id = strtoll(PQgetvalue(result, row, 0), nil, 10)
                        let publishedAt = strtoll(PQgetvalue(result, row, 1), nil, 10)
                        _ = String(cString: PQgetvalue(result, row, 2))
                        _ = strtod(PQgetvalue(result, row, 3), nil)
                        _ = strtod(PQgetvalue(result, row, 4), nil)
                        if PQnfields(result) > 5 { _ = PQgetvalue(result, row, 5).pointee }  // the probe
                        count += 1
                        if count <= pageSize {
                            ids.append(id)
                            last = (publishedAt, id)
                        }
                    }
                    return count
                }
                var start = 0
                while start < ids.count {
                    let end = min(ids.count, start + batch)
                    let literal = "{" + ids[start..<end].map(String.init).joined(separator: ",") + "}"
                    rows += try run("raw_loop_rows", [literal]) { result -> Int in
                        for row in 0..<PQntuples(result) {
                            _ = strtoll(PQgetvalue(result, row, 0), nil, 10)
                            _ = String(cString: PQgetvalue(result, row, 1))
                            _ = String(cString: PQgetvalue(result, row, 2))
                            _ = String(cString: PQgetvalue(result, row, 3))
                        }
                        return Int(PQntuples(result))
                    }
                    start = end
                }
                try exec("COMMIT")
                pages += 1
                guard count > pageSize, let last else { break }  // end of the feed
                cursor = last
                if done() { break }
            }
        }
        return (pages, rows)
    }
}
