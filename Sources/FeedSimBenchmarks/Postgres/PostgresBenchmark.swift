import FeedModel
import FeedPostgres
import Foundation

/// `feedsim bench store --db postgresql://…`: the PostgreSQL store's API against a minimal raw
/// libpq loop doing the same work (``RawPostgres``), in the same process, on the same server;
/// reported as ratios (API time ÷ raw time), target ≤ 1.25.
///
/// Three measures on `count` items, each side in a schema of its own (created and dropped here):
/// 1. seeding: generate and COPY in one transaction (rows/s);
/// 2. walking the whole feed with `after` pages (µs per page; page and probe in one statement);
/// 3. rows by id in batches, every id once in a seeded random order (µs per batch; one `= ANY` statement each).
/// Seeding runs twice per side and the reads `repetitions` times, alternating API and raw, keeping
/// the fastest run of each (to filter out noise from other processes).
public enum PostgresBenchmark {
    /// One measure: the API's figure, the raw loop's, and their ratio (as ``StoreBenchmark``'s).
    public typealias Measure = StoreBenchmark.Measure

    public struct Report: Codable, Hashable, Sendable {
        public var items: Int
        public var pageSize: Int
        public var batchSize: Int
        /// `host:port/dbname` and the server version, e.g. `15.18`.
        public var database: String
        public var serverVersion: String
        public var measures: [Measure]
        public var withinTarget: Bool { measures.allSatisfy { $0.ratio <= PostgresBenchmark.target } }

        enum CodingKeys: String, CodingKey {
            case items, measures, database
            case pageSize = "page_size"
            case batchSize = "batch_size"
            case serverVersion = "server_version"
        }
    }

    /// The ratio every measure should stay under.
    public static let target = 1.25

    /// The concurrent-clients measure: FeedSim's sessions beside `pgbench` at the same client count.
    public struct Clients {
        public var clients: Int
        /// Wall seconds each side runs.
        public var seconds: Double
        /// Runs `pgbench` with the script (``pgbenchScript(pageSize:)``), `-c clients -j clients`,
        /// for `seconds`, with `defines` (`-D name=value`) and the libpq `settings` (a search path)
        /// as `PGOPTIONS`; returns its transactions per second.
        public var pgbench: (_ script: String, _ defines: [(String, String)], _ options: String) throws -> Double

        public init(
            clients: Int, seconds: Double,
            pgbench: @escaping (_ script: String, _ defines: [(String, String)], _ options: String) throws -> Double
        ) {
            self.clients = clients
            self.seconds = seconds
            self.pgbench = pgbench
        }
    }

