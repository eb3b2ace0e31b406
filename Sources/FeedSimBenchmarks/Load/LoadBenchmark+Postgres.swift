import FeedEngine
import FeedLoad
import FeedModel
import FeedPostgres
import FeedReplay
import FeedResources
import Foundation
import Synchronization

/// `feedsim bench load --db postgresql://…`: the load tester's pagination sessions against a
/// PostgreSQL server, beside two baselines measured in the same run on the same data:
///
/// - a minimal libpq loop doing the same work on as many threads (``RawPostgres/pageLoop``): the
///   same page requests (page and probe in one statement, the rows in `= ANY` statements, one
///   `REPEATABLE READ READ ONLY` transaction each), target: sessions ≥ ``LoadBenchmark/target``× its pages/s;
/// - `pgbench` at the same client count, prepared protocol, twice: a custom script (`-f`) doing a
///   page request's work (``pgbenchPageRequestScript(pageSize:rowBatchSize:)``: the same keyset
///   statement from a random cursor and a rows statement of as many ids, in one
///   `REPEATABLE READ READ ONLY` transaction): FeedSim's pages/s ÷ pgbench's transactions/s,
///   target ≥ ``LoadBenchmark/target``; and the keyset statement alone
///   (``PostgresBenchmark/pgbenchScript(pageSize:)``, as `bench store --clients`), the server's
///   ceiling for the page query, for context.
///
/// The data: `count` items of the `mixed` preset (seed 1), seeded by COPY into a schema of its own
/// (dropped afterwards). Each round runs sessions, raw loop and pgbench in turn; the best round of
/// each side counts (the machine is shared).
extension LoadBenchmark {
    public struct PostgresReport: Codable, Hashable, Sendable {
        public var items: Int
        public var pageSize: Int
        public var pagesPerSession: Int
        public var rowBatchSize: Int
        public var rounds: Int
        /// Threads of the sessions and of the raw loop, and pgbench's clients.
        public var clients: Int
        /// `host:port/dbname` and the server version (`15.18`).
        public var database: String
        public var serverVersion: String
        public var target: Double
        /// The pagination sessions' best round.
        public var sessions: Side
        /// The raw libpq loop's best round.
        public var raw: Side
        /// Sessions' pages/s ÷ the raw loop's.
        public var rawRatio: Double
        /// pgbench's best transactions (page requests) per second running a page request's work;
        /// `nil` when pgbench was not run.
        public var pgbenchTPS: Double?
        /// Sessions' pages/s ÷ that tps.
        public var pgbenchRatio: Double?
        /// The script of it (its `:feed`, `:lo`, `:hi`, `:maxid` given with `-D`).
        public var pgbenchScript: String
        /// pgbench's best tps running the keyset page statement alone (no rows, no transaction).
        public var pgbenchPageStatementTPS: Double?
        /// The sessions' consistency over all rounds: duplicates + skips (must be 0).
        public var consistencyViolations: Int
    }

    /// Runs `pgbench` with a script, `-D` defines and `PGOPTIONS`, for the clients and seconds of
    /// the benchmark; returns its transactions per second.
    public typealias PGBench = (_ script: String, _ defines: [(String, String)], _ options: String) throws -> Double

