import FeedReplay
import FeedSimBenchmarks
import Foundation

let benchReplayCommand = Command(
    name: "bench replay",
    summary:
        "Benchmark the replay: real-time factor, cost over the store alone, memory with page dropping (flat when 10× deeper).",
    usage: "bench replay [--count N] [--duration S] [--max-loaded N] [--repetitions R] [--seed S] [--json]",
    options: [
        OptionSpec(
            "--count", "N", accepts: .integer(1000...50_000_000), default: "1000000",
            help: "Items in the large feed; the small feed holds N/10."),
        OptionSpec("--duration", "S", accepts: .number(1...86_400), default: "600", help: "Length of the flinger trace, seconds."),
        OptionSpec(
            "--max-loaded", "N", accepts: .integer(80...10_000_000), default: "600", help: "Page dropping limit when dropping is on."),
        OptionSpec(
            "--repetitions", "R", accepts: .integer(1...100), default: "3", help: "Timed replays and store-only runs; the fastest counts."),
        OptionSpec("--seed", "S", accepts: .seed, default: "1", help: "Seed of the items, the trace and the replay."),
        OptionSpec("--json", .flag, help: "Print one JSON object."),
        OptionSpec("--child", .flag, help: "Internal: measure one memory case in this process and print it as JSON."),
        OptionSpec("--db", "PATH", accepts: .path, help: "Internal (--child): the seeded database."),
        OptionSpec("--no-drop", .flag, help: "Internal (--child): page dropping off."),
        OptionSpec(
            "--feed-items", "N", accepts: .integer(0...Int.max), default: "0", help: "Internal (--child): items in the database, for the record."),
        OptionSpec("--small-feed", .flag, help: "Internal (--child): the database is the small feed."),
        OptionSpec(
            "--case-duration", "S", accepts: .number(0.1...86_400),
            help: "Internal (--child): length of this memory case's trace, seconds (the shallow case's is --duration / 10)."),
    ],
    run: { arguments in
        if !arguments.positionals.isEmpty { throw UsageError("unexpected argument '\(arguments.positionals[0])'") }
        var configuration = ReplayBenchmark.Configuration()
        configuration.items = try arguments.int("--count")!
        configuration.durationS = try arguments.double("--duration")!
        configuration.maxLoadedItems = try arguments.int("--max-loaded")!
        configuration.repetitions = try arguments.int("--repetitions")!
        configuration.seed = try ReplayOptionsParsing.seed(arguments)
        if arguments.flag("--child") {
            return try runMemoryChild(arguments, configuration: configuration)
        }
        let verbose = standardErrorIsTerminal
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let report = try ReplayBenchmark.run(
            configuration,
            probe: { memoryCase, path in
                try spawnMemoryChild(
                    executable: executable, memoryCase: memoryCase, path: path, configuration: configuration)
            },
            progress: { line in if verbose { printError("bench replay: \(line)") } })
        if arguments.flag("--json") {
            print(try StoreCommandSupport.json(report))
        } else {
            print(report.textSummary, terminator: "")
        }
        return 0
    }
)

/// `--child`: one memory case, measured in this fresh process, printed as JSON on stdout.
private func runMemoryChild(_ arguments: ParsedArguments, configuration: ReplayBenchmark.Configuration) throws -> Int32
{
    let path = try arguments.required("--db")
    try StoreCommandSupport.requireDatabaseFile(path, hint: "create one with feedsim seed")
    let memoryCase = ReplayBenchmark.MemoryCase(
        durationS: try arguments.double("--case-duration") ?? configuration.durationS,
        maxLoadedItems: arguments.flag("--no-drop") ? nil : configuration.maxLoadedItems,
        smallFeed: arguments.flag("--small-feed"),
        feedItems: try arguments.int("--feed-items")!)
    let probe = try ReplayBenchmark.probeMemory(memoryCase, databasePath: path, configuration: configuration)
    print(try StoreCommandSupport.json(probe))
    return 0
}

/// Runs `feedsim bench replay --child ...` for one memory case and decodes its JSON.
/// - Throws: ``CommandFailure`` when the child fails or prints something else.
private func spawnMemoryChild(
    executable: String, memoryCase: ReplayBenchmark.MemoryCase, path: String,
    configuration: ReplayBenchmark.Configuration
) throws -> ReplayBenchmark.MemoryProbe {
    var childArguments = [
        "bench", "replay", "--child", "--db", path, "--duration", String(configuration.durationS),
        "--case-duration", String(memoryCase.durationS),
        "--max-loaded", String(configuration.maxLoadedItems), "--seed", String(configuration.seed),
        "--feed-items", String(memoryCase.feedItems),
    ]
    if memoryCase.maxLoadedItems == nil { childArguments.append("--no-drop") }
    if memoryCase.smallFeed { childArguments.append("--small-feed") }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = childArguments
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw CommandFailure("memory case '\(memoryCase.name)': child exited with \(process.terminationStatus)")
    }
    do {
        return try JSONDecoder().decode(ReplayBenchmark.MemoryProbe.self, from: data)
    } catch {
        throw CommandFailure("memory case '\(memoryCase.name)': unreadable child output (\(error))")
    }
}
