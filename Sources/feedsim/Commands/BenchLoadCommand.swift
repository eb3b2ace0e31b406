import FeedLoad
import FeedSimBenchmarks
import Foundation

let benchLoadCommand = Command(
    name: "bench load",
    summary: "Benchmark load sessions' pages/s (pagination, then replay) against a raw SQLite C-API loop, 1 → N threads.",
    usage:
        "bench load [--count N] [--threads N] [--seconds S] [--rounds R] [--page-size N] [--pages-per-session N] [--json]",
    options: [
        OptionSpec("--count", .value, "N", help: "Items to seed (default 1000000)."),
        OptionSpec("--threads", .value, "N", help: "Threads for the scaled run (default 2)."),
        OptionSpec("--seconds", .value, "S", help: "Seconds per measurement (default 2)."),
        OptionSpec("--rounds", .value, "R", help: "Interleaved rounds per side and thread count; the best counts (default 3)."),
        OptionSpec("--page-size", .value, "N", help: "Items per page (default 20)."),
        OptionSpec("--pages-per-session", .value, "N", help: "Page budget of each pagination session (default 50)."),
        OptionSpec("--json", .flag, help: "Print the report as JSON (sorted keys)."),
    ],
    run: { arguments in
        let count = try arguments.int("--count", default: 1_000_000, in: 100...100_000_000) ?? 1_000_000
        let threads = try arguments.int("--threads", default: 2, in: 1...256) ?? 2
        let seconds = try arguments.double("--seconds", default: 2, in: 0.1...600) ?? 2
        let rounds = try arguments.int("--rounds", default: 3, in: 1...100) ?? 3
        let pageSize = try arguments.int("--page-size", default: 20, in: 1...1_000) ?? 20
        let pagesPerSession = try arguments.int("--pages-per-session", default: 50, in: 1...1_000_000) ?? 50
        let showProgress = standardErrorIsTerminal
        let report = try LoadBenchmark.run(
            count: count, threads: threads, seconds: seconds, rounds: rounds, pageSize: pageSize,
            pagesPerSession: pagesPerSession
        ) {
            if showProgress { printError($0) }
        }
        if arguments.flag("--json") {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            print(ProcessSettings.summary)
            print(report.text)
        }
        return 0
    }
)
