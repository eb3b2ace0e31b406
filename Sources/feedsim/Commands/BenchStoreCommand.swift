import FeedStore
import Foundation

let benchStoreCommand = Command(
    name: "bench store",
    summary: "Benchmark the item store against a raw SQLite C-API loop (ratios; target ≤ 1.25).",
    usage: "bench store [--count N] [--repetitions R] [--json]",
    options: [
        OptionSpec("--count", "N", accepts: .integer(100...50_000_000), default: "1000000", help: "Items to seed."),
        OptionSpec(
            "--repetitions", "R", accepts: .integer(1...100), default: "3", help: "Runs of the walk and row measures; the fastest counts."),
        OptionSpec("--json", .flag, help: "Print one JSON object."),
    ],
    run: { arguments in
        try arguments.expectNoPositionals()
        let count = try arguments.int("--count") ?? 1_000_000
        let repetitions = try arguments.int("--repetitions") ?? 3
        let verbose = standardErrorIsTerminal
        let report = try StoreBenchmark.run(count: count, repetitions: repetitions) { line in
            if verbose { printError("bench store: \(line)") }
        }
        if arguments.flag("--json") {
            print(try StoreCommandSupport.json(report))
            return 0
        }
        var lines = [
            "bench store: \(report.items) items (preset mixed, seed 1), pages of \(report.pageSize), "
                + "row batches of \(report.batchSize); ratio = ItemStore time ÷ raw C-API time (target ≤ \(StoreBenchmark.target))",
            row("measure", "ItemStore", "raw C API", "unit", "ratio"),
        ]
        for measure in report.measures {
            lines.append(
                row(
                    measure.name, String(format: "%.1f", measure.api), String(format: "%.1f", measure.raw),
                    measure.unit,
                    String(format: "%.3f", measure.ratio)))
        }
        lines.append(report.withinTarget ? "all ratios within target" : "SOME RATIOS ABOVE TARGET")
        print(lines.joined(separator: "\n"))
        return 0
    }
)

/// One table row: the name left-aligned, the figures right-aligned.
private func row(_ name: String, _ api: String, _ raw: String, _ unit: String, _ ratio: String) -> String {
    func right(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
    return name + String(repeating: " ", count: max(0, 12 - name.count)) + right(api, 14) + right(raw, 14) + "  "
        + unit + String(repeating: " ", count: max(0, 9 - unit.count)) + right(ratio, 7)
}
