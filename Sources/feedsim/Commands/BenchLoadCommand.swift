import FeedLoad
import FeedSimBenchmarks
import Foundation

let benchLoadCommand = Command(
    name: "bench load",
    summary: "Benchmark load sessions' pages/s (pagination, then replay) against a raw SQLite C-API loop, 1 → N threads.",
    usage:
        "bench load [--db postgresql://…] [--count N] [--threads N] [--seconds S] [--rounds R] [--page-size N] "
        + "[--pages-per-session N] [--json]",
    options: [
        OptionSpec(
            "--db", "URI", accepts: .path,
            help: "Benchmark pagination sessions on this PostgreSQL database instead (a schema of its own, dropped "
                + "after), beside a raw libpq loop and pgbench at the same client count (--threads)."),
        OptionSpec(
            "--count", "N", accepts: .integer(100...100_000_000),
            help: "Items to seed (default 1000000; with --db 100000)."),
        OptionSpec("--threads", "N", accepts: .integer(1...256), default: "2", help: "Threads for the scaled run."),
        OptionSpec("--seconds", "S", accepts: .number(0.1...600), default: "2", help: "Seconds per measurement."),
        OptionSpec("--rounds", "R", accepts: .integer(1...100), default: "3", help: "Interleaved rounds per side and thread count; the best counts."),
        OptionSpec("--page-size", "N", accepts: .integer(1...1_000), default: "20", help: "Items per page."),
        OptionSpec("--pages-per-session", "N", accepts: .integer(1...1_000_000), default: "50", help: "Page budget of each pagination session."),
        OptionSpec("--json", .flag, help: "Print the report as JSON (sorted keys)."),
    ],
    run: { arguments in
        try arguments.expectNoPositionals()
        let count = try arguments.int("--count") ?? 1_000_000
        let threads = try arguments.int("--threads") ?? 2
        let seconds = try arguments.double("--seconds") ?? 2
        let rounds = try arguments.int("--rounds") ?? 3
        let pageSize = try arguments.int("--page-size") ?? 20
        let pagesPerSession = try arguments.int("--pages-per-session") ?? 50
        let showProgress = standardErrorIsTerminal
        if let db = arguments.value("--db") {
            guard case .postgresURI(let uri) = FeedDatabase.Target(db) else {
                throw UsageError("--db: bench load takes a postgresql:// URI (SQLite runs in a temporary directory)")
            }
            var pgbench: LoadBenchmark.PGBench?
            if let binary = try? findPGBench() {
                pgbench = { script, defines, options in
                    try runPGBench(
                        binary, uri: uri, script: script, defines: defines, options: options, clients: threads,
                        seconds: seconds)
                }
            } else {
                printError("feedsim bench load: pgbench not found (Debian: apt-get install postgresql-contrib); measuring without it")
            }
            let report = try LoadBenchmark.runPostgres(
                conninfo: uri, migrator: try FeedDatabase.postgresMigrator(),
                count: try arguments.int("--count") ?? 100_000, clients: threads, seconds: seconds, rounds: rounds,
                pageSize: pageSize, pagesPerSession: pagesPerSession, pgbench: pgbench
            ) {
                if showProgress { printError("bench load: " + $0) }
            }
            try printBenchReport(report, text: report.text, json: arguments.flag("--json"))
            return 0
        }
        let report = try LoadBenchmark.run(
            count: count, threads: threads, seconds: seconds, rounds: rounds, pageSize: pageSize,
            pagesPerSession: pagesPerSession
        ) {
            if showProgress { printError($0) }
        }
        try printBenchReport(report, text: report.text, json: arguments.flag("--json"))
        return 0
    }
)

/// Prints a benchmark's report: its JSON (sorted keys, pretty) with `json`, else the process
/// settings line and the report's text.
private func printBenchReport(_ report: some Encodable, text: String, json: Bool) throws {
    if json {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        print(String(decoding: try encoder.encode(report), as: UTF8.self))
    } else {
        print(ProcessSettings.summary)
        print(text)
    }
}
