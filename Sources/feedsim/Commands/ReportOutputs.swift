import FeedReplay
import FeedReport
import Foundation

/// `--html FILE` and `--perfetto FILE` of `feedsim replay`: a recording is made only when one of
/// them is asked for (a replay without them records nothing).
enum ReportOutputs {
    static let specs: [OptionSpec] = [
        OptionSpec(
            "--html", "FILE", accepts: .output,
            help: "Write a self-contained HTML report (summary, plots over time, frame scrubber) to FILE."),
        OptionSpec(
            "--perfetto", "FILE", accepts: .output,
            help: "Write the replay as a Chrome Trace Event Format JSON (open in ui.perfetto.dev or chrome://tracing)."),
    ]

    /// A recording for the trace when `--html` or `--perfetto` was given, else `nil`.
    static func recording(for trace: Trace, arguments: ParsedArguments) -> ReplayRecording? {
        guard arguments.value("--html") != nil || arguments.value("--perfetto") != nil else { return nil }
        return ReplayRecording(refreshRate: trace.header.refreshRate)
    }

    /// Writes the HTML report and the Perfetto trace that were asked for (each file atomically).
    static func write(
        _ report: ReplayReport, recording: ReplayRecording, title: String, html: String?, perfetto: String?,
        option: (html: String, perfetto: String) = ("--html", "--perfetto")
    ) throws {
        if let html {
            let page = try ReplayHTMLReport.html(report: report, recording: recording, title: title)
            try writeOutput(Data(page.utf8), to: html, option: option.html)
        }
        if let perfetto {
            try writeOutput(
                Data(PerfettoTrace.json(recording: recording, source: report.source).utf8), to: perfetto,
                option: option.perfetto)
        }
    }
}
