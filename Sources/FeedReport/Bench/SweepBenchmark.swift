import FeedEngine
import FeedLayout
import FeedReplay
import FeedResources
import FeedStore
import Foundation

/// `feedsim bench sweep`: the same sweep of 8 combinations (page size 20 | 50 × More trigger
/// items:5 | items:20 × ranges uikit | texture) run on 1 thread and on N threads in one process;
/// prints the wall times, their ratio, and whether the rows are the same (they must be).
public enum SweepBenchmark {
    public struct Report: Codable, Sendable {
        public var combinations: Int
        public var traceSeconds: Double
        public var items: Int
        /// Wall seconds of the whole sweep, the fastest of the repetitions.
        public var oneThreadS: Double
        public var threads: Int
        public var nThreadsS: Double
        /// one thread ÷ N threads.
        public var speedup: Double
        public var cores: Int
        /// Process CPU seconds ÷ wall seconds of each side: the cores the run actually got (on a
        /// shared machine, fewer than it asked for; the speedup cannot exceed the ratio of these).
        public var oneThreadCores: Double
        public var nThreadsCores: Double
        public var sameRows: Bool

        public var text: String {
            """
            bench sweep: \(combinations) combinations of a \(num(traceSeconds, 0)) s synthesized trace on \(items) items, \(cores) cores
              --jobs 1: \(num(oneThreadS, 3)) s on \(num(oneThreadCores, 2)) cores obtained
              --jobs \(threads): \(num(nThreadsS, 3)) s on \(num(nThreadsCores, 2)) cores obtained
              speedup: \(num(speedup, 2))× (rows \(sameRows ? "identical" : "DIFFER"))
              CPU seconds: \(num(oneThreadS * oneThreadCores, 3)) against \(num(nThreadsS * nThreadsCores, 3)) (the same work either way \
            when these match; a speedup below --jobs with fewer cores obtained than asked is the machine's share, not the sweep's)

            """
        }
    }

    /// - Parameters:
    ///   - items: items seeded in a temporary database (photos preset).
    ///   - traceSeconds: length of the synthesized flinger trace, seconds.
    ///   - threads: the parallel run's thread count.
    ///   - repetitions: each side is run this many times; the fastest counts.
    /// - Throws: store and replay errors.
    public static func run(items: Int, traceSeconds: Double, threads: Int, repetitions: Int) throws -> Report {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("feedsim-bench-sweep-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("feed.sqlite").path
        do {
            let store = try ItemStore(path: path)
            var generator = ItemGenerator(preset: try Preset.named("photos"), seed: 1)
            _ = try Seeder.seed(store, feedNamed: "home", generator: &generator, count: items)
        }
        let trace = TraceSynthesizer(model: .flinger, duration: traceSeconds, seed: 3).generate()
        let layout = LayoutConfiguration(kind: .grid, columns: 3, spacing: 2)
        let preset = try Preset.named("mixed")
        var runs: [ReplayOptions] = []
        for pageSize in [20, 50] {
            for prefetch in [5, 20] {
                for ranges in [RangeConfiguration.uikit, .texture] {
                    var options = ReplayOptions(
                        controller: FeedController.Configuration(
                            pageSize: pageSize, prefetchDistance: .items(prefetch)),
                        ranges: ranges, latency: .logNormal(median: 120, sigma: 0.5), seed: 1)
                    options.keepTimeline = true
                    runs.append(options)
                }
            }
        }
        let jobs = runs
        func processCPU() -> Double {
            var t = timespec()
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
            return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
        }
        func sweep(_ threads: Int) throws -> (Double, [SweepFigures], Double) {
            let cpu = processCPU()
            let start = DispatchTime.now().uptimeNanoseconds
            let figures = try Sweep.run(count: jobs.count, jobs: threads) { i in
                let store = try ItemStore(path: path)
                let result = try ReplaySession.run(
                    trace: trace, backend: store.pages(feed: try store.requireFeed(named: "home")), layout: layout,
                    options: jobs[i], insertPreset: preset)
                return SweepFigures(
                    report: result.report,
                    blankFractions: SweepFigures.blankFractions(timelineCSV: result.timelineCSV ?? ""))
            }
            let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            return (wall, figures, (processCPU() - cpu) / max(wall, 1e-9))
        }
        var one = Double.infinity
        var many = Double.infinity
        var rowsOne: [SweepFigures] = []
        var rowsMany: [SweepFigures] = []
        var coresOne = 0.0
        var coresMany = 0.0
        for _ in 0..<max(1, repetitions) {
            let (t1, r1, c1) = try sweep(1)
            let (tn, rn, cn) = try sweep(threads)
            if t1 < one { (one, coresOne) = (t1, c1) }
            if tn < many { (many, coresMany) = (tn, cn) }
            rowsOne = r1
            rowsMany = rn
        }
        return Report(
            combinations: jobs.count, traceSeconds: traceSeconds, items: items, oneThreadS: one, threads: threads,
            nThreadsS: many, speedup: many > 0 ? one / many : 0, cores: ProcessInfo.processInfo.activeProcessorCount,
            oneThreadCores: coresOne, nThreadsCores: coresMany, sameRows: rowsOne == rowsMany)
    }
}
