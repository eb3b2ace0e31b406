import FeedEngine
import FeedLayout
import FeedModel
import FeedReplay
import FeedResources
import FeedStore
import FeedLoad
import Foundation

/// `feedsim bench store`: the store's API against a minimal raw SQLite C-API loop doing the same
/// work, in the same process, on the same data; reported as ratios (API time ÷ raw time).
///
/// Three measures on `count` items seeded from the `mixed` preset (seed 1):
/// 1. seeding: generate and insert in one transaction (rows/s);
/// 2. walking the whole feed with `after` pages of 50 (µs per page);
/// 3. rows by id in batches of 50, every id once in a seeded random order (µs per batch).
/// Seeding runs twice per side and walks and row fetches `repetitions` times, alternating API and
/// raw, keeping the fastest run of each (to filter out noise from other processes).
public enum StoreBenchmark {
    /// One measure: the API's figure, the raw loop's, and their time ratio.
    public struct Measure: Codable, Hashable, Sendable {
        public var name: String
        /// Unit of `api` and `raw` (`rows/s`, `µs/page`, `µs/batch`).
        public var unit: String
        public var api: Double
        public var raw: Double
        /// API time ÷ raw time (> 1: the API is slower). Target ≤ 1.25.
        public var ratio: Double

        /// The three rows both store benchmarks (SQLite and PostgreSQL) print, from their best
        /// wall times in seconds: seeding `count` items, walking `pages` pages, fetching `batches`
        /// row batches.
        static func storeRows(
            seedName: String, count: Int, seed: (api: Double, raw: Double), pages: Int,
            walk: (api: Double, raw: Double), batches: Int, rows: (api: Double, raw: Double)
        ) -> [Measure] {
            let perPage = 1e6 / Double(pages)
            let perBatch = 1e6 / Double(batches)
            return [
                Measure(
                    name: seedName, unit: "rows/s", api: Double(count) / seed.api, raw: Double(count) / seed.raw,
                    ratio: seed.api / seed.raw),
                Measure(
                    name: "walk after", unit: "µs/page", api: walk.api * perPage, raw: walk.raw * perPage,
                    ratio: walk.api / walk.raw),
                Measure(
                    name: "rows by id", unit: "µs/batch", api: rows.api * perBatch, raw: rows.raw * perBatch,
                    ratio: rows.api / rows.raw),
            ]
        }
    }

    public struct Report: Codable, Hashable, Sendable {
        public var items: Int
        public var pageSize: Int
        public var batchSize: Int
        public var measures: [Measure]
        /// Whether every ratio is within ``target``.
        public var withinTarget: Bool { measures.allSatisfy { $0.ratio <= StoreBenchmark.target } }

        enum CodingKeys: String, CodingKey {
            case items, measures
            case pageSize = "page_size"
            case batchSize = "batch_size"
        }
    }

    /// The ratio every measure should stay under (issue #2).
    public static let target = 1.25

    /// Runs the benchmark in a fresh temporary directory (removed afterwards).
    /// - Parameters:
    ///   - count: items to seed, ≥ 100.
    ///   - progress: a line per step, for stderr.
    /// - Throws: ``SQLiteError`` or ``StoreError``; or a failure when the API and the raw loop disagree.
    public static func run(
        count: Int, pageSize: Int = 50, batchSize: Int = 50, repetitions: Int = 3,
        progress: (String) -> Void = { _ in }
    ) throws -> Report {
        precondition(count >= 100 && pageSize >= 1 && batchSize >= 1 && repetitions >= 1)
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("feedsim-bench-store-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let apiPath = directory.appendingPathComponent("api.sqlite").path
        let rawPath = directory.appendingPathComponent("raw.sqlite").path
        let preset = try Preset.named("mixed")
        let schema = String(decoding: try ResourceDirectory.schema.data("001_initial.sql"), as: UTF8.self)

        // Seeding runs twice per side, alternating (API, raw, API, raw), each into a fresh file;
        // the faster run counts, so neither side gains from going second. The last files stay for
        // the read measures.
        var rawSeed = Double.infinity
        var apiSeed = Double.infinity
        var store: ItemStore?
        for round in 1...2 {
            for path in [apiPath, rawPath] {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            }
            progress("seeding \(count) items with ItemStore + Seeder (round \(round) of 2)")
            store = nil
            let apiStore = try ItemStore(path: apiPath)
            var apiGenerator = ItemGenerator(preset: preset, seed: 1)
            apiSeed = min(
                apiSeed,
                try time {
                    try Seeder.seed(apiStore, feedNamed: "home", generator: &apiGenerator, count: count)
                })
            store = apiStore
            progress("seeding \(count) items with the raw C API (round \(round) of 2)")
            var rawGenerator = ItemGenerator(preset: preset, seed: 1)
            rawSeed = min(
                rawSeed,
                try time {
                    try RawSQLite.seed(path: rawPath, schema: schema, generator: &rawGenerator, count: count)
                })
        }
        guard let store else { preconditionFailure("seeded above") }
        let feed = try store.requireFeed(named: "home")

        var random = SplitMix64(seed: 2)
        var ids = (1...Int64(count)).map { $0 }
        ids.shuffle(using: &random)
        let batches = stride(from: 0, to: ids.count, by: batchSize).map {
            Array(ids[$0..<min($0 + batchSize, ids.count)])
        }

        // Both sides read through one connection opened before the rounds (warm caches alike).
        let rawDB = try RawSQLite.open(rawPath)
        defer { RawSQLite.close(rawDB) }
        var walkAPI = Double.infinity
        var walkRaw = Double.infinity
        var rowsAPI = Double.infinity
        var rowsRaw = Double.infinity
        var pages = 0
        for round in 1...repetitions {
            progress("walk and rows, round \(round) of \(repetitions)")
            var apiPages = 0
            var apiItems = 0
            walkAPI = min(
                walkAPI, try time { (apiPages, apiItems) = try walk(store.pages(feed: feed), limit: pageSize) })
            var raw = (pages: 0, items: 0)
            walkRaw = min(
                walkRaw, try time { raw = try RawSQLite.walk(db: rawDB, feed: feed.rawValue, limit: pageSize) })
            guard apiItems == count, raw.items == count, apiPages == raw.pages else {
                throw StoreError.resource(
                    path: directory.path,
                    reason: "benchmark walks disagree: API \(apiPages) pages / \(apiItems) items, "
                        + "raw \(raw.pages) / \(raw.items), expected \(count) items")
            }
            pages = apiPages
            var apiRows = 0
            var rawRows = 0
            rowsAPI = min(
                rowsAPI, try time { for batch in batches { apiRows += try store.rows(ids: batch).rows.count } })
            rowsRaw = min(rowsRaw, try time { rawRows = try RawSQLite.rows(db: rawDB, batches: batches) })
            guard apiRows == count, rawRows == count else {
                throw StoreError.resource(
                    path: directory.path, reason: "benchmark row fetches disagree: API \(apiRows), raw \(rawRows)")
            }
        }
        return Report(
            items: count, pageSize: pageSize, batchSize: batchSize,
            measures: Measure.storeRows(
                seedName: "seed", count: count, seed: (apiSeed, rawSeed), pages: pages, walk: (walkAPI, walkRaw),
                batches: batches.count, rows: (rowsAPI, rowsRaw)))
    }

    static func walk(_ pages: FeedPageSource, limit: Int) throws -> (Int, Int) {
        try BenchmarkLoop.walk(pages, limit: limit)
    }

    static func time(_ body: () throws -> Void) rethrows -> Double { try BenchmarkLoop.time(body) }
}
