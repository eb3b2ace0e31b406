import FeedPostgres
import FeedStore
import Foundation

let benchStoreCommand = Command(
    name: "bench store",
    summary: "Benchmark the item store against a raw SQLite C-API (or libpq) loop (ratios; target ≤ 1.25).",
    usage: "bench store [--db postgresql://…] [--count N] [--repetitions R] [--json]",
    options: [
        OptionSpec(
            "--db", .value, "URI",
            help: "Benchmark the PostgreSQL store on this database instead (two schemas, created and dropped)."),
        OptionSpec("--count", .value, "N", help: "Items to seed (100...50000000, default 1000000)."),
        OptionSpec(
            "--repetitions", .value, "R", help: "Runs of the walk and row measures; the fastest counts (default 3)."),
        OptionSpec("--json", .flag, help: "Print one JSON object."),
    ],
    run: { arguments in
        let count = try arguments.int("--count", default: 1_000_000, in: 100...50_000_000) ?? 1_000_000
        let repetitions = try arguments.int("--repetitions", default: 3, in: 1...100) ?? 3
        let verbose = standardErrorIsTerminal
        if let db = arguments.value("--db") {
            guard case .postgresURI(let uri) = FeedDatabase.Target(db) else {
                throw UsageError("--db: bench store takes a postgresql:// URI (SQLite runs in a temporary directory)")
            }
            return try benchPostgres(uri: uri, count: count, repetitions: repetitions, arguments: arguments)
        }
        let report = try StoreBenchmark.run(count: count, repetitions: repetitions) { line in
            if verbose { printError("bench store: \(line)") }
        }
        if arguments.flag("--json") {
            print(try StoreCommandSupport.json(report))
            return 0
        }
        var lines = [
            "bench store: \(report.items) items (preset mixed, seed 1), pages of \(report.pageSize), "
                + "row batches of \(report.batchSize); ratio = ItemStore time ÷ raw C-API time (target ≤ \(StoreBenchmark.target))",
            row("measure", "ItemStore", "raw C API", "unit", "ratio"),
        ]
        for measure in report.measures {
            lines.append(
                row(
                    measure.name, String(format: "%.1f", measure.api), String(format: "%.1f", measure.raw),
                    measure.unit,
                    String(format: "%.3f", measure.ratio)))
        }
        lines.append(report.withinTarget ? "all ratios within target" : "SOME RATIOS ABOVE TARGET")
        print(lines.joined(separator: "\n"))
        return 0
    }
)

/// One table row: the name left-aligned, the figures right-aligned.
private func row(_ name: String, _ api: String, _ raw: String, _ unit: String, _ ratio: String) -> String {
    func right(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
    return name + String(repeating: " ", count: max(0, 12 - name.count)) + right(api, 14) + right(raw, 14) + "  "
        + unit + String(repeating: " ", count: max(0, 9 - unit.count)) + right(ratio, 7)
}

/// `bench store --db postgresql://…`: PostgresStore against the raw libpq loop.
private func benchPostgres(uri: String, count: Int, repetitions: Int, arguments: ParsedArguments) throws -> Int32 {
    let preset = try Preset.named("mixed")
    let verbose = standardErrorIsTerminal
    let report = try PostgresBenchmark.run(
        conninfo: uri, migrator: try FeedDatabase.postgresMigrator(), count: count,
        makeGenerator: {
            var generator = ItemGenerator(preset: preset, seed: 1)
            return { generator.next() }
        }, repetitions: repetitions
    ) { line in
        if verbose { printError("bench store: \(line)") }
    }
    if arguments.flag("--json") {
        print(try StoreCommandSupport.json(report))
        return 0
    }
    var lines = [
        "bench store: PostgreSQL \(report.serverVersion) at \(report.database), \(report.items) items (preset mixed, "
            + "seed 1), pages of \(report.pageSize), row batches of \(report.batchSize); "
            + "ratio = PostgresStore time ÷ raw libpq time (target ≤ \(PostgresBenchmark.target))",
        row("measure", "PostgresStore", "raw libpq", "unit", "ratio"),
    ]
    for measure in report.measures {
        lines.append(
            row(
                measure.name, String(format: "%.1f", measure.api), String(format: "%.1f", measure.raw), measure.unit,
                String(format: "%.3f", measure.ratio)))
    }
    lines.append(report.withinTarget ? "all ratios within target" : "SOME RATIOS ABOVE TARGET")
    print(lines.joined(separator: "\n"))
    return 0
}
