import FeedResources
import FeedPostgres
import FeedStore
import FeedSimBenchmarks
import Foundation

let benchStoreCommand = Command(
    name: "bench store",
    summary: "Benchmark the item store against a raw SQLite C-API (or libpq) loop (ratios; target ≤ 1.25).",
    usage: "bench store [--db postgresql://…] [--count N] [--repetitions R] [--json]",
    options: [
        OptionSpec(
            "--db", "URI", accepts: .path,
            help: "Benchmark the PostgreSQL store on this database instead (two schemas, created and dropped)."),
        OptionSpec(
            "--clients", "N", accepts: .integer(0...256), default: "4",
            help: "With --db: also N concurrent paging sessions beside pgbench running the same statement (0: skip)."),
        OptionSpec(
            "--seconds", "S", accepts: .number(1...3600), default: "5",
            help: "With --clients: seconds each side runs per round (--repetitions rounds)."),
        OptionSpec("--count", "N", accepts: .integer(100...50_000_000), default: "1000000", help: "Items to seed."),
        OptionSpec(
            "--repetitions", "R", accepts: .integer(1...100), default: "3", help: "Runs of the walk and row measures; the fastest counts."),
        OptionSpec("--json", .flag, help: "Print one JSON object."),
    ],
    run: { arguments in
        try arguments.expectNoPositionals()
        let count = try arguments.int("--count") ?? 1_000_000
        let repetitions = try arguments.int("--repetitions") ?? 3
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
            ProcessSettings.summary,
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
    let clientCount = try arguments.int("--clients") ?? 4
    let seconds = try arguments.double("--seconds") ?? 5
    var clients: PostgresBenchmark.Clients?
    if clientCount > 0 {
        let pgbench = try findPGBench()
        clients = PostgresBenchmark.Clients(clients: clientCount, seconds: seconds) { script, defines, options in
            try runPGBench(pgbench, uri: uri, script: script, defines: defines, options: options, clients: clientCount,
                           seconds: seconds)
        }
    }
    let report = try PostgresBenchmark.run(
        conninfo: uri, migrator: try FeedDatabase.postgresMigrator(), count: count,
        makeGenerator: {
            var generator = ItemGenerator(preset: preset, seed: 1)
            return { generator.next() }
        }, repetitions: repetitions, clients: clients
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
            + "ratio = PostgresStore time ÷ raw libpq time, or pgbench transactions/s ÷ FeedSim pages/s at the same "
            + "client count (target ≤ \(PostgresBenchmark.target))",
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

/// `pgbench` on the PATH, else the newest under /usr/lib/postgresql (Debian's layout).
func findPGBench() throws -> URL {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    var candidates = path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent("pgbench") }
    let debian = URL(fileURLWithPath: "/usr/lib/postgresql")
    let versions = (try? FileManager.default.contentsOfDirectory(atPath: debian.path)) ?? []
    for version in versions.sorted(by: { (Int($0) ?? 0) > (Int($1) ?? 0) }) {
        candidates.append(debian.appendingPathComponent(version).appendingPathComponent("bin/pgbench"))
    }
    guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
        throw CommandFailure("bench store --clients: pgbench not found (Debian: apt-get install postgresql-contrib, or --clients 0)")
    }
    return found
}

/// Runs pgbench with `script` (prepared protocol, as FeedSim's statements) and returns its tps.
func runPGBench(
    _ pgbench: URL, uri: String, script: String, defines: [(String, String)], options: String, clients: Int,
    seconds: Double
) throws -> Double {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("feedsim-pgbench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let scriptURL = directory.appendingPathComponent("keyset.sql")
    try Data(script.utf8).write(to: scriptURL)
    let outURL = directory.appendingPathComponent("out.txt")
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    let process = Process()
    process.executableURL = pgbench
    process.arguments = ["-n", "-M", "prepared", "-f", scriptURL.path, "-c", String(clients), "-j", String(clients),
                         "-T", String(Int(seconds.rounded(.up)))] + defines.flatMap { ["-D", "\($0.0)=\($0.1)"] } + [uri]
    var environment = ProcessInfo.processInfo.environment
    environment["PGOPTIONS"] = options
    process.environment = environment
    let output = try FileHandle(forWritingTo: outURL)
    process.standardOutput = output
    process.standardError = output
    // pgbench ends a -T run on SIGALRM (pgbench.c's setalarm): a blocked SIGALRM, inherited from
    // the spawning thread's mask (a test runner's threads block signals), would let it run forever.
    var alarm = sigset_t()
    sigemptyset(&alarm)
    sigaddset(&alarm, SIGALRM)
    pthread_sigmask(SIG_UNBLOCK, &alarm, nil)
    try process.run()
    // A watchdog all the same: a pgbench still running long past its -T is stopped and reported.
    let limit = Date().addingTimeInterval(seconds.rounded(.up) * 3 + 30)
    while process.isRunning && Date() < limit { Thread.sleep(forTimeInterval: 0.05) }
    if process.isRunning {
        process.terminate()
        process.waitUntilExit()
        try? output.close()
        throw CommandFailure("pgbench did not end within \(Int(seconds.rounded(.up) * 3 + 30)) s of a \(Int(seconds.rounded(.up))) s run")
    }
    process.waitUntilExit()
    try output.close()
    let text = (try? String(contentsOf: outURL, encoding: .utf8)) ?? ""
    guard process.terminationStatus == 0,
        let line = text.split(separator: "\n").first(where: { $0.hasPrefix("tps = ") }),
        let tps = Double(line.dropFirst("tps = ".count).prefix { $0.isNumber || $0 == "." })
    else {
        throw CommandFailure("bench store: pgbench failed (exit \(process.terminationStatus)): \(text.suffix(400))")
    }
    return tps
}
