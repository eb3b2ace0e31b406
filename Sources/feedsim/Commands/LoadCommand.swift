import FeedHTTP
import FeedLayout
import FeedLoad
import FeedModel
import FeedPostgres
import FeedReplay
import FeedReport
import FeedResources
import FeedStore
import Foundation

let loadCommand = Command(
    name: "load",
    summary: "Load-test pagination: many replay sessions on real threads against one store, with writers.",
    usage: "load --db PATH|URI | --source URL [--convention NAME|FILE] [--cacert FILE | --insecure] [--truth-db PATH|URI] "
        + "[--sessions N | --stages RAMP | --arrival-rate R|RAMP --sessions SLOTS] [--duration S] "
        + "[--time-scale K|max] [--iterations N] [--segment I/N] [--threshold EXPR ... [--abort-on-fail]] [--latency MODEL] "
        + "[--trace FILE ... | --model M,... --trace-duration S] [--writers W --write-rate R] "
        + "[--pagination keyset|offset] [layout and replay options] [--json] [--report FILE] [--html FILE]",
    options: [
        OptionSpec(
            "--db", "PATH|URI", accepts: .path,
            help: "Seeded SQLite database file, or a postgresql:// (postgres://) URI (libpq; PG* variables honoured)."),
        OptionSpec("--feed", .value, "NAME", help: "Feed to scroll and write (default home)."),
        OptionSpec(
            "--sessions", "N", accepts: .integer(1...LoadConfiguration.maxSessions), default: "8",
            help: "Closed model: N concurrent sessions; open model: N slots (each holds a connection and a replay)."),
        OptionSpec(
            "--arrival-rate", .value, "R|RAMP",
            help: "Open model: R session arrivals per second (0.001...1000000), or a ramp of rates DURATION:RATE,... "
                + "(30s:5,1m:20/s,30s:0; per second, or /m, /h; linear from 0, k6's ramping-arrival-rate) whose "
                + "stages set the run's length; arrivals finding no free slot (--sessions) are dropped_iterations."),
        OptionSpec(
            "--stages", .value, "RAMP",
            help: "Closed model ramp: DURATION:SESSIONS,... (30s:10,1m:50,30s:0): the sessions running move linearly "
                + "from the last target (0 at the start; 0s:N jumps) over each stage (k6's ramping-vus); sessions above "
                + "a falling target end at their next step. The stages set the run's length (no --duration)."),
        OptionSpec(
            "--threshold", .repeated, "EXPR",
            help: "Pass/fail criterion, k6 syntax METRIC.AGGREGATE OP VALUE[UNIT]; repeat for more: after.p99<50ms, "
                + "rows.p95<20ms, errors.rate<0.01, blank.p95<0.05, ttfc.p95<1s, consistency==0, api_problems==0 (--source). Metrics: "
                + LoadThreshold.Metric.all.map(\.name).joined(separator: ", ")
                + "; aggregates p(N)/pN, med, avg, min, max, count, rate; operators < <= > >= == !=; units ms, s, us, %. "
                + "Any breach exits 99."),
        OptionSpec(
            "--abort-on-fail", .flag,
            help: "With --threshold: stop the run at the first breach, checked every second (k6's abortOnFail); exits 99."),
        OptionSpec(
            "--latency", .value, "MODEL",
            help: "Client-side network delay added to each replay session's page and row answers on top of the measured "
                + "query time, seeded per session: fixed:MS, uniform:A,B, lognormal:MEDIAN,SIGMA, table:P=MS,... "
                + "(default fixed:0)."),
        OptionSpec(
            "--duration", "SECONDS", accepts: .number(0.001...86_400), default: "10",
            help: "Stop after this many wall seconds (with --iterations: at most, default 600)."),
        OptionSpec(
            "--iterations", "N", accepts: .integer(1...LoadConfiguration.maxIterations),
            help: "Run exactly N sessions in all, then stop (k6's shared iterations; with --time-scale max and no "
                + "writers the counts are the same every run)."),
        OptionSpec(
            "--segment", .value, "I/N",
            help: "Run the I-th of N shares of the sessions (session k when k mod N = I-1, same seeds and traces) "
                + "and of --sessions, --writers, --arrival-rate and a --stages ramp; merge the N reports with feedsim "
                + "report merge."),
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
            help: "Keep what the writers and the traces' insert events wrote (default: when the run ends each writer "
                + "deletes its rows, the items they updated or deleted are put back, and the rows the traces' insert "
                + "events wrote are deleted)."),
        OptionSpec(
            "--writer-preset", .value, "NAME",
            help: "Preset shaping written items, by writers and traces' insert events (default mixed)."),
        OptionSpec(
            "--workers", "N", accepts: .integer(1...LoadConfiguration.maxWorkers), help: "Session threads (default: active processors)."),
        OptionSpec("--json", .flag, help: "Print the report as JSON (sorted keys)."),
        OptionSpec("--report", "FILE", accepts: .output, help: "Also write the JSON report to FILE (for `feedsim compare`)."),
        OptionSpec(
            "--html", "FILE", accepts: .output,
            help: "Write a self-contained HTML report (throughput, latency per query kind, sessions, errors, blank area over time)."),
    ] + LayoutOptions.specs + LoadCommandSupport.replaySpecs + TraceImportParsing.specs + SourceOptions.specs + LoadSource.specs,
    run: { arguments in
        // First: a SIGINT while the traces are read or synthesized ends the run before it starts, with its summary.
        let stop = StopSignal()
        stop.installInterruptHandler()
        let configuration = try LoadCommandSupport.configuration(arguments)
        let convention = try LoadSource.check(arguments, writers: configuration.writers, writeMix: configuration.writeMix)
        try checkOutputPaths(arguments, options: ["--report", "--html"])
        var http: HTTPSourceConnector?
        let runner = try LoadRunner(configuration: configuration, stop: stop) { configuration in
            guard let convention else { return try openLoadBackend(configuration) }
            http = try LoadSource.connector(arguments, convention: convention, configuration: configuration)
            return http!
        }
        var report = LoadCommandSupport.runWithProgress(runner)
        if let http { report.source = LoadSource.problems(http) }
        if let failure = report.startFailure { throw CommandFailure(failure) }
        if let path = arguments.value("--report") {
            try writeOutput(Data((try report.json() + "\n").utf8), to: path, option: "--report")
        }
        if let aborted = report.aborted {
            printError("feedsim load: threshold \(aborted.threshold) breached at \(String(format: "%.1f", aborted.atS)) s; run aborted (--abort-on-fail)")
        }
        if let path = arguments.value("--html") {
            let page = try LoadHTMLReport.html(report: report, title: "FeedSim load test of \(report.settings.db)")
            try writeOutput(Data(page.utf8), to: path, option: "--html")
        }
        print(arguments.flag("--json") ? try report.json() : report.text, terminator: arguments.flag("--json") ? "\n" : "")
        if let line = report.iterationsLine { printError("feedsim load: " + line) }
        // Ctrl-C or SIGTERM (k6's way): the run ended early, the summary and --report above cover
        // it; exit 128 + the signal (130, 143).
        if report.stoppedEarly, report.aborted == nil, stop.isSet {
            let number = stop.signal ?? SIGINT
            printError(
                "feedsim load: interrupted by \(number == SIGTERM ? "SIGTERM" : "SIGINT"): the summary and report cover the run so far")
            return 128 + number
        }
        let (status, warning) = LoadCommandSupport.outcome(of: report)
        if let warning { printError("feedsim load: " + warning) }
        return status
    }
)

