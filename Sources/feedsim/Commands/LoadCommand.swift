import FeedHTTP
import FeedLoad
import FeedModel
import FeedReplay
import FeedReport
import FeedResources
import FeedStore
import Foundation

let loadCommand = Command(
    name: "load",
    summary: "Load-test pagination: many replay sessions on real threads against one store, with writers.",
    usage: "load --db PATH | --source URL [--convention NAME|FILE] [--truth-db PATH] [--sessions N | --arrival-rate R --sessions SLOTS] [--duration S] [--time-scale K|max] "
        + "[--trace FILE ... | --model M,... --trace-duration S] [--writers W --write-rate R] "
        + "[--pagination keyset|offset] [layout and replay options] [--json] [--report FILE] [--html FILE]",
    options: [
        OptionSpec("--db", "PATH", accepts: .path, help: "Seeded SQLite database file (see feedsim seed)."),
        OptionSpec("--feed", .value, "NAME", help: "Feed to scroll and write (default home)."),
        OptionSpec(
            "--sessions", "N", accepts: .integer(1...LoadConfiguration.maxSessions), default: "8",
            help: "Closed model: N concurrent sessions; open model: N slots (each holds a connection and a replay)."),
        OptionSpec(
            "--arrival-rate", "R", accepts: .number(0.001...1_000_000),
            help: "Open model: R session arrivals per second; arrivals finding no free slot are dropped."),
        OptionSpec("--duration", "SECONDS", accepts: .number(0.001...86_400), default: "10", help: "Stop after this many wall seconds."),
        OptionSpec(
            "--time-scale", "K|max", accepts: .numberOrWord(0.000_001...1_000_000, word: "max"), default: "1",
            help: "Virtual time per wall time: 1 real time, 10 ten times faster, max no waiting."),
        OptionSpec(
            "--trace", .repeated, "FILE",
            help: "A trace to replay; repeat for more, sessions take them in turn (default: synthesized)."),
        OptionSpec(
            "--trace-format", .value, "F", help: "jsonl (default) | evemu | chrome | touch-csv | rrweb, for every --trace."),
        OptionSpec(
            "--model", .value, "LIST",
            help: "Synthesized traces' user models, comma separated, used in turn: "
                + SynthModel.allCases.map(\.rawValue).joined(separator: ", ") + " (default skimmer,flinger)."),
        OptionSpec("--trace-duration", "S", accepts: .number(0.1...86_400), default: "30", help: "Length of each synthesized trace, seconds."),
        OptionSpec("--pagination", .value, "MODE", help: "keyset (default) or offset (the baseline that breaks)."),
        OptionSpec(
            "--writers", "W", accepts: .integer(0...LoadConfiguration.maxWriters), default: "0",
            help: "Writer threads inserting at the feed's head (SQLite has one writer at a time: more only queue)."),
        OptionSpec("--write-rate", "R", accepts: .number(0.001...10_000_000), default: "10", help: "Items per second over all writers."),
        OptionSpec("--write-batch", "N", accepts: .integer(1...100_000), default: "1", help: "Items per BEGIN IMMEDIATE transaction."),
        OptionSpec(
            "--write-mix", .value, "MIX",
            help: "Writer operations by weight, e.g. insert=8,update=1,delete=1 (default insert only): updates give an "
                + "item a new title and payload, deletes remove one; both pick the writer's own items, else the newest."),
        OptionSpec(
            "--keep-writes", .flag,
            help: "Keep what the writers wrote (default: when the run ends each writer deletes its rows and the items "
                + "they updated or deleted are put back)."),
        OptionSpec(
            "--writer-preset", .value, "NAME",
            help: "Preset shaping written items, by writers and traces' insert events (default mixed)."),
        OptionSpec(
            "--workers", "N", accepts: .integer(1...LoadConfiguration.maxWorkers), help: "Session threads (default: active processors)."),
        OptionSpec("--json", .flag, help: "Print the report as JSON (sorted keys)."),
        OptionSpec("--report", .value, "FILE", help: "Also write the JSON report to FILE (for `feedsim compare`)."),
        OptionSpec(
            "--html", .value, "FILE",
            help: "Write a self-contained HTML report (throughput, latency per query kind, sessions, errors, blank area over time)."),
    ] + LayoutOptions.specs + LoadCommandSupport.replaySpecs + TraceImportParsing.specs + SourceOptions.specs + LoadSource.specs,
    run: { arguments in
        let configuration = try LoadCommandSupport.configuration(arguments)
        let stop = StopSignal()
        stop.installInterruptHandler()
        let convention = try LoadSource.check(arguments, writers: configuration.writers, writeMix: configuration.writeMix)
        var http: HTTPSourceConnector?
        let runner = try LoadRunner(configuration: configuration, stop: stop) { configuration in
            guard let convention else { return try openSQLite(configuration) }
            http = try LoadSource.connector(arguments, convention: convention, configuration: configuration)
            return http!
        }
        var report = LoadCommandSupport.runWithProgress(runner)
        if let http { report.source = LoadSource.problems(http) }
        if let failure = report.startFailure { throw CommandFailure(failure) }
        if let path = arguments.value("--report") {
            try writeOutput(Data((try report.json() + "\n").utf8), to: path, option: "--report")
        }
        if let path = arguments.value("--html") {
            let page = try LoadHTMLReport.html(report: report, title: "FeedSim load test of \(report.settings.db)")
            try writeOutput(Data(page.utf8), to: path, option: "--html")
        }
        print(arguments.flag("--json") ? try report.json() : report.text, terminator: arguments.flag("--json") ? "\n" : "")
        if !arguments.flag("--json"), let source = report.source { print(source.textLines.joined(separator: "\n")) }
        let (status, warning) = LoadCommandSupport.outcome(of: report)
        if let warning { printError("feedsim load: " + warning) }
        return status
    }
)

