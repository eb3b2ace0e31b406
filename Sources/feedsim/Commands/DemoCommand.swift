import FeedReplay
import Foundation

/// `feedsim demo`: seeds a temporary feed and replays the real traces shipped in Seeds/traces/.
let demoCommand = Command(
    name: "demo",
    summary: "Replay real recorded scroll traces against a seeded demo feed and print what a person saw.",
    usage: "demo [--json]",
    options: [
        OptionSpec("--json", .flag, help: "Print the JSON reports (one array) instead of the summaries.")
    ],
    run: { arguments in
        if !arguments.positionals.isEmpty { throw UsageError("unexpected argument '\(arguments.positionals[0])'") }
        if standardErrorIsTerminal {
            printError("seeding \(FeedDemo.photoCount) photos and the Wikimedia 'On this day' feed in a temporary database…")
        }
        let runs = try FeedDemo.run()
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
