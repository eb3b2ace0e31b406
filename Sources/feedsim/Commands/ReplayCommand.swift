import FeedLayout
import FeedReplay
import FeedReport
import FeedStore
import Foundation

/// `feedsim replay`: the main job — a recorded scroll session against a seeded feed.
let replayCommand = Command(
    name: "replay",
    summary: "Replay a scroll trace against a feed on a virtual clock and report what a person would have seen.",
    usage: """
        replay --db PATH --trace FILE [--trace-format F] [--feed NAME] [--kind K and layout options]
                      [--ranges PRESET] [--page-size N] [--prefetch D] [--scroll P] [--pull-threshold PT]
                      [--latency M] [--faults F] [--seed S]
                      [--json | --report FILE] [--timeline FILE] [--html FILE] [--perfetto FILE]
        """,
    options: [
        OptionSpec("--db", "PATH", accepts: .path, help: "SQLite database made by `feedsim seed` or `feedsim import`."),
        OptionSpec("--trace", "FILE", accepts: .path, help: "The scroll trace to replay."),
        OptionSpec(
            "--trace-format", .value, "F",
            help: "jsonl (canonical, default) | evemu | chrome | touch-csv | rrweb: imported on the fly."),
        OptionSpec("--feed", .value, "NAME", help: "Feed to replay against (default home)."),
        OptionSpec("--insert-preset", .value, "NAME", help: "Preset for rows written by the trace's insert events (default mixed)."),
        OptionSpec(
            "--keep-inserts", .flag,
            help: "Keep the rows the trace's insert events write (default: undone when the replay ends)."),
        OptionSpec("--json", .flag, help: "Print the JSON report on stdout instead of the summary."),
        OptionSpec("--report", "FILE", accepts: .path, help: "Also write the JSON report to FILE."),
        OptionSpec("--timeline", "FILE", accepts: .path, help: "Write one CSV row per frame to FILE."),
    ] + ReportOutputs.specs + LayoutOptions.specs + ReplayOptionsParsing.specs,
    run: { arguments in
        Interruption.shared.install()  // first: a signal during the trace's parse still stops the replay
        let dbPath = try arguments.required("--db")
        let tracePath = try arguments.required("--trace")
        if !arguments.positionals.isEmpty { throw UsageError("unexpected argument '\(arguments.positionals[0])'") }
        var options = try ReplayOptionsParsing.options(from: arguments)
        options.keepTimeline = arguments.value("--timeline") != nil
        let layout = try LayoutOptions.configuration(from: arguments, defaultKind: .grid)
        // A layout with a refresh view: the refresh control holds its height open while refreshing.
        if layout.refreshHeight > 0 { options.refreshControlHeight = layout.refreshHeight }
        let trace = try loadTrace(path: tracePath, format: arguments.value("--trace-format"))
        let keepInserts = arguments.flag("--keep-inserts")
        let store = try openExistingStore(path: dbPath, writes: keepInserts && ReplaySession.writes(trace))
        let preset = try Preset.named(arguments.value("--insert-preset") ?? "mixed")
        let recording = ReportOutputs.recording(for: trace, arguments: arguments)
        let result = try ReplaySession.run(
            trace: trace, store: store, feed: arguments.value("--feed") ?? "home", layout: layout, options: options,
            insertPreset: preset, keepInserts: keepInserts, shouldStop: Interruption.shared.shouldStop,
            recorder: recording)
        try writeReplayOutputs(result, arguments: arguments)
        if let recording {
            try ReportOutputs.write(
                result.report, recording: recording, title: "FeedSim replay of \(tracePath)", html: arguments.value("--html"),
                perfetto: arguments.value("--perfetto"))
        }
        return result.report.violations.isEmpty ? 0 : 2
    }
)

/// Reads a trace in any supported format. - Throws: ``CommandFailure`` for an unknown format;
/// ``TraceError`` naming the file, line and field for malformed input.
func loadTrace(path: String, format: String?) throws -> Trace {
    let name = format ?? "jsonl"
    guard let traceFormat = TraceFormat(rawValue: name) else {
        throw CommandFailure("--trace-format: unknown format '\(name)' (jsonl, evemu, chrome, touch-csv, rrweb)")
    }
    guard FileManager.default.fileExists(atPath: path) else { throw CommandFailure("\(path): no such file") }
    return try traceFormat.load(contentsOf: path)
}

/// Opens a database that must already exist (replaying against a fresh empty file is a mistake),
/// read-only unless `writes` (`replay --keep-inserts` of a trace with insert events).
func openExistingStore(path: String, writes: Bool = false) throws -> ItemStore {
    guard FileManager.default.fileExists(atPath: path) else {
        throw CommandFailure("\(path): no such database (create one with `feedsim seed --db \(path) ...`)")
    }
    return writes ? try ItemStore(path: path) : try ItemStore.openReadOnly(path: path)
}

/// Prints the summary or JSON and writes `--report` and `--timeline` files.
func writeReplayOutputs(_ result: ReplayResult, arguments: ParsedArguments) throws {
    let json = try result.report.jsonData()
    if let reportPath = arguments.value("--report") {
        try writeOutput(json, to: reportPath, option: "--report")
    }
    if let timelinePath = arguments.value("--timeline"), let csv = result.timelineCSV {
        try writeOutput(Data(csv.utf8), to: timelinePath, option: "--timeline")
    }
    if arguments.flag("--json") {
        FileHandle.standardOutput.write(json + Data("\n".utf8))
    } else {
        print(result.report.textSummary, terminator: "")
    }
}
