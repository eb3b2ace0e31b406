import FeedReplay
import FeedStore
import FeedReport
import Foundation

/// `feedsim demo`: seeds a temporary feed and replays the real traces shipped in Seeds/traces/.
let demoCommand = Command(
    name: "demo",
    summary: "Replay real recorded scroll traces against a seeded demo feed and print what a person saw.",
    usage: "demo [--json] [--html DIR]",
    options: [
        OptionSpec("--json", .flag, help: "Print the JSON reports (one array) instead of the summaries."),
        OptionSpec(
            "--html", .value, "DIR",
            help: "Write an HTML report per replay and an index.html linking them into DIR (created if missing)."),
    ],
    run: { arguments in
        if !arguments.positionals.isEmpty { throw UsageError("unexpected argument '\(arguments.positionals[0])'") }
        if standardErrorIsTerminal {
            printError("seeding \(FeedDemo.photoCount) photos and the Wikimedia 'On this day' feed in a temporary database…")
        }
        let htmlDirectory = arguments.value("--html")
        if let htmlDirectory {
            do {
                try FileManager.default.createDirectory(atPath: htmlDirectory, withIntermediateDirectories: true)
            } catch {
                throw CommandFailure("--html \(htmlDirectory): cannot create the directory")
            }
        }
        var recordings: [ReplayRecording] = []
        let runs: [FeedDemo.Run]
        do {
            runs = try FeedDemo.run(recorder: { trace in
                guard htmlDirectory != nil else { return nil }
                let recording = ReplayRecording(refreshRate: trace.header.refreshRate)
                recordings.append(recording)
                return recording
            })
        } catch StoreError.interrupted {
            // The demo's database is a temporary one of its own: nothing of the user's was touched.
            throw InterruptedCommand(outcome: "the demo stopped; its temporary database was removed")
        }
        if let htmlDirectory {
            try writeDemoHTML(runs: runs, recordings: recordings, directory: htmlDirectory)
        }
        if arguments.flag("--json") {
            let reports = try runs.map { String(decoding: try $0.result.report.jsonData(), as: UTF8.self) }
            print("[\n" + reports.joined(separator: ",\n") + "\n]")
        } else {
            for (index, run) in runs.enumerated() {
                print("\(index + 1). \(run.title)")
                print("   trace Seeds/traces/\(run.trace), feed '\(run.feed)'")
                print(run.result.report.textSummary)
            }
            print("Replay your own: feedsim replay --db PATH --trace FILE (see feedsim replay --help).")
        }
        return runs.allSatisfy { $0.result.report.violations.isEmpty } ? 0 : 2
    }
)

/// One page per demo replay (`1-<trace>.html`, …) and an `index.html` linking them.
func writeDemoHTML(runs: [FeedDemo.Run], recordings: [ReplayRecording], directory: String) throws {
    var links: [String] = []
    for (index, (run, recording)) in zip(runs, recordings).enumerated() {
        let name = "\(index + 1)-" + run.trace.replacingOccurrences(of: ".jsonl", with: "") + ".html"
        let page = try ReplayHTMLReport.html(report: run.result.report, recording: recording, title: run.title)
        try writeOutput(Data(page.utf8), to: directory + "/" + name, option: "--html")
        links.append(
            "<li><a href=\"\(name)\">\(HTMLEscape.text(run.title))</a> — trace <code>Seeds/traces/\(HTMLEscape.text(run.trace))</code>, feed '\(HTMLEscape.text(run.feed))'</li>")
    }
    let index = HTMLEscape.document(
        title: "FeedSim demo", body: "<p>One report per replay:</p>\n<ul>\n" + links.joined(separator: "\n") + "\n</ul>\n")
    try writeOutput(Data(index.utf8), to: directory + "/index.html", option: "--html")
    // Always said (on stderr: stdout is the summaries or the JSON): where a newcomer opens the reports.
    let shown = directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
    printError("HTML reports: open \(shown)/index.html in a browser")
}