enum LoadCommandSupport {
    /// The exit status of a finished load and the line for stderr: 0 with a note when no session
    /// started (an empty segment; 99 if a threshold still failed), 1 when no page was ever served
    /// (the sessions could not read the store: e.g. another process's exclusive lock) or when a
    /// query found the database damaged (`SQLITE_CORRUPT`, `SQLITE_NOTADB`, `SQLITE_IOERR`), a
    /// warning when some queries failed, 99 when a threshold was breached (k6's code), 2 for
    /// violations, else 0.
    static func outcome(of report: LoadReport) -> (status: Int32, stderr: String?) {
        let codes = report.errors.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        // Nothing to serve: a segment whose share of --iterations is empty (3 iterations cut into
        // 4), or an open model that saw no arrival. Not a failure of the backend.
        if report.pages == 0, report.sessions.started == 0, report.errors.isEmpty, report.startFailure == nil {
            let share = report.settings.segment.map { "segment \($0)'s share of the sessions is empty" } ?? "no session arrived"
            return (report.thresholdsPassed ? 0 : 99, "no session started: \(share); nothing was asked of \(report.settings.db)")
        }
        // Sessions started, nothing failed, and still no page: the run ended before any answer
        // landed (a --duration shorter than one query, or an API slower than the run). Not a
        // failure of the backend (it said "could not read" with no error at all).
        if report.pages == 0, report.errors.isEmpty, report.startFailure == nil {
            return (
                1,
                "no page was served: the run ended after \(String(format: "%.3f", report.elapsedSeconds)) s, before any answer "
                    + "from \(report.settings.db) arrived (nothing failed); give a longer --duration"
            )
        }
        if report.pages == 0 {
            return (
                1,
                "no page was served: the sessions could not read \(report.settings.db)"
                    + (codes.isEmpty ? "" : " (\(codes))")
                    + (report.errors["SQLITE_BUSY"] != nil ? "; another process holds a lock on it" : "")
            )
        }
        // A damaged database answers wrongly or not at all: its figures describe nothing (exit 1).
        let damaged = SQLiteError.permanentCodes.filter { report.errors[$0.name] != nil }
        if !damaged.isEmpty {
            return (
                1,
                "\(report.settings.db) is damaged (\(codes)): the figures do not describe the store; "
                    + "check it with sqlite3's PRAGMA integrity_check"
            )
        }
        let warning = codes.isEmpty ? nil : "some queries failed (\(codes)); see errors in the report"
        if !report.thresholdsPassed {
            let failed = report.thresholds.filter { !$0.passed }.map(\.expression).joined(separator: ", ")
            return (99, (warning.map { $0 + "; " } ?? "") + "thresholds failed: " + failed)
        }
        guard report.hasViolations else { return (0, warning) }
        // Exit 2, and why: what the walks lost or repeated, the replays' violations, failed sessions.
        let k = report.consistency
        var why: [String] = []
        if report.settings.pagination == .keyset, k.duplicates > 0 || k.skips > 0 {
            why.append("the walks repeated \(k.duplicates) and lost \(k.skips) item(s)")
        }
        let violations = k.replayViolations.values.reduce(0, +)
        if report.settings.pagination == .keyset, violations > 0 { why.append("\(violations) replay violation(s)") }
        if report.sessions.failed > 0 {
            why.append("\(report.sessions.failed) of \(report.sessions.started) session(s) failed (errors above, and under `sessions`)")
        }
        return (2, (warning.map { $0 + "; " } ?? "") + why.joined(separator: "; "))
    }

