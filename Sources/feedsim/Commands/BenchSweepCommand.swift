import FeedSimBenchmarks
import Foundation

let benchSweepCommand = Command(
    name: "bench sweep",
    summary:
        "Benchmark sweep: 8 combinations on 1 thread against N threads in the same run (the speedup, rows checked equal).",
    usage: "bench sweep [--count N] [--duration S] [--jobs N] [--repetitions R] [--json]",
    options: [
        OptionSpec("--count", "N", accepts: .integer(1000...10_000_000), default: "20000", help: "Items seeded in a temporary database."),
        OptionSpec("--duration", "S", accepts: .number(1...3600), default: "60", help: "Length of the synthesized flinger trace, seconds."),
        OptionSpec("--jobs", "N", accepts: .integer(1...64), default: "2", help: "Threads of the parallel run."),
        OptionSpec("--repetitions", "R", accepts: .integer(1...20), default: "2", help: "Runs of each side; the fastest counts."),
        OptionSpec("--json", .flag, help: "Print one JSON object."),
    ],
    run: { arguments in
        if !arguments.positionals.isEmpty { throw UsageError("unexpected argument '\(arguments.positionals[0])'") }
        let report = try SweepBenchmark.run(
            items: try arguments.int("--count")!, traceSeconds: try arguments.double("--duration")!,
            threads: try arguments.int("--jobs")!, repetitions: try arguments.int("--repetitions")!)
        if arguments.flag("--json") {
            print(try StoreCommandSupport.json(report))
        } else {
            print(report.text, terminator: "")
        }
        return report.sameRows ? 0 : 1
    }
)
