import FeedReport
import Foundation

let benchSweepCommand = Command(
    name: "bench sweep",
    summary:
        "Benchmark sweep: 8 combinations on 1 thread against N threads in the same run (the speedup, rows checked equal).",
    usage: "bench sweep [--count N] [--duration S] [--jobs N] [--repetitions R] [--json]",
    options: [
        OptionSpec("--count", .value, "N", help: "Items seeded in a temporary database (default 20000)."),
        OptionSpec("--duration", .value, "S", help: "Length of the synthesized flinger trace, seconds (default 60)."),
        OptionSpec("--jobs", .value, "N", help: "Threads of the parallel run (default 2)."),
        OptionSpec("--repetitions", .value, "R", help: "Runs of each side; the fastest counts (default 2)."),
        OptionSpec("--json", .flag, help: "Print one JSON object."),
    ],
    run: { arguments in
        if !arguments.positionals.isEmpty { throw UsageError("unexpected argument '\(arguments.positionals[0])'") }
        let report = try SweepBenchmark.run(
            items: try arguments.int("--count", default: 20_000, in: 1000...10_000_000)!,
            traceSeconds: try arguments.double("--duration", default: 60, in: 1...3600)!,
            threads: try arguments.int("--jobs", default: 2, in: 1...64)!,
            repetitions: try arguments.int("--repetitions", default: 2, in: 1...20)!)
        if arguments.flag("--json") {
            print(try StoreCommandSupport.json(report))
        } else {
            print(report.text, terminator: "")
        }
        return report.sameRows ? 0 : 1
    }
)
