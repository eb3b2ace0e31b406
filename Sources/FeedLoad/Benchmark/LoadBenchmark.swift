import FeedEngine
import FeedLayout
import FeedReplay
import FeedStore
import Foundation

/// `feedsim bench load`: how fast the load tester's sessions page through a large store, beside a
/// bare C-API loop running the same queries on as many threads (``RawPageLoop``), and how both
/// scale from 1 thread to `threads`.
///
/// Sessions use the flinger profile with no think time (`--time-scale max`), no writers, keyset
/// pages. The raw loop walks as many pages per walk, and splits each page's rows into as many
/// row statements, as the sessions did on average, so both sides run the same queries on the same
/// part of the index and the ratio measures the harness (controller, scheduler, timing). Each side runs `seconds` per thread
/// count, load then raw, in one process on one seeded file.
public enum LoadBenchmark {
    public struct Side: Codable, Hashable, Sendable {
        public var threads: Int
        public var pages: Int
        public var rows: Int
        public var seconds: Double
        public var pagesPerSecond: Double
    }

    public struct Report: Codable, Hashable, Sendable {
        public var items: Int
        public var pageSize: Int
        /// Pages per session walk (sessions' average, used by the raw loop).
        public var pagesPerWalk: Int
        /// Row statements per page (sessions' average, used by the raw loop).
        public var rowBatchesPerPage: Int
        public var load: [Side]
        public var raw: [Side]
        /// Load pages/s ÷ raw pages/s at the most threads. Target ≥ ``LoadBenchmark/target``.
        public var ratio: Double
        /// Load pages/s at the most threads ÷ at 1 thread.
        public var loadScaling: Double
        /// Raw pages/s at the most threads ÷ at 1 thread.
        public var rawScaling: Double
    }

    /// The ratio the load side should reach against the raw loop (issue #6).
    public static let target = 0.8

    /// Length of each session's synthesized flinger trace, seconds of virtual time.
    public static let traceSeconds = 20.0

    /// Seeds `count` items of the `mixed` preset (seed 1) in a temporary directory (removed after),
    /// then measures.
    /// - Throws: ``StoreError``, ``SQLiteError``, ``LoadConfigurationError``, or a raw-loop failure.
    public static func run(
        count: Int, threads: Int = 2, seconds: Double = 3, pageSize: Int = 20, progress: (String) -> Void = { _ in }
    ) throws -> Report {
        precondition(count >= 1 && threads >= 1 && seconds > 0 && pageSize >= 1)
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("feedsim-bench-load-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("load.sqlite").path
        progress("seeding \(count) items")
        let store = try ItemStore(path: path)
        var generator = ItemGenerator(preset: try Preset.named("mixed"), seed: 1)
        try Seeder.seed(store, feedNamed: "home", generator: &generator, count: count)
        let feed = try store.requireFeed(named: "home")

        let layout = LayoutConfiguration(kind: .grid)
        let counts = threads == 1 ? [1] : [1, threads]
        var load: [Side] = []
        var raw: [Side] = []
        var pagesPerWalk = 1
        var rowBatchesPerPage = 1
        for threadCount in counts {
            progress("load: \(threadCount) session thread(s), \(seconds) s")
            let configuration = LoadConfiguration(
                path: path, feedName: "home", model: .closed(sessions: threadCount),
                traces: .synthesized(models: [.flinger], durationSeconds: traceSeconds), layout: layout,
                replay: ReplayOptions(controller: FeedController.Configuration(pageSize: pageSize, initialLoadPages: 1)),
                timeScale: nil, pagination: .keyset, durationSeconds: seconds, workers: threadCount)
            let report = try LoadRunner(configuration: configuration).run()
            load.append(
                Side(
                    threads: threadCount, pages: report.pages, rows: report.rows, seconds: report.elapsedSeconds,
                    pagesPerSecond: report.pagesPerSecond))
            let walks = max(1, report.sessions.completed + report.sessions.interrupted)
            pagesPerWalk = max(1, Int((Double(report.pages) / Double(walks)).rounded()))
            let rowStatements = Double(report.latency[QueryKind.rows.rawValue]?.count ?? 0)
            rowBatchesPerPage = max(1, min(pageSize, Int((rowStatements / Double(max(1, report.pages))).rounded())))
            progress("raw: \(threadCount) thread(s), \(pagesPerWalk) pages per walk, \(seconds) s")
            let measured = try RawPageLoop.run(
                path: path, feed: feed.rawValue, threads: threadCount, pageSize: pageSize, pagesPerWalk: pagesPerWalk,
                rowBatchesPerPage: rowBatchesPerPage, seconds: seconds)
            raw.append(
                Side(
                    threads: threadCount, pages: measured.pages, rows: measured.rows, seconds: measured.seconds,
                    pagesPerSecond: Double(measured.pages) / measured.seconds))
        }
        return Report(
            items: count, pageSize: pageSize, pagesPerWalk: pagesPerWalk, rowBatchesPerPage: rowBatchesPerPage, load: load, raw: raw,
            ratio: load[load.count - 1].pagesPerSecond / raw[raw.count - 1].pagesPerSecond,
            loadScaling: load[load.count - 1].pagesPerSecond / load[0].pagesPerSecond,
            rawScaling: raw[raw.count - 1].pagesPerSecond / raw[0].pagesPerSecond)
    }
}
