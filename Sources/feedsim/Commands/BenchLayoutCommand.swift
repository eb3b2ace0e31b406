import FeedLayout
import FeedModel
import FeedSimBenchmarks
import Foundation

/// `feedsim bench layout`: prepare time and rect-query time per layout at growing item counts
/// (scrolling and jumping viewports), beside the brute-force filter measured in the same run
/// (``LayoutBenchmark``).
let benchLayoutCommand = Command(
    name: "bench layout",
    summary: "Benchmark layout prepare and rect queries (scrolling and jumping) against the brute-force filter.",
    usage: "bench layout [--counts N,N,...] [--frames F] [--queries Q] [--rounds R] [--layouts LAYOUT,...] [--seed S] [--json]",
    options: [
        OptionSpec(
            "--counts", "N,...", accepts: .numbers(separator: ",", count: 1...20, each: 1...100_000_000),
            default: "10000,1000000,10000000", help: "Item counts (whole numbers)."),
        OptionSpec(
            "--frames", "F", accepts: .integer(1...10_000_000), default: "20000",
            help: "Scroll queries per round (frames of a viewport scrolled at 60 Hz)."),
        OptionSpec(
            "--queries", "Q", accepts: .integer(1...10_000_000), default: "2000",
            help: "Jump queries per round (viewports at random offsets)."),
        OptionSpec("--rounds", "R", accepts: .integer(1...100), default: "3", help: "Rounds per layout and count (the median is kept)."),
        OptionSpec("--layouts", .value, "LAYOUT,...", help: "Layouts to measure (default all)."),
        OptionSpec("--kinds", .value, "LAYOUT,...", help: "Old name of --layouts, kept as an alias for now."),
        OptionSpec("--seed", "S", accepts: .seed, default: "1", help: "Seed for sizes and query offsets."),
        OptionSpec("--json", .flag, help: "Print a JSON array instead of a table."),
    ],
    run: runBenchLayout
)

@Sendable private func runBenchLayout(_ arguments: ParsedArguments) throws -> Int32 {
    try arguments.expectNoPositionals()
    let counts = try arguments.numbers("--counts")!.map { value -> Int in
        guard value == value.rounded() else {
            throw UsageError.badValue("--counts", "expected whole numbers, got \(value)")
        }
        return Int(value)
    }
    let given = [("--layouts", arguments.value("--layouts")), ("--kinds", arguments.value("--kinds"))]
        .compactMap { name, value in value.map { (name, $0) } }
    if given.count > 1 { throw UsageError("--kinds is the old name of --layouts: give one of them") }
    let kinds = try given.first.map { name, list in
        try list.split(separator: ",").map { item -> LayoutKind in
            // A value the option cannot take: a usage error (exit 64), as every other option's.
            guard let kind = LayoutKind(rawValue: String(item)) else {
                throw UsageError.badValue(
                    name, "unknown layout '\(item)' (\(LayoutKind.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            return kind
        }
    } ?? LayoutKind.allCases
    let rows = try LayoutBenchmark.run(
        counts: counts, frames: try arguments.int("--frames")!, jumps: try arguments.int("--queries")!,
        rounds: try arguments.int("--rounds")!, kinds: kinds, seed: try arguments.seed("--seed")!,
        progress: { if standardErrorIsTerminal { printError($0) } })

    if arguments.flag("--json") {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        print(String(decoding: try encoder.encode(rows), as: UTF8.self))
    } else {
        print(LayoutBenchmark.text(rows))
    }
    let bad = rows.filter { $0.mismatches > 0 }
    for row in bad { printError("bench layout: \(row.kind) × \(row.items): \(row.mismatches) query result(s) differ from the brute-force filter") }
    return bad.isEmpty ? 0 : 2
}
