import FeedReport
import Foundation

/// `feedsim compare A.json B.json`: two replay (or two load) reports side by side.
let compareCommand = Command(
    name: "compare",
    summary: "Compare two replay (or two load) JSON reports: every figure, B − A, percent, and a verdict.",
    usage: "compare A.json B.json [--json] [--html FILE]",
    options: [
        OptionSpec("--json", .flag, help: "Print the comparison as JSON instead of the table."),
        OptionSpec("--html", "FILE", accepts: .output, help: "Also write the comparison as a self-contained HTML page."),
    ],
    positionals: 2...2,
    run: { arguments in
        guard arguments.positionals.count == 2 else {
            throw UsageError("expected two report files (A.json B.json), got \(arguments.positionals.count)")
        }
        let (pathA, pathB) = (arguments.positionals[0], arguments.positionals[1])
        func read(_ path: String) throws -> ReportMetrics {
            try ReportMetrics(json: try readInputFile(path), file: path, checked: true)
        }
        let comparison = try ReportComparison(a: try read(pathA), b: try read(pathB), fileA: pathA, fileB: pathB)
        if let html = arguments.value("--html") {
            try writeOutput(Data(comparison.html.utf8), to: html, option: "--html")
        }
        print(arguments.flag("--json") ? comparison.json : comparison.text, terminator: "")
        return 0
    }
)