    /// Seeds the schema, then `rounds` × (sessions, raw loop, pgbench) of `seconds` each at `clients`.
    /// - Parameter pgbench: runs pgbench (the CLI's), or `nil` to leave it out.
    /// - Throws: ``PostgresStoreError``, ``PostgresError``, ``LoadConfigurationError``.
    public static func runPostgres(
        conninfo: String, migrator: PostgresMigrator, count: Int, clients: Int, seconds: Double, rounds: Int,
        pageSize: Int, pagesPerSession: Int, pgbench: PGBench?, progress: (String) -> Void = { _ in }
    ) throws -> PostgresReport {
        precondition(count >= 1 && clients >= 1 && seconds > 0 && rounds >= 1 && pageSize >= 1 && pagesPerSession >= 1)
        let admin = try PostgresConnection(conninfo)
        let schema = "feedsim_bench_load_" + String(ProcessInfo.processInfo.processIdentifier)
        try admin.execute("DROP SCHEMA IF EXISTS \(schema) CASCADE")
        try admin.execute("CREATE SCHEMA \(schema)")
        defer { _ = try? admin.execute("DROP SCHEMA IF EXISTS \(schema) CASCADE") }
        let settings = [("options", "-c search_path=\(schema)")]
        progress("seeding \(count) items (COPY)")
        let store = try PostgresStore(conninfo: conninfo, settings: settings, migrator: migrator)
        var generator = ItemGenerator(preset: try Preset.named("mixed"), seed: 1)
        try store.seed(feedNamed: "home", count: count, next: { generator.next() })
        try store.connection.execute("ANALYZE items")
        let feed = try store.requireFeed(named: "home")
        let backend = store.backend(feed: feed)
        let newest = try backend.newest(limit: 1).items.first?.publishedAt ?? 0
        let oldest = try store.connection.execute("SELECT min(published_at) FROM items").int64(0, 0)
        let maxID = try store.connection.execute("SELECT max(id) FROM items").int64(0, 0)
        let connector = PostgresConnector(conninfo: conninfo, settings: settings, migrator: migrator, feed: "home")
        let rowBatch = min(pageSize, Virtualizer.defaultRowBatchLimit)
        let script = pgbenchPageRequestScript(pageSize: pageSize, rowBatchSize: rowBatch)
        let statementScript = PostgresBenchmark.pgbenchScript(pageSize: pageSize)

        var best: (side: Side, report: LoadReport)?
        var bestRaw: Side?
        var tps: Double?
        var statementTPS: Double?
        var violations = 0
        for round in 1...rounds {
            progress("round \(round)/\(rounds): \(clients) pagination sessions, \(seconds) s")
            let configuration = LoadConfiguration(
                path: conninfo, feedName: "home", model: .closed(sessions: clients),
                session: .pagination(pageBudget: pagesPerSession),
                replay: ReplayOptions(controller: FeedController.Configuration(pageSize: pageSize, initialLoadPages: 1)),
                timeScale: nil, pagination: .keyset, durationSeconds: seconds, workers: clients, seed: UInt64(round))
            let report = try LoadRunner(configuration: configuration) { _ in connector }.run()
            if let error = report.errors.first {
                throw PostgresStoreError.resource(path: store.database, reason: "the sessions failed: \(error.key) \(error.value)")
            }
            violations += report.consistency.duplicates + report.consistency.skips
            let side = Side(report, threads: clients)
            if side.pagesPerSecond > best?.side.pagesPerSecond ?? -1 { best = (side, report) }

            progress("round \(round)/\(rounds): raw libpq loop, \(clients) thread(s), \(seconds) s")
            let raw = try rawLoop(
                conninfo: conninfo, schema: schema, feed: feed, threads: clients, pageSize: pageSize,
                pagesPerWalk: pagesPerSession, rowBatchSize: rowBatch, seconds: seconds)
            if raw.pagesPerSecond > bestRaw?.pagesPerSecond ?? -1 { bestRaw = raw }

            if let pgbench {
                progress("round \(round)/\(rounds): pgbench, \(clients) client(s), the same keyset statement, \(seconds) s")
                let defines = [
                    ("feed", String(feed)), ("lo", String(oldest)), ("hi", String(newest)), ("maxid", String(maxID)),
                ]
                tps = max(tps ?? 0, try pgbench(script, defines, "-c search_path=\(schema)"))
                progress("round \(round)/\(rounds): pgbench, the keyset statement alone, \(seconds) s")
                statementTPS = max(statementTPS ?? 0, try pgbench(statementScript, defines, "-c search_path=\(schema)"))
            }
        }
        guard let best, let bestRaw else { preconditionFailure("at least one round") }
        return PostgresReport(
            items: count, pageSize: pageSize, pagesPerSession: pagesPerSession, rowBatchSize: rowBatch, rounds: rounds,
            clients: clients, database: store.database, serverVersion: PostgresStoreError.versionText(store.serverVersion),
            target: target, sessions: best.side, raw: bestRaw, rawRatio: best.side.pagesPerSecond / bestRaw.pagesPerSecond,
            pgbenchTPS: tps, pgbenchRatio: tps.map { best.side.pagesPerSecond / $0 }, pgbenchScript: script,
            pgbenchPageStatementTPS: statementTPS,
            consistencyViolations: violations)
    }

    /// A pgbench script doing one page request's work per transaction, as a pagination session's
    /// page: `BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY`, the keyset page statement of
    /// ``PostgresFeedBackend/after(_:limit:)`` from a random cursor, then the rows of `pageSize`
    /// ids in statements of at most `rowBatchSize` (`= ANY` of a `BIGINT[]`, as
    /// ``PostgresFeedBackend/rows(ids:)``; the ids drawn at random, since pgbench cannot carry a
    /// page's ids into the next statement), `COMMIT`.
    public static func pgbenchPageRequestScript(pageSize: Int, rowBatchSize: Int) -> String {
        let page = PostgresBenchmark.pgbenchScript(pageSize: pageSize).split(separator: "\n")
        var lines = page.filter { $0.hasPrefix("\\set") }.map(String.init)
        lines += (1...pageSize).map { "\\set r\($0) random(1, :maxid)" }
        lines.append("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY;")
        lines += page.filter { !$0.hasPrefix("\\set") && !$0.isEmpty }.map(String.init)
        var start = 1
        while start <= pageSize {
            let end = min(pageSize, start + rowBatchSize - 1)
            let ids = (start...end).map { ":r\($0)" }.joined(separator: ", ")
            lines.append("SELECT id, title, author, payload FROM items WHERE id = ANY(ARRAY[\(ids)]::BIGINT[]);")
            start = end + 1
        }
        lines.append("COMMIT;")
        return lines.joined(separator: "\n") + "\n"
    }