    /// Runs the benchmark in two fresh schemas of the database `conninfo` names (dropped afterwards).
    /// - Parameters:
    ///   - makeGenerator: a fresh item generator per seeding run (the same items every time).
    ///   - progress: a line per step, for stderr.
    /// - Throws: ``PostgresStoreError``, ``PostgresError``; ``PostgresStoreError/resource(path:reason:)``
    ///   when the API and the raw loop disagree.
    public static func run(
        conninfo: String, migrator: PostgresMigrator, count: Int, makeGenerator: () -> () -> NewItem,
        pageSize: Int = 50, batchSize: Int = 50, repetitions: Int = 3, clients: Clients? = nil,
        progress: (String) -> Void = { _ in }
    ) throws -> Report {
        precondition(count >= 100 && pageSize >= 1 && batchSize >= 1 && repetitions >= 1)
        let admin = try PostgresConnection(conninfo)
        let suffix = String(ProcessInfo.processInfo.processIdentifier)
        let apiSchema = "feedsim_bench_api_" + suffix
        let rawSchema = "feedsim_bench_raw_" + suffix
        defer {
            for schema in [apiSchema, rawSchema] { _ = try? admin.execute("DROP SCHEMA IF EXISTS \(schema) CASCADE") }
        }
        func settings(_ schema: String) -> [(String, String)] { [("options", "-c search_path=\(schema)")] }
        let schemaSQL = migrator.migrations.map(\.sql)

        var apiSeed = Double.infinity
        var rawSeed = Double.infinity
        var store: PostgresStore?
        var raw: RawPostgres?
        for round in 1...2 {
            store = nil
            raw = nil
            for schema in [apiSchema, rawSchema] {
                try admin.execute("DROP SCHEMA IF EXISTS \(schema) CASCADE")
                try admin.execute("CREATE SCHEMA \(schema)")
            }
            progress("seeding \(count) items with PostgresStore.seed (COPY; round \(round) of 2)")
            let apiStore = try PostgresStore(conninfo: conninfo, settings: settings(apiSchema), migrator: migrator)
            let apiNext = makeGenerator()
            apiSeed = min(apiSeed, try time { try apiStore.seed(feedNamed: "home", count: count, next: apiNext) })
            store = apiStore
            progress("seeding \(count) items with the raw libpq loop (round \(round) of 2)")
            let rawConnection = try RawPostgres(conninfo: conninfo, schema: rawSchema)
            try rawConnection.createSchema(schemaSQL)
            let rawNext = makeGenerator()
            rawSeed = min(rawSeed, try time { try rawConnection.seed(count: count, next: rawNext) })
            raw = rawConnection
        }
        guard let store, let raw else { preconditionFailure("seeded above") }
        for connection in [store.connection, raw.connection] { try connection.execute("ANALYZE items") }
        let backend = store.backend(feed: try store.requireFeed(named: "home"))
        let rawFeed = try raw.feedID()

        var random = SplitMix64(seed: 2)
        var ids = (1...Int64(count)).map { $0 }
        ids.shuffle(using: &random)
        let batches = stride(from: 0, to: ids.count, by: batchSize).map {
            Array(ids[$0..<min($0 + batchSize, ids.count)])
        }
        var walkAPI = Double.infinity
        var walkRaw = Double.infinity
        var rowsAPI = Double.infinity
        var rowsRaw = Double.infinity
        var pages = 0
        for round in 1...repetitions {
            progress("walk and rows, round \(round) of \(repetitions)")
            var api = (pages: 0, items: 0)
            walkAPI = min(walkAPI, try time { api = try walk(backend, limit: pageSize) })
            var rawWalk = (pages: 0, items: 0)
            walkRaw = min(walkRaw, try time { rawWalk = try raw.walk(feed: rawFeed, limit: pageSize) })
            guard api.items == count, rawWalk.items == count, api.pages == rawWalk.pages else {
                throw PostgresStoreError.resource(
                    path: store.database,
                    reason: "benchmark walks disagree: API \(api.pages) pages / \(api.items) items, "
                        + "raw \(rawWalk.pages) / \(rawWalk.items), expected \(count) items")
            }
            pages = api.pages
            var apiRows = 0
            var rawRows = 0
            rowsAPI = min(rowsAPI, try time { for batch in batches { apiRows += try backend.rows(ids: batch).rows.count } })
            rowsRaw = min(rowsRaw, try time { rawRows = try raw.rows(batches: batches) })
            guard apiRows == count, rawRows == count else {
                throw PostgresStoreError.resource(
                    path: store.database, reason: "benchmark row fetches disagree: API \(apiRows), raw \(rawRows)")
            }
        }
        var clientMeasures: [Measure] = []
        if let clients {
            let newest = try backend.newest(limit: 1).items.first?.publishedAt ?? 0
            let oldest = try store.connection.execute("SELECT min(published_at) FROM items").int64(0, 0)
            // Alternating rounds (FeedSim, pgbench, FeedSim, …), the best of each side counting, so a
            // burst of load from other processes does not land on one side only.
            var sessions = 0.0
            var tps = 0.0
            for round in 1...repetitions {
                progress("\(clients.clients) clients paging for \(clients.seconds) s with PostgresStore (round \(round))")
                sessions = max(
                    sessions,
                    try pagesPerSecond(
                        conninfo: conninfo, settings: settings(apiSchema), migrator: migrator, feed: "home",
                        clients: clients.clients, seconds: clients.seconds, pageSize: pageSize,
                        newestPublishedAt: newest, oldestPublishedAt: oldest, maxID: Int64(count)))
                progress("\(clients.clients) clients running the same statement with pgbench (round \(round))")
                tps = max(
                    tps,
                    try clients.pgbench(
                        pgbenchScript(pageSize: pageSize),
                        [
                            ("feed", String(backend.feed)), ("lo", String(oldest)), ("hi", String(newest)),
                            ("maxid", String(count)),
                        ], "-c search_path=\(apiSchema)"))
            }
            clientMeasures.append(
                Measure(
                    name: "pages, \(clients.clients) clients", unit: "pages/s", api: sessions, raw: tps, ratio: tps / sessions))
        }
        return Report(
            items: count, pageSize: pageSize, batchSize: batchSize, database: store.database,
            serverVersion: PostgresStoreError.versionText(store.serverVersion),
            measures: Measure.storeRows(
                seedName: "seed (COPY)", count: count, seed: (apiSeed, rawSeed), pages: pages, walk: (walkAPI, walkRaw),
                batches: batches.count, rows: (rowsAPI, rowsRaw)) + clientMeasures)
    }

    static func walk(_ backend: PostgresFeedBackend, limit: Int) throws -> (pages: Int, items: Int) {
        try BenchmarkLoop.walk(backend, limit: limit)
    }

    static func time(_ body: () throws -> Void) rethrows -> Double { try BenchmarkLoop.time(body) }
}