enum LoadCommandSupport {
    /// The exit status of a finished load and the line for stderr: 1 when no page was ever served
    /// (the sessions could not read the store: e.g. another process's exclusive lock), a warning
    /// when some queries failed, 2 for violations, else 0.
    static func outcome(of report: LoadReport) -> (status: Int32, stderr: String?) {
        let codes = report.errors.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        if report.pages == 0 {
            return (
                1,
                "no page was served: the sessions could not read \(report.settings.db)"
                    + (codes.isEmpty ? "" : " (\(codes))")
                    + (report.errors["SQLITE_BUSY"] != nil ? "; another process holds a lock on it" : "")
            )
        }
        let warning = codes.isEmpty ? nil : "some queries failed (\(codes)); see errors in the report"
        return (report.hasViolations ? 2 : 0, warning)
    }

    /// `feedsim replay`'s options but latency and faults: a load's latency and failures are real.
    static let replaySpecs = ReplayOptionsParsing.specs.filter { !["--latency", "--faults"].contains($0.name) }

    /// The load configuration from the command line. - Throws: ``UsageError`` or ``CommandFailure``.
    static func configuration(_ arguments: ParsedArguments) throws -> LoadConfiguration {
        let source = arguments.value("--source")
        let path = try source ?? arguments.required("--db")
        if source == nil, case .postgresURI = FeedDatabase.Target(path) {
            // The load tester still opens SQLite connections of its own (sessions, writers, ground
            // truth); it moves onto the backend seam in the core issue. Refused rather than creating
            // a SQLite file named like the URI.
            throw CommandFailure("--db: load runs on SQLite files only for now; \(path) is a PostgreSQL URI")
        }
        // Usage first: a layout option the layout does not read is refused before any file is opened.
        let layout = try LayoutOptions.configuration(from: arguments, defaultKind: .grid)
        var replay = try ReplayOptionsParsing.options(from: arguments)
        // A layout with a refresh view: the refresh control holds its height open while refreshing.
        if layout.refreshHeight > 0 { replay.refreshControlHeight = layout.refreshHeight }
        guard source != nil || FileManager.default.fileExists(atPath: path) else {
            throw CommandFailure("\(path): no such database (create one with feedsim seed)")
        }
        let sessions = try arguments.int("--sessions") ?? 8
        let model: ArrivalModel
        if let rate = try arguments.double("--arrival-rate") {
            model = .open(ratePerSecond: rate, slots: sessions)
        } else {
            model = .closed(sessions: sessions)
        }
        let timeScale: Double? = arguments.value("--time-scale") == "max" ? nil : try arguments.double("--time-scale")
        let traces = try sessionTraces(arguments)
        let paginationText = arguments.value("--pagination") ?? "keyset"
        guard let pagination = PaginationMode(rawValue: paginationText) else {
            throw CommandFailure("--pagination: expected keyset or offset, got '\(paginationText)'")
        }
        var writeMix = WriteMix.insertOnly
        if let text = arguments.value("--write-mix") {
            do { writeMix = try WriteMix(parsing: text) } catch {
                throw UsageError("--write-mix: \(error)", showsUsage: false)
            }
        }
        var configuration = LoadConfiguration(
            path: path, feedName: arguments.value("--feed") ?? "home", model: model, traces: traces,
            layout: layout,
            replay: replay, timeScale: timeScale, pagination: pagination,
            durationSeconds: try arguments.double("--duration") ?? 10,
            workers: try arguments.int("--workers")
                ?? min(ProcessInfo.processInfo.activeProcessorCount, LoadConfiguration.maxWorkers),
            writers: try arguments.int("--writers") ?? 0,
            writeRate: try arguments.double("--write-rate") ?? 10,
            writeBatch: try arguments.int("--write-batch") ?? 1,
            writerPreset: arguments.value("--writer-preset") ?? "mixed", seed: try ReplayOptionsParsing.seed(arguments),
            keepWrites: arguments.flag("--keep-writes"))
        configuration.writeMix = writeMix
        configuration.session = try LoadSource.sessionKind(arguments)
        return configuration
    }

