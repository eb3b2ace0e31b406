import Testing

@testable import FeedSimBenchmarks

/// The pgbench script `bench load --db` sets FeedSim's pagination sessions beside.
@Suite struct PostgresLoadBenchmarkTests {
    @Test func thePageRequestScriptRunsOnePageAndItsRowsPerTransaction() {
        let lines = LoadBenchmark.pgbenchPageRequestScript(pageSize: 3, rowBatchSize: 2).split(separator: "\n")
        // The random cursor, 3 random ids, then BEGIN, the page statement, rows of 2 + 1 ids, COMMIT.
        #expect(
            Array(lines.prefix(5)) == [
                "\\set pa random(:lo, :hi)", "\\set id random(1, :maxid)", "\\set r1 random(1, :maxid)",
                "\\set r2 random(1, :maxid)", "\\set r3 random(1, :maxid)",
            ])
        #expect(lines[5] == "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY;")
        // The store's keyset statement for pages of 3 (4 rows: the limit + 1 probe), on one line.
        #expect(lines[6].hasPrefix("WITH page AS (") && lines[6].contains("SELECT id, published_at, kind, width, height FROM items"))
        #expect(lines[6].contains("WHERE feed_id = :feed AND (published_at, id) < (:pa, :id)"))
        #expect(lines[6].contains("LIMIT 4") && lines[6].hasSuffix(";"))
        #expect(
            Array(lines.suffix(3)) == [
                "SELECT id, title, author, payload FROM items WHERE id = ANY(ARRAY[:r1, :r2]::BIGINT[]);",
                "SELECT id, title, author, payload FROM items WHERE id = ANY(ARRAY[:r3]::BIGINT[]);",
                "COMMIT;",
            ])
        #expect(lines.count == 10)
    }
}
