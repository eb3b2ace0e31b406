import FeedLayout
import FeedReplay
import FeedReport
import FeedResources
import FeedStore
import Foundation

/// `feedsim replay`: the main job — a recorded scroll session against a seeded feed.
let replayCommand = Command(
    name: "replay",
    summary: "Replay a scroll trace against a feed on a virtual clock and report what a person would have seen.",
    usage: """
        replay --db PATH|URI | --source URL [--convention C] [--cacert FILE | --insecure] --trace FILE [--trace-format F] [--feed NAME]
                      [--layout L and layout options] [--ranges PRESET] [--page-size N] [--prefetch D] [--scroll P]
                      [--pull-threshold PT] [--latency M] [--faults F] [--seed S]
                      [--viewport WxH] [--refresh-rate HZ] [importer options: --px-per-pt K ...]
                      [--json | --report FILE] [--timeline FILE] [--html FILE] [--perfetto FILE]
        """,
    options: [
        OptionSpec(
            "--db", "PATH|URI", accepts: .path,
            help: "SQLite file or postgresql:// URI, seeded by `feedsim seed` or `feedsim import`."),
        OptionSpec("--trace", "FILE", accepts: .path, help: "The scroll trace to replay (at most 24 h: later events are refused)."),
        OptionSpec(
            "--trace-format", .value, "F",
            help: "jsonl (canonical, default) | evemu | chrome | touch-csv | rrweb: imported on the fly."),
        OptionSpec("--feed", .value, "NAME", help: "Feed to replay against (default home)."),
        OptionSpec("--insert-preset", .value, "NAME", help: "Preset for rows written by the trace's insert events (default mixed)."),
        OptionSpec(
            "--keep-inserts", .flag,
            help: "Keep the rows the trace's insert events write (default: undone when the replay ends)."),
        OptionSpec("--json", .flag, help: "Print the JSON report on stdout instead of the summary."),
        OptionSpec("--report", "FILE", accepts: .output, help: "Also write the JSON report to FILE."),
        OptionSpec("--timeline", "FILE", accepts: .output, help: "Write one CSV row per frame to FILE."),
    ] + ReportOutputs.specs + SourceOptions.specs + LayoutOptions.specs + ReplayOptionsParsing.specs
        + TraceImportParsing.specs,
    run: { arguments in
        Interruption.shared.install()  // first: a signal during the trace's parse still stops the replay
        let tracePath = try arguments.required("--trace")
        if arguments.value("--source") == nil { _ = try arguments.required("--db") }
        try SourceOptions.checkValues(arguments)  // usage (exit 64) before the trace is read
        if !arguments.positionals.isEmpty { throw UsageError("unexpected argument '\(arguments.positionals[0])'") }
        var options = try ReplayOptionsParsing.options(from: arguments)
        try checkOutputPaths(arguments, options: ["--report", "--timeline", "--html", "--perfetto"])
        options.keepTimeline = arguments.value("--timeline") != nil
        let layout = try LayoutOptions.configuration(from: arguments, defaultKind: .grid)
        // A layout with a refresh view: the refresh control holds its height open while refreshing.
        if layout.refreshHeight > 0 { options.refreshControlHeight = layout.refreshHeight }
        let imported = try TraceImportParsing.load(path: tracePath, format: arguments.value("--trace-format"), arguments)
        TraceImportParsing.warn(imported)
        options.traceNotes = imported.guesses
        let trace = imported.trace
        let keepInserts = arguments.flag("--keep-inserts")
        let preset = try namedPreset(arguments.value("--insert-preset") ?? "mixed", option: "--insert-preset")
        let recording = ReportOutputs.recording(for: trace, arguments: arguments)
        if let http = try SourceOptions.backend(arguments, feed: arguments.value("--feed") ?? "home") {
            let result: ReplayResult
            do {
                result = try ReplaySession.run(
                    trace: trace, backend: http, layout: layout, options: options, insertPreset: preset,
                    keepInserts: keepInserts, shouldStop: Interruption.shared.shouldStop, recorder: recording)
            } catch ReplayError.interrupted {
                // Exit 130. The trace's inserts are POSTed only at the end with --keep-inserts.
                throw InterruptedCommand(
                    outcome: "the replay stopped before the trace's end; nothing was sent to the API's insert endpoint and no output was written")
            }
            try writeReplayOutputs(result, arguments: arguments)
            try writeReportOutputs(result, recording: recording, tracePath: tracePath, arguments: arguments)
            printError(SourceOptions.auditText(http))
            return result.report.violations.isEmpty && http.audit.problemCount == 0 ? 0 : 2
        }
        let dbPath = try arguments.required("--db")
        // Read-only unless --keep-inserts of a trace with insert events writes them at the end.
        let database = try FeedDatabase.open(
            dbPath, for: keepInserts && ReplaySession.writes(trace) ? .writeExisting : .readOnly)
        let result: ReplayResult
        do {
            result = try ReplaySession.run(
                trace: trace, backend: try database.backend(feedNamed: arguments.value("--feed") ?? "home"),
                largestID: try database.largestItemID(), layout: layout, options: options, insertPreset: preset,
                keepInserts: keepInserts, shouldStop: Interruption.shared.shouldStop, recorder: recording)
        } catch ReplayError.interrupted {
            // Exit 130. Read-only, or with --keep-inserts the inserts are written only at the end.
            throw InterruptedCommand(
                outcome: "the replay stopped before the trace's end; the database was not changed and no output was written")
        }
        try writeReplayOutputs(result, arguments: arguments)
        try writeReportOutputs(result, recording: recording, tracePath: tracePath, arguments: arguments)
        return result.report.violations.isEmpty ? 0 : 2
    }
)

/// Writes `--html` and `--perfetto` of a replay that ran with `recording` (nothing without one).
private func writeReportOutputs(
    _ result: ReplayResult, recording: ReplayRecording?, tracePath: String, arguments: ParsedArguments
) throws {
    guard let recording else { return }
    try ReportOutputs.write(
        result.report, recording: recording, title: "FeedSim replay of \(tracePath)", html: arguments.value("--html"),
        perfetto: arguments.value("--perfetto"))
}

/// Prints the summary or JSON and writes `--report` and `--timeline` files.
func writeReplayOutputs(_ result: ReplayResult, arguments: ParsedArguments) throws {
    let json = try result.report.jsonData()
    if let reportPath = arguments.value("--report") {
        // Ending in a newline, as `--json` prints it and as load's and merge's reports are written.
        try writeOutput(json + Data("\n".utf8), to: reportPath, option: "--report")
    }
    if let timelinePath = arguments.value("--timeline"), let timeline = result.timeline {
        try writeOutput(to: timelinePath, option: "--timeline") { writer in try timeline.write { try writer.write($0) } }
    }
    if arguments.flag("--json") {
        FileHandle.standardOutput.write(json + Data("\n".utf8))
    } else {
        print(result.report.textSummary, terminator: "")
    }
}
