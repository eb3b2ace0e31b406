import Synchronization
import FeedLayout
import FeedReplay
import FeedReport
import FeedResources
import FeedStore
import Foundation

/// The options a sweep may vary: every replay and layout option of `feedsim replay` (and `--feed`).
private let variableSpecs: [OptionSpec] =
    ReplayOptionsParsing.specs + LayoutOptions.specs + [
        OptionSpec("--feed", .value, "NAME", help: "Feed to replay against (default home)."),
        OptionSpec(
            "--insert-preset", .value, "NAME",
            help: "Preset for rows written by the traces' insert events (default mixed)."),
    ]

/// What a varied option is when the command line does not set it (for "current settings").
private let defaultValues: [String: String] = [
    "--page-size": "20", "--initial-pages": "3", "--ranges": "uikit", "--scroll": "uikit",
    "--latency": "lognormal:120,0.5", "--faults": "none", "--seed": "1", "--layout": "grid", "--kind": "grid", "--feed": "home",
    "--insert-preset": "mixed",
]

/// `feedsim sweep`: every combination of the varied options × every trace, in parallel.
let sweepCommand = Command(
    name: "sweep",
    summary: "Replay every combination of varied options for every trace in parallel; mark the Pareto frontier.",
    usage: """
        sweep --db PATH|URI --trace FILE [--trace FILE …] --vary 'page-size=20,50' [--vary 'OPTION=V1,V2' …]
                     [--jobs N] [--cost requests|rows] [--harm blank-p95|hitch-ratio] [--json | --csv FILE] [--html FILE]
                     [any replay or layout option, fixed for every run] [importer options: --px-per-pt K ...]
        """,
    options: [
        OptionSpec(
            "--db", .value, "PATH|URI",
            help:
                "SQLite file or postgresql:// URI, seeded by `feedsim seed` or `feedsim import`; each job opens its own connection."
        ),
        OptionSpec("--trace", .repeated, "FILE", help: "A trace to replay (repeat for several)."),
        OptionSpec(
            "--trace-format", .value, "F",
            help: "Format of the traces: jsonl (default) | evemu | chrome | touch-csv | rrweb."),
        OptionSpec(
            "--vary", .repeated, "OPTION=V1,V2",
            help:
                "An option of `feedsim replay` and its values (V1|V2 when values hold commas); repeat to combine. Flags take on|off."
        ),
        OptionSpec(
            "--jobs", "N", accepts: .integer(1...1024),
            help: "Replays run at once (default: the number of cores). Results do not depend on it."),
        OptionSpec("--cost", .value, "C", help: "Frontier cost: requests (default) | rows (rows fetched)."),
        OptionSpec("--harm", .value, "H", help: "Frontier harm: blank-p95 (default) | hitch-ratio."),
        OptionSpec("--json", .flag, help: "Print the rows as JSON instead of the table."),
        OptionSpec("--csv", "FILE", accepts: .output, help: "Also write the rows as CSV to FILE."),
        OptionSpec("--html", "FILE", accepts: .output, help: "Also write an HTML page with the frontier's scatter plot."),
    ] + variableSpecs + TraceImportParsing.specs,
    run: { arguments in
        Interruption.shared.install()
        let dbPath = try arguments.required("--db")
        let tracePaths = arguments.all("--trace")
        if tracePaths.isEmpty { throw UsageError("missing required option '--trace'") }
        if !arguments.positionals.isEmpty { throw UsageError("unexpected argument '\(arguments.positionals[0])'") }
        let varies = arguments.all("--vary")
        if varies.isEmpty { throw UsageError("missing required option '--vary' (e.g. --vary 'page-size=20,50')") }
        let axes: [Sweep.Axis]
        do { axes = try varies.map(Sweep.Axis.parse) } catch { throw UsageError("\(error)") }
        // One axis per option: a second `--vary page-size=…` made a second column whose values won
        // and rows that repeated each other.
        for (position, axis) in axes.enumerated() where axes[..<position].contains(where: { $0.option == axis.option }) {
            throw UsageError.badValue(
                "--vary", "'\(axis.option)' is varied twice; give all its values in one --vary (e.g. '\(axis.option)=a,b,c')")
        }
        let plan = try SweepPlan(arguments: arguments, axes: axes)
        try checkOutputPaths(arguments, options: ["--csv", "--html"])
        let jobs = try arguments.int("--jobs", default: ProcessInfo.processInfo.activeProcessorCount)!
        guard let cost = SweepCost(rawValue: arguments.value("--cost") ?? "requests") else {
            throw UsageError("--cost: expected requests or rows, got '\(arguments.value("--cost")!)'")
        }
        guard let harm = SweepHarm(rawValue: arguments.value("--harm") ?? "blank-p95") else {
            throw UsageError("--harm: expected blank-p95 or hitch-ratio, got '\(arguments.value("--harm")!)'")
        }
        // Everything is read and checked before the first replay runs.
        // With the importer options and header overrides `replay` takes (`--px-per-pt`, `--viewport`,
        // evemu's axes), and its warnings when a unit is guessed: sweeping AOSP touch-csv rows took
        // 1 px for 1 pt, silently.
        let traces = try tracePaths.map { path in
            let imported = try TraceImportParsing.load(path: path, format: arguments.value("--trace-format"), arguments)
            TraceImportParsing.warn(imported)
            return imported.trace
        }
        let database = try FeedDatabase.open(dbPath, for: .readOnly)
        for feed in Set(plan.runs.map(\.feed)).sorted() {
            _ = try database.backend(feedNamed: feed)  // an unknown feed fails here (exit 1), before any replay
        }
        let runs = plan.runs
        let count = runs.count * traces.count
        if standardErrorIsTerminal { printError("sweep: \(count) replays on \(min(jobs, count)) threads…") }
        @Sendable func sweepJob(_ job: Int) throws -> SweepFigures {
            let run = runs[job / traces.count]
            // One read-only connection per job (SQLite file or PostgreSQL), used by its thread only.
            let backend = try FeedDatabase.open(dbPath, for: .readOnly).backend(feedNamed: run.feed)
            return try Sweep.replay(
                trace: traces[job % traces.count], backend: backend, layout: run.layout, options: run.options,
                insertPreset: run.insertPreset)
        }
        // SIGINT / SIGTERM (caught from the start): no new replay starts, the running ones finish,
        // nothing is written (exit 130).
        let replaysDone = SweepProgress()
        let figures: [SweepFigures]
        do {
            figures = try Sweep.run(count: count, jobs: jobs) { job in
                if Interruption.shared.isSet { throw SweepInterrupted() }
                let figures = try sweepJob(job)
                replaysDone.done.withLock { $0[job / traces.count, default: 0] += 1 }
                return figures
            }
        } catch is SweepInterrupted {
            let finished = replaysDone.done.withLock { done in done.values.filter { $0 == traces.count }.count }
            throw InterruptedCommand(
                outcome: "\(finished) of \(runs.count) combination\(runs.count == 1 ? "" : "s") finished; "
                    + "no output was written")
        }
        let rows = figures.enumerated().map { job, figures in
            let combination = job / traces.count
            return SweepRow(
                combination: combination, trace: tracePaths[job % traces.count], settings: runs[combination].values,
                figures: figures, isCurrent: runs[combination].isCurrent)
        }
        let report = SweepReport(axes: axes, rows: rows, cost: cost, harm: harm)
        if let csv = arguments.value("--csv") { try writeOutput(Data(report.csv.utf8), to: csv, option: "--csv") }
        if let html = arguments.value("--html") { try writeOutput(Data(report.html.utf8), to: html, option: "--html") }
        print(arguments.flag("--json") ? report.json : report.text, terminator: "")
        return 0
    }
)

