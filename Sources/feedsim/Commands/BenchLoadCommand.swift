import FeedLoad
import Foundation

let benchLoadCommand = Command(
    name: "bench load",
    summary: "Benchmark load sessions (pages/s) against a raw SQLite C-API loop, 1 → N threads.",
    usage: "bench load [--count N] [--threads N] [--seconds S] [--rounds R] [--page-size N] [--json]",
    options: [
        OptionSpec("--count", .value, "N", help: "Items to seed (default 1000000)."),
        OptionSpec("--threads", .value, "N", help: "Threads for the scaled run (default 2)."),
        OptionSpec("--seconds", .value, "S", help: "Seconds per measurement (default 2)."),
        OptionSpec("--rounds", .value, "R", help: "Interleaved rounds per side and thread count; the best counts (default 3)."),
        OptionSpec("--page-size", .value, "N", help: "Items per page (default 20)."),
        OptionSpec("--json", .flag, help: "Print the report as JSON (sorted keys)."),
    ],
    run: { arguments in
        let count = try arguments.int("--count", default: 1_000_000, in: 100...100_000_000) ?? 1_000_000
        let threads = try arguments.int("--threads", default: 2, in: 1...256) ?? 2
        let seconds = try arguments.double("--seconds", default: 2, in: 0.1...600) ?? 2
        let rounds = try arguments.int("--rounds", default: 3, in: 1...100) ?? 3
        let pageSize = try arguments.int("--page-size", default: 20, in: 1...1_000) ?? 20
        let showProgress = standardErrorIsTerminal
        let report = try LoadBenchmark.run(count: count, threads: threads, seconds: seconds, rounds: rounds, pageSize: pageSize) {
            if showProgress { printError($0) }
        }
        if arguments.flag("--json") {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
            return 0
        }
        func fixed(_ value: Double, _ digits: Int = 0) -> String { String(format: "%.\(digits)f", value) }
        print("bench load: \(report.items) items, pages of \(report.pageSize), \(report.pagesPerWalk) pages per walk, "
            + "\(report.rowBatchesPerPage) row statements per page")
        print("threads   load pages/s    raw pages/s   load ÷ raw")
        for (load, raw) in zip(report.load, report.raw) {
            let cells = [fixed(load.pagesPerSecond), fixed(raw.pagesPerSecond)].map {
                String(repeating: " ", count: max(0, 15 - $0.count)) + $0
            }
            print("\(String(repeating: " ", count: 7 - "\(load.threads)".count))\(load.threads)" + cells.joined()
                + "   " + fixed(load.pagesPerSecond / raw.pagesPerSecond, 2) + "×")
        }
        print(
            "ratio at \(report.load.last?.threads ?? 1) threads: \(fixed(report.ratio, 2))× (target ≥ "
                + "\(fixed(LoadBenchmark.target, 1))×); scaling 1 → \(report.load.last?.threads ?? 1) threads: load "
                + "\(fixed(report.loadScaling, 2))×, raw \(fixed(report.rawScaling, 2))×")
        print("where a session thread's time goes, per page (µs):")
        print("threads  frames   total   queries  simulation  harness   query-only pages/s/thread")
        for b in report.breakdown {
            let cells = [
                (fixed(b.framesPerPage, 1), 8), (fixed(b.microsecondsPerPage, 1), 8), (fixed(b.queryMicrosecondsPerPage, 1), 10),
                (fixed(b.simulationMicrosecondsPerPage, 1), 12), (fixed(b.harnessMicrosecondsPerPage, 1), 9),
                (fixed(b.queryOnlyPagesPerSecondPerThread), 28),
            ].map { String(repeating: " ", count: max(0, $0.1 - $0.0.count)) + $0.0 }
            print(String(repeating: " ", count: 7 - "\(b.threads)".count) + "\(b.threads)" + cells.joined())
        }
        return 0
    }
)
