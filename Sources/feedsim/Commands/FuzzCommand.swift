import FeedResources
import FeedFuzz
import FeedModel
import FeedStore
import Foundation

/// `feedsim fuzz`: a long fuzz round over the trace readers and item importers.
let fuzzCommand = Command(
    name: "fuzz",
    summary: "Fuzz the trace readers and item importers with deterministic mutations; count the outcomes per format.",
    usage: "fuzz [--format F] [--cases N] [--seed S] [--data DIR] [--crash-file FILE] [--case K -o FILE]",
    options: [
        OptionSpec("--format", "F", accepts: .text, help: "One format (" + FuzzFormat.allCases.map(\.rawValue).joined(separator: ", ") + "); default all."),
        OptionSpec("--cases", "N", accepts: .integer(1...10_000_000), default: "1000", help: "Cases per format."),
        OptionSpec("--seed", "S", accepts: .seed, default: "1", help: "Seed of the mutations; same seed, same cases."),
        OptionSpec("--data", "DIR", accepts: .path, help: "Real recordings to mutate too (default $FEEDSIM_SHARED_DATA when set)."),
        OptionSpec("--crash-file", "FILE", accepts: .output, help: "Write each input here before running it: after a trap it holds the input."),
        OptionSpec("--case", "K", accepts: .integer(0...Int.max), help: "Write case K of --format to -o instead of running a round."),
        OptionSpec("-o", "FILE", accepts: .output, help: "With --case: where to write the input."),
    ],
    run: { args in
        try args.expectNoPositionals()
        let formats: [FuzzFormat]
        if let name = args.value("--format") {
            guard let format = FuzzFormat(rawValue: name) else {
                throw UsageError("--format: unknown format '\(name)' (" + FuzzFormat.allCases.map(\.rawValue).joined(separator: ", ") + ")")
            }
            formats = [format]
        } else {
            formats = FuzzFormat.allCases
        }
        let cases = try args.int("--cases")!
        let seed = try args.seed("--seed") ?? 1
        // Options that did nothing, silently: -o without --case, a --data directory that is not one.
        if args.value("-o") != nil, args.value("--case") == nil {
            throw UsageError("-o writes the input of one --case; add --case K (and --format) or drop -o", showsUsage: false)
        }
        if let data = args.value("--data") {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: data, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw CommandFailure("--data \(data): no such directory")
            }
        }
        let dataPath = args.value("--data") ?? ProcessInfo.processInfo.environment["FEEDSIM_SHARED_DATA"]
        let corpus = FuzzCorpus(
            seeds: .seeds,
            realDataDirectory: dataPath.flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0, isDirectory: true) })
        let round = FuzzRound(corpus: corpus, seed: seed)

        if let index = try args.int("--case") {
            guard formats.count == 1, let format = formats.first else { throw UsageError("--case needs --format") }
            let output = try args.required("-o")
            guard let fuzzCase = round.input(format: format, case: index) else { throw CommandFailure("no seed for \(format.rawValue)") }
            try writeOutput(Data(fuzzCase.bytes), to: output, option: "-o")
            print("\(output): case \(index) of \(format.rawValue): \(fuzzCase.seedName), \(fuzzCase.mutations.map(\.rawValue).joined(separator: "+")), \(fuzzCase.bytes.count) bytes")
            return 0
        }

        let crashFile = args.value("--crash-file")
        // Written before each case (a trap must leave it): a path that cannot be written left
        // nothing, silently, which defeats the option. Checked once, before the round.
        if let crashFile, !FileManager.default.createFile(atPath: crashFile, contents: Data()) {
            throw CommandFailure("--crash-file \(crashFile): cannot be written (a missing directory, or no permission)")
        }
        printLine("format       cases  accepted  rejected-with-position  rejected-whole-file  rejected-without-position  seeds")
        var failures = 0
        for format in formats {
            let tally = round.run(format: format, cases: cases) { fuzzCase in
                // Plain overwrite, not atomic: it must hold the input when the process dies mid-case.
                if let crashFile { FileManager.default.createFile(atPath: crashFile, contents: Data(fuzzCase.bytes)) }
            }
            failures += tally.rejectedWithoutPosition
            func column(_ value: Int, _ width: Int) -> String {
                let text = String(value)
                return String(repeating: " ", count: max(0, width - text.count)) + text
            }
            // Unbuffered, so the lines of finished formats are out even if a later case traps.
            printLine(
                format.rawValue.padding(toLength: 11, withPad: " ", startingAt: 0) + column(tally.cases, 7) + column(tally.accepted, 10)
                    + column(tally.rejectedWithPosition, 24) + column(tally.rejectedWholeFile, 21)
                    + column(tally.rejectedWithoutPosition, 27) + column(corpus.seeds(for: format).count, 7))
            for example in tally.withoutPositionExamples { printError("  \(format.rawValue): without position: \(example)") }
        }
        if let crashFile { try? FileManager.default.removeItem(atPath: crashFile) }
        guard failures == 0 else { throw CommandFailure("\(failures) inputs were rejected without a position") }
        return 0
    }
)

/// Writes one line to stdout at once (not through `print`'s buffer).
private func printLine(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}