/// A sweep job refused because SIGINT or SIGTERM arrived before it started.
private struct SweepInterrupted: Error {}

/// The traces replayed so far per combination (index → count), shared by the sweep's threads.
private final class SweepProgress: Sendable {
    let done = Mutex<[Int: Int]>([:])
}

/// Every combination's options, parsed and validated before anything runs.
struct SweepPlan {
    struct Run: Sendable {
        var values: [String]
        var options: ReplayOptions
        var layout: LayoutConfiguration
        var feed: String
        var insertPreset: Preset
        var isCurrent: Bool
    }

    var runs: [Run] = []

    /// - Throws: ``UsageError`` (exit 64) for an option that cannot be varied or a value it refuses.
    init(arguments: ParsedArguments, axes: [Sweep.Axis]) throws {
        let byName = Dictionary(variableSpecs.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for axis in axes {
            guard byName["--" + axis.option] != nil else {
                let near = nearestName(to: "--" + axis.option, among: Array(byName.keys)).map {
                    "did you mean '\($0.dropFirst(2))'? "
                } ?? ""
                throw UsageError(
                    "--vary: unknown option '\(axis.option)' (\(near)any option of `feedsim replay --help` but --db, --trace "
                        + "and outputs)", showsUsage: false)
            }
        }
        // The fixed options of the command line, as tokens for each combination's own parse.
        var base: [String: [String]] = [:]
        for spec in variableSpecs {
            if spec.kind == .flag {
                if arguments.flag(spec.name) { base[spec.name] = [spec.name] }
            } else if let value = arguments.value(spec.name) {
                base[spec.name] = [spec.name, value]
            }
        }
        for combination in Sweep.combinations(axes) {
            var tokens = base
            var isCurrent = true
            for (option, value) in combination {
                let name = "--" + option
                if byName[name]!.kind == .flag {
                    switch value {
                    case "on", "true": tokens[name] = [name]
                    case "off", "false": tokens[name] = nil
                    default: throw UsageError("--vary \(option): a flag takes on or off, got '\(value)'")
                    }
                    isCurrent = isCurrent && (arguments.flag(name) == (value == "on" || value == "true"))
                } else {
                    tokens[name] = [name, value]
                }
            }
            for (option, value) in combination where byName["--" + option]!.kind != .flag {
                let name = "--" + option
                // More's trigger distance defaults to one page: items:<this combination's page size>.
                let pageSize = tokens["--page-size"]?.last ?? "20"
                let fallback = name == "--prefetch" ? "items:" + pageSize : defaultValues[name]
                isCurrent = isCurrent && (arguments.value(name) ?? fallback) == value
            }
            let parsed = try ParsedArguments(tokens.keys.sorted().flatMap { tokens[$0]! }, specs: variableSpecs)
            let label = combination.map { "\($0.option)=\($0.value)" }.joined(separator: " ")
            do {
                runs.append(
                    Run(
                        values: combination.map(\.value), options: try ReplayOptionsParsing.options(from: parsed),
                        layout: try LayoutOptions.configuration(from: parsed, defaultKind: .grid),
                        feed: parsed.value("--feed") ?? "home",
                        insertPreset: try namedPreset(parsed.value("--insert-preset") ?? "mixed", option: "--insert-preset"),
                        isCurrent: isCurrent))
            } catch let failure as CommandFailure {
                throw UsageError("--vary (\(label)): \(failure.message)")
            } catch {
                throw UsageError("--vary (\(label)): \(error)")
            }
        }
    }
}