    /// `--trace FILE …` read once (any format), or `--model` / `--trace-duration` to synthesize.
    /// - Throws: ``UsageError`` when both are given; ``CommandFailure`` for an unknown model or a
    ///   trace that cannot be read (naming the file, line and field).
    static func sessionTraces(_ arguments: ParsedArguments) throws -> SessionTraces {
        let files = arguments.all("--trace")
        if !files.isEmpty {
            if arguments.value("--model") != nil || arguments.value("--trace-duration") != nil {
                throw UsageError("--trace replays files; --model and --trace-duration synthesize traces: give one or the other")
            }
            return .files(
                try files.map { file in
                    let imported = try TraceImportParsing.load(path: file, format: arguments.value("--trace-format"), arguments)
                    TraceImportParsing.warn(imported)
                    return imported.trace
                })
        }
        if arguments.value("--trace-format") != nil { throw UsageError("--trace-format needs --trace FILE") }
        var models: [SynthModel] = [.skimmer, .flinger]
        if let text = arguments.value("--model") {
            models = try text.split(separator: ",", omittingEmptySubsequences: false).map { name in
                guard let model = SynthModel(rawValue: String(name)) else {
                    throw CommandFailure(
                        "--model: unknown model '\(name)' (\(SynthModel.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                return model
            }
        }
        let seconds = try arguments.double("--trace-duration") ?? 30
        return .synthesized(models: models, durationSeconds: seconds)
    }

    /// Runs the load, redrawing a progress line on stderr twice a second when it is a terminal.
    static func runWithProgress(_ runner: LoadRunner) -> LoadReport {
        guard standardErrorIsTerminal else { return runner.run() }
        let finished = DispatchSemaphore(value: 0)
        let thread = Thread {
            while finished.wait(timeout: .now() + 0.5) == .timedOut {
                FileHandle.standardError.write(Data(("\r\u{1B}[K" + runner.progress().line).utf8))
            }
            FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
        }
        thread.start()
        let report = runner.run()
        finished.signal()
        Thread.sleep(forTimeInterval: 0.01)
        return report
    }
}

/// Opens the SQLite file (`--db`) and feed (`--feed`) a load names: the backend `feedsim load` hands over.
/// - Throws: ``FeedLoad/LoadConfigurationError`` (field `db`) for a missing file, or one locked by
///   another process past the busy timeout; the store's errors otherwise.
func openSQLite(_ configuration: LoadConfiguration) throws -> any FeedBackendConnector {
    try configuration.checkDatabaseFile()
    do {
        return try SQLiteConnector(path: configuration.path, feedName: configuration.feedName)
    } catch let error as SQLiteError where error.isBusy {
        throw LoadConfigurationError(
            field: "db",
            reason: "\(configuration.path) is locked by another process (still busy after "
                + "\(ItemStore.busyTimeoutMilliseconds / 1000) s): no session could read it")
    }
}
