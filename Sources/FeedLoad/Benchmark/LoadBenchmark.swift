import FeedEngine
import FeedLayout
import FeedReplay
import FeedStore
import Foundation

/// `feedsim bench load`: how fast the load tester's replay sessions page through a large store,
/// beside a bare C-API loop running the same queries on as many threads (``RawPageLoop``), how
/// both scale from 1 thread to `threads`, and where a session thread's time goes.
///
/// Sessions replay synthesized flinger traces (grid layout, pages of `pageSize`, Init of one page)
/// with no think time (`--time-scale max`), no writers, keyset pages. The raw loop walks as many
/// pages per walk, and splits each page's rows into as many row statements, as the sessions did on
/// average, so both sides run the same queries on the same part of the index.
///
/// The machine is shared, so each thread count runs `rounds` rounds of (load, raw), interleaved,
/// and keeps each side's best round: a round slowed by another process does not decide the figure.
public enum LoadBenchmark {
    public struct Side: Codable, Hashable, Sendable {
        public var threads: Int
        public var pages: Int
        public var rows: Int
        public var seconds: Double
        public var pagesPerSecond: Double
    }

    /// Where the load side's thread time went, per page, microseconds (best round at that thread count).
    public struct Breakdown: Codable, Hashable, Sendable {
        public var threads: Int
        /// Replay frames simulated per page.
        public var framesPerPage: Double
        /// Thread time per page: `threads × seconds / pages`.
        public var microsecondsPerPage: Double
        /// The page and row queries (timed by the sessions).
        public var queryMicrosecondsPerPage: Double
        /// The replay's simulation: frames minus their queries (controller, layout, virtualizer, scroll).
        public var simulationMicrosecondsPerPage: Double
        /// The rest: scheduler, metrics, session set-up and checks, waiting for a core.
        public var harnessMicrosecondsPerPage: Double
        /// Pages per second per thread if the sessions only ran their queries:
        /// `1e6 / queryMicrosecondsPerPage` (compare with the raw loop's per thread).
        public var queryOnlyPagesPerSecondPerThread: Double
    }

    public struct Report: Codable, Hashable, Sendable {
        public var items: Int
        public var pageSize: Int
        public var rounds: Int
        /// Pages per session walk (sessions' average, used by the raw loop).
        public var pagesPerWalk: Int
        /// Row statements per page (sessions' average, used by the raw loop).
        public var rowBatchesPerPage: Int
        public var load: [Side]
        public var raw: [Side]
        public var breakdown: [Breakdown]
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
    /// then measures `rounds` × (load, raw) of `seconds` each per thread count.
    /// - Throws: ``StoreError``, ``SQLiteError``, ``LoadConfigurationError``, or a raw-loop failure.
    public static func run(
        count: Int, threads: Int = 2, seconds: Double = 2, rounds: Int = 3, pageSize: Int = 20,
        progress: (String) -> Void = { _ in }
    ) throws -> Report {
        precondition(count >= 1 && threads >= 1 && seconds > 0 && rounds >= 1 && pageSize >= 1)
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

        let counts = threads == 1 ? [1] : [1, threads]
        var load: [Side] = []
        var raw: [Side] = []
        var breakdown: [Breakdown] = []
        var pagesPerWalk = 1
        var rowBatchesPerPage = 1
        for threadCount in counts {
            var bestLoad: (side: Side, report: LoadReport)?
            var bestRaw: Side?
            for round in 1...rounds {
                progress("round \(round)/\(rounds): load, \(threadCount) session thread(s), \(seconds) s")
                let configuration = LoadConfiguration(
                    path: path, feedName: "home", model: .closed(sessions: threadCount),
                    traces: .synthesized(models: [.flinger], durationSeconds: traceSeconds),
                    layout: LayoutConfiguration(kind: .grid),
                    replay: ReplayOptions(controller: FeedController.Configuration(pageSize: pageSize, initialLoadPages: 1)),
                    timeScale: nil, pagination: .keyset, durationSeconds: seconds, workers: threadCount,
                    seed: UInt64(round))
                let report = try LoadRunner(configuration: configuration).run()
                let side = Side(
                    threads: threadCount, pages: report.pages, rows: report.rows, seconds: report.elapsedSeconds,
                    pagesPerSecond: report.pagesPerSecond)
                if side.pagesPerSecond > bestLoad?.side.pagesPerSecond ?? -1 { bestLoad = (side, report) }
                let walks = max(1, report.sessions.completed + report.sessions.interrupted)
                pagesPerWalk = max(1, Int((Double(report.pages) / Double(walks)).rounded()))
                let rowStatements = Double(report.latency[QueryKind.rows.rawValue]?.count ?? 0)
                rowBatchesPerPage = max(1, min(pageSize, Int((rowStatements / Double(max(1, report.pages))).rounded())))
                progress("round \(round)/\(rounds): raw, \(threadCount) thread(s), \(pagesPerWalk) pages per walk, \(seconds) s")
                let measured = try RawPageLoop.run(
                    path: path, feed: feed.rawValue, threads: threadCount, pageSize: pageSize,
                    pagesPerWalk: pagesPerWalk, rowBatchesPerPage: rowBatchesPerPage, seconds: seconds)
                let rawSide = Side(
                    threads: threadCount, pages: measured.pages, rows: measured.rows, seconds: measured.seconds,
                    pagesPerSecond: Double(measured.pages) / measured.seconds)
                if rawSide.pagesPerSecond > bestRaw?.pagesPerSecond ?? -1 { bestRaw = rawSide }
            }
            guard let bestLoad, let bestRaw else { continue }
            load.append(bestLoad.side)
            raw.append(bestRaw)
            breakdown.append(Self.breakdown(bestLoad.report, threads: threadCount))
        }
        return Report(
            items: count, pageSize: pageSize, rounds: rounds, pagesPerWalk: pagesPerWalk,
            rowBatchesPerPage: rowBatchesPerPage, load: load, raw: raw, breakdown: breakdown,
            ratio: load[load.count - 1].pagesPerSecond / raw[raw.count - 1].pagesPerSecond,
            loadScaling: load[load.count - 1].pagesPerSecond / load[0].pagesPerSecond,
            rawScaling: raw[raw.count - 1].pagesPerSecond / raw[0].pagesPerSecond)
    }

    static func breakdown(_ report: LoadReport, threads: Int) -> Breakdown {
        let pages = Double(max(1, report.pages))
        let total = Double(threads) * report.elapsedSeconds * 1e6 / pages
        let query = report.querySeconds * 1e6 / pages
        let simulation = max(0, report.replaySeconds * 1e6 / pages - query)
        return Breakdown(
            threads: threads, framesPerPage: Double(report.frames) / pages, microsecondsPerPage: total,
            queryMicrosecondsPerPage: query, simulationMicrosecondsPerPage: simulation,
            harnessMicrosecondsPerPage: max(0, total - query - simulation),
            queryOnlyPagesPerSecondPerThread: query > 0 ? 1e6 / query : 0)
    }
}