    /// ``RawPostgres/pageLoop`` on `threads` threads, one connection each, for `seconds`.
    static func rawLoop(
        conninfo: String, schema: String, feed: Int64, threads: Int, pageSize: Int, pagesPerWalk: Int,
        rowBatchSize: Int, seconds: Double
    ) throws -> Side {
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
                do {
                    let raw = try RawPostgres(conninfo: conninfo, schema: schema)
                    let counts = try raw.pageLoop(
                        feed: feed, pageSize: pageSize, pagesPerWalk: pagesPerWalk, rowBatchSize: rowBatchSize
                    ) { clock.now >= deadline }
                    let cpu = ThreadCPUClock.now() &- cpuStart
                    totals.withLock {
                        $0.pages += counts.pages
                        $0.rows += counts.rows
                        $0.cpu += cpu
                    }
                } catch {
                    totals.withLock { $0.error = String(describing: error) }
                }
            }.start()
        }
        group.wait()
        let elapsed = start.duration(to: clock.now)
        let result = totals.withLock { $0 }
        if let error = result.error {
            throw PostgresStoreError.resource(path: "bench load", reason: "raw libpq loop: \(error)")
        }
        let wall = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        return Side(threads: threads, pages: result.pages, rows: result.rows, seconds: wall, cpuSeconds: Double(result.cpu) / 1e9)
    }
}

extension LoadBenchmark.PostgresReport {
    /// The report for people: each side's pages/s and the two ratios with their targets.
    public var text: String {
        func fixed(_ value: Double, _ digits: Int = 0) -> String { String(format: "%.\(digits)f", value) }
        func verdict(_ ratio: Double) -> String { ratio >= target ? "met" : "NOT met" }
        var lines = [
            "bench load: PostgreSQL \(serverVersion) at \(database), \(items) items (preset mixed, seed 1), pages of "
                + "\(pageSize), \(pagesPerSession) pages per session, rows in statements of \(rowBatchSize), "
                + "\(clients) client(s), best of \(rounds) round(s)",
            "side                                   pages/s     rows/s   cores   on-CPU µs/page",
        ]
        func row(_ name: String, _ side: LoadBenchmark.Side) -> String {
            name.padding(toLength: 34, withPad: " ", startingAt: 0)
                + [fixed(side.pagesPerSecond), fixed(Double(side.rows) / max(side.seconds, 1e-9)), fixed(side.cores, 2),
                    fixed(side.cpuMicrosecondsPerPage, 1)]
                .enumerated().map { String(repeating: " ", count: max(0, [12, 11, 8, 17][$0.offset] - $0.element.count)) + $0.element }
                .joined()
        }
        lines.append(row("FeedSim pagination sessions", sessions))
        lines.append(row("raw libpq loop (same work)", raw))
        lines.append(
            "sessions ÷ raw libpq: \(fixed(rawRatio, 2))× (target ≥ \(fixed(target, 1))×: \(verdict(rawRatio)))")
        if let pgbenchTPS, let pgbenchRatio {
            lines.append(
                "pgbench -f, a page request's work (keyset statement + rows, one transaction), \(clients) client(s): "
                    + "\(fixed(pgbenchTPS)) tps; sessions' pages/s ÷ pgbench tps: \(fixed(pgbenchRatio, 2))× "
                    + "(target ≥ \(fixed(target, 1))×: \(verdict(pgbenchRatio)))")
            if let statement = pgbenchPageStatementTPS {
                lines.append(
                    "pgbench -f, the keyset statement alone: \(fixed(statement)) tps (the server's ceiling for the page "
                        + "query; sessions' pages/s are \(fixed(sessions.pagesPerSecond / statement, 2))× of it)")
            }
        } else {
            lines.append("pgbench: not run (not found; Debian: apt-get install postgresql-contrib)")
        }
        lines.append("consistency of the sessions: \(consistencyViolations) duplicates + skips (must be 0)")
        return lines.joined(separator: "\n")
    }
}
