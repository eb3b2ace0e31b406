import FeedLoad
import FeedModel
import Foundation

/// `feedsim report merge OUT IN...`: the load reports of a run's segments as one report. Exits 99
/// when a threshold fails on the merged data (k6's code, as `load`), after writing OUT.
let reportMergeCommand = Command(
    name: "report merge",
    summary: "Merge the JSON load reports of a run's segments (--segment I/N) into the whole run's report, exactly.",
    usage: "report merge OUT.json IN.json... [--json]",
    options: [
        OptionSpec("--json", .flag, help: "Print the merged report as JSON (default: as text)."),
    ],
    positionals: 2...LoadSegment.maxCount + 1,
    positionalsNote: "OUT and one IN per segment",
    run: { arguments in
        let output = arguments.positionals[0]
        let inputs = Array(arguments.positionals.dropFirst())
        // OUT must not be one of the reports it merges (it would be replaced by the merge).
        try OutputPaths.check(
            outputs: [.init(label: "OUT", path: output)],
            inputs: inputs.enumerated().map { .init(label: "argument \($0.offset + 2)", path: $0.element) })
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let reports = try inputs.map { path -> (name: String, report: LoadReport) in
            let data = try readInputFile(path)
            // Where the JSON goes wrong, as `compare` and the trace readers say it: file:line:column.
            let bytes = [UInt8](data)
            if let (position, reason) = JSONSyntaxCheck.firstProblemPosition(in: bytes) {
                throw CommandFailure("\(path):\(position.line):\(position.column): not JSON: \(reason)")
            }
            do {
                return (path, try decoder.decode(LoadReport.self, from: data))
            } catch let error as DecodingError {
                throw CommandFailure("\(path): not a load report (feedsim load --report): \(describe(error))")
            }
        }
        let merged: LoadReport
        do {
            merged = try LoadReport.merge(reports)
        } catch let error as LoadReportMergeError {
            throw CommandFailure(error.description)
        }
        try writeOutput(Data((try merged.json() + "\n").utf8), to: output, option: "OUT")
        print(arguments.flag("--json") ? try merged.json() : merged.text, terminator: arguments.flag("--json") ? "\n" : "")
        // The whole run's verdict, as `load` gives a run's: thresholds measured on the merged data.
        if !merged.thresholdsPassed {
            let failed = merged.thresholds.filter { !$0.passed }.map(\.expression).joined(separator: ", ")
            printError("feedsim report merge: thresholds failed: " + failed)
            return 99
        }
        return 0
    }
)

/// A decoding error in one line: the field's path and what was wrong.
private func describe(_ error: DecodingError) -> String {
    func path(_ context: DecodingError.Context) -> String {
        let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
        return keys.isEmpty ? "" : "field " + keys.joined(separator: ".") + ": "
    }
    switch error {
    case .keyNotFound(let key, let context): return path(context) + "missing \(key.stringValue)"
    case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
        return path(context) + context.debugDescription
    @unknown default: return "\(error)"
    }
}