    /// `feedsim replay`'s options but latency and faults: a load's latency and failures are real.
    static let replaySpecs = ReplayOptionsParsing.specs.filter { !["--latency", "--faults"].contains($0.name) }.map { spec in
        var spec = spec
        switch spec.name {
        case "--row-latency":
            spec.help = "Replay sessions' row fetch latency, added client-side as --latency (default: the --latency model)."
        case "--row-faults":
            spec.help = "Replay sessions' injected row fetch failures: error=P,timeout=P,timeout-ms=MS,outage=START-END "
                + "(default none); a failed batch is asked again next frame, and shows as blank area, not as errors."
        default: break
        }
        return spec
    }

    /// The load configuration from the command line. - Throws: ``UsageError`` or ``CommandFailure``.
    static func configuration(_ arguments: ParsedArguments) throws -> LoadConfiguration {
        let source = arguments.value("--source")
        let path = try source ?? arguments.required("--db")
        var segment: LoadSegment?
        if let text = arguments.value("--segment") {
            guard let parsed = LoadSegment(parsing: text) else {
                throw UsageError(
                    "--segment: expected I/N with 1 <= I <= N <= \(LoadSegment.maxCount), got '\(text)'", showsUsage: false)
            }
            segment = parsed
        }
        // Usage first: a layout option the layout does not read is refused before any file is opened.
        let thresholds = try thresholds(arguments)
        // The writers' settings without writers did nothing, silently.
        if (try arguments.int("--writers") ?? 0) == 0 {
            for name in ["--write-mix", "--write-rate", "--write-batch", "--writer-preset"] where arguments.value(name) != nil {
                throw UsageError("\(name) sets the writers: add --writers N (N ≥ 1) or drop \(name)", showsUsage: false)
            }
        }
        let (model, stages) = try arrivalModel(arguments, sessions: try arguments.int("--sessions") ?? 8)
        // Each segment runs its share of the sessions (or slots), at least one: with fewer than
        // segments, each ran one, so the merged run did more than the single run would.
        if let segment, stages == nil {
            let count: Int
            switch model {
            case .closed(let sessions): count = sessions
            case .open(_, let slots): count = slots
            }
            if count < segment.count {
                throw UsageError(
                    "--segment \(segment.index)/\(segment.count): \(count) session(s) cannot be cut into \(segment.count) segments; "
                        + "give --sessions \(segment.count) or more", showsUsage: false)
            }
        }
        let layout = try LayoutOptions.configuration(from: arguments, defaultKind: .grid)
        var replay = try ReplayOptionsParsing.options(from: arguments)
        // A layout with a refresh view: the refresh control holds its height open while refreshing.
        if layout.refreshHeight > 0 { replay.refreshControlHeight = layout.refreshHeight }
        var displayName: String?
        if source != nil {
            // An HTTP feed API: nothing to open here; LoadSource checks it.
        } else if case .postgresURI = FeedDatabase.Target(path) {
            displayName = try FeedDatabase.interruptible { try FeedDatabase.open(path, for: .readOnly).name }
        } else {
            try StoreCommandSupport.requireDatabaseFile(path, hint: "create one with feedsim seed")
        }
        let timeScale: Double? = arguments.value("--time-scale") == "max" ? nil : try arguments.double("--time-scale")
        let traces = try sessionTraces(arguments)
        // The layout against each viewport the sessions will have, as every session's replay
        // prepares it: an impossible one (`--columns 1000 --spacing 1`) failed every session
        // start in a busy loop, then blamed the database.
        let viewports: [Size]
        switch traces {
        case .files(let files): viewports = files.map(\.header.viewport)
        case .synthesized(let models, let seconds):
            // The synthesizer's viewport, read without generating a trace.
            viewports = models.map { TraceSynthesizer(model: $0, duration: seconds, seed: 0).viewport }
        }
        for viewport in Set(viewports.map { [$0.width, $0.height] }).sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            do {
                try layout.makeLayout().prepare(sizes: [], viewport: Size(width: viewport[0], height: viewport[1]))
            } catch let error as LayoutError {
                throw CommandFailure("\(error)")
            }
        }
        let paginationText = arguments.value("--pagination") ?? "keyset"
        guard let pagination = PaginationMode(rawValue: paginationText) else {
            throw UsageError.badValue("--pagination", "expected keyset or offset, got '\(paginationText)'")
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
            // The table's default (10) is for a plain run; with --iterations the duration is a cap, 600 s
            // (k6's shared-iterations maxDuration default is 10m).
            durationSeconds: arguments.value("--duration") != nil
                ? try arguments.double("--duration") ?? 10 : (arguments.value("--iterations") != nil ? 600 : 10),
            workers: try arguments.int("--workers")
                ?? min(ProcessInfo.processInfo.activeProcessorCount, LoadConfiguration.maxWorkers),
            writers: try arguments.int("--writers") ?? 0,
            writeRate: try arguments.double("--write-rate") ?? 10,
            writeBatch: try arguments.int("--write-batch") ?? 1,
            writerPreset: try namedPreset(arguments.value("--writer-preset") ?? "mixed", option: "--writer-preset").name,
            seed: try ReplayOptionsParsing.seed(arguments),
            keepWrites: arguments.flag("--keep-writes"))
        configuration.writeMix = writeMix
        configuration.iterations = try arguments.int("--iterations")
        configuration.segment = segment
        configuration.backendDisplayName = displayName
        configuration.stages = stages
        configuration.thresholds = thresholds
        configuration.abortOnFail = arguments.flag("--abort-on-fail")
        // `--latency` is read with the replay's options (a malformed model is exit 1, as in `replay`);
        // a load's default is none: the measured query time only.
        if arguments.value("--latency") != nil { configuration.latency = replay.latency }
        configuration.session = try LoadSource.sessionKind(arguments)
        return configuration
    }

    /// The `--threshold` expressions, parsed. - Throws: ``UsageError`` (one line) for the first bad one.
    static func thresholds(_ arguments: ParsedArguments) throws -> [LoadThreshold] {
        let thresholds = try arguments.all("--threshold").map { text in
            do { return try LoadThreshold.parse(text) } catch {
                throw UsageError("--threshold \(error)", showsUsage: false)
            }
        }
        if arguments.value("--source") == nil, let api = thresholds.first(where: { $0.metric == .apiProblems }) {
            throw UsageError("--threshold \(api.expression): api_problems counts an HTTP feed API's problems: it needs --source", showsUsage: false)
        }
        if arguments.flag("--abort-on-fail"), thresholds.isEmpty {
            throw UsageError("--abort-on-fail needs at least one --threshold", showsUsage: false)
        }
        return thresholds
    }

    /// The arrival model and ramp: `--stages` (closed), `--arrival-rate R` or `--arrival-rate RAMP`
    /// (open), else `--sessions` constant. - Throws: ``UsageError`` for a malformed ramp, both
    /// ramps, or `--duration` beside a ramp.
    static func arrivalModel(_ arguments: ParsedArguments, sessions: Int) throws -> (ArrivalModel, LoadStages?) {
        let stagesText = arguments.value("--stages")
        let rateText = arguments.value("--arrival-rate")
        if stagesText != nil, rateText != nil {
            throw UsageError(
                "--stages ramps sessions (closed model), --arrival-rate arrivals (open model): give one or the other",
                showsUsage: false)
        }
        func ramp(_ option: String, _ text: String, perSecond: Bool) throws -> LoadStages {
            if arguments.value("--duration") != nil {
                throw UsageError("\(option): the stages set the run's length; drop --duration", showsUsage: false)
            }
            do { return try LoadStages.parse(text, perSecond: perSecond) } catch {
                throw UsageError("\(option) \(error)", showsUsage: false)
            }
        }
        if let stagesText {
            if arguments.value("--sessions") != nil {
                throw UsageError("--stages: the stages' targets are the sessions; drop --sessions", showsUsage: false)
            }
            let stages = try ramp("--stages", stagesText, perSecond: false)
            guard stages.peak <= Double(LoadConfiguration.maxSessions) else {
                throw UsageError("--stages: a target must be at most \(LoadConfiguration.maxSessions) sessions", showsUsage: false)
            }
            return (.closed(sessions: Int(stages.peak)), stages)
        }
        guard let rateText else { return (.closed(sessions: sessions), nil) }
        if rateText.contains(":") {
            let stages = try ramp("--arrival-rate", rateText, perSecond: true)
            return (.open(ratePerSecond: stages.peak, slots: sessions), stages)
        }
        guard let rate = Double(rateText), rate.isFinite, (0.001...LoadStages.maxRatePerSecond).contains(rate) else {
            throw UsageError.badValue(
                "--arrival-rate",
                "expected a number in 0.001...\(Int(LoadStages.maxRatePerSecond)) or a ramp DURATION:RATE,..., got '\(rateText)'")
        }
        return (.open(ratePerSecond: rate, slots: sessions), nil)
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
                    throw UsageError.badValue(
                        "--model", "unknown model '\(name)' (\(SynthModel.allCases.map(\.rawValue).joined(separator: ", ")))")
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

/// Opens the backend `--db` names for a load: a PostgreSQL URI (``PostgresConnector``, checking
/// the feed on a first connection), else the SQLite file (``openSQLite(_:)``).
/// - Throws: the backend's errors opening it (an unknown feed's lists the feeds).
func openLoadBackend(_ configuration: LoadConfiguration) throws -> any FeedBackendConnector {
    guard case .postgresURI(let uri) = FeedDatabase.Target(configuration.path) else {
        return try openSQLite(configuration)
    }
    let connector = PostgresConnector(
        conninfo: uri, migrator: try FeedDatabase.postgresMigrator(), feed: configuration.feedName)
    _ = try FeedDatabase.interruptible { try connector.connect() }  // the feed exists, else its error lists the feeds
    return connector
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
