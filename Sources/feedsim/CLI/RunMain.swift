import FeedResources
import FeedStore
import Foundation

/// The version `feedsim --version` prints.
let feedsimVersion = "0.3.0"

/// The command name closest to what was typed (`sed` → `seed`, `bench replya` → `bench replay`), by
/// edit distance: at most 2 edits and fewer than the word's length, else `nil`.
func nearestCommand(to args: [String], in commands: [Command]) -> String? {
    guard let first = args.first else { return nil }
    let groups = Set(commands.compactMap { $0.name.split(separator: " ").count > 1 ? String($0.name.split(separator: " ")[0]) : nil })
    let typed = groups.contains(first) && args.count > 1 ? first + " " + args[1] : first
    let candidates = groups.contains(first) && args.count > 1
        ? commands.map(\.name).filter { $0.hasPrefix(first + " ") }
        : Array(Set(commands.map { String($0.name.split(separator: " ")[0]) })).sorted()
    return nearestName(to: typed, among: candidates)
}

/// The name among `candidates` closest to `typed` by edit distance (ties: the first in sorted
/// order): at most 2 edits and fewer than `typed`'s length, else `nil`. For "did you mean".
func nearestName(to typed: String, among candidates: [String]) -> String? {
    let scored = candidates.map { ($0, editDistance(typed, $0)) }.sorted { ($0.1, $0.0) < ($1.1, $1.0) }
    guard let best = scored.first, best.1 <= 2, best.1 < typed.count else { return nil }
    return best.0
}

/// Levenshtein distance (insertions, deletions, substitutions; one each) between two strings.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    var row = Array(0...b.count)
    for i in 1...max(1, a.count) where !a.isEmpty {
        var previous = row[0]
        row[0] = i
        for j in 1...max(1, b.count) where !b.isEmpty {
            let current = row[j]
            row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
            previous = current
        }
    }
    return a.isEmpty ? b.count : row[b.count]
}

/// The one place that decides what reaches stderr and the exit code:
/// 0 ok, 1 failure, 2 ran but found violations, 64 bad usage (a value out of its option's range
/// included), 70 a broken option table (a bug of this binary), 130 interrupted (SIGINT/SIGTERM).
func runMain(_ argv: [String], commands: [Command]) -> Int32 {
    let overview = """
        feedsim — a headless, deterministic paged feed simulator.

        Usage: feedsim [--seeds DIR] <command> [options]   (feedsim <command> --help for its options; feedsim --version)

        The binary carries Schema/ and Seeds/; --seeds DIR reads presets, traces and datasets from DIR
        instead, and FEEDSIM_ROOT=DIR reads both DIR/Schema and DIR/Seeds.

        Commands:
        """
    func table(_ listed: [Command]) -> String {
        let width = listed.map(\.name.count).max() ?? 0
        return listed.map { "  " + $0.name + String(repeating: " ", count: width - $0.name.count + 2) + $0.summary }
            .joined(separator: "\n")
    }
    // The option tables are checked before anything else: a duplicate name is a bug of this binary.
    for command in commands {
        do {
            try OptionTableError.check(command.options, command: command.name)
        } catch {
            printError("feedsim: internal error: \(error)")
            return 70  // EX_SOFTWARE
        }
    }
    var args = Array(argv.dropFirst())
    // The one option before the command: where the seeds are read from, for the whole process.
    if args.first == "--seeds" {
        guard args.count >= 2, !args[1].hasPrefix("-") else {
            printError("feedsim: --seeds needs a directory\nUsage: feedsim [--seeds DIR] <command> [options]")
            return 64
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: args[1], isDirectory: &isDirectory), isDirectory.boolValue else {
            printError("feedsim: --seeds: \(args[1]): directory not found")
            return 1
        }
        ResourceDirectory.overrideSeeds(with: URL(fileURLWithPath: args[1], isDirectory: true))
        args.removeFirst(2)
    }
    if args == ["--version"] || args == ["-V"] {
        print("feedsim \(feedsimVersion)")
        return 0
    }
    if args.isEmpty || args == ["--help"] || args == ["-h"] || args == ["help"] {
        print(overview + "\n" + table(commands))
        return args.isEmpty ? 64 : 0
    }
    // A group word alone (`feedsim bench`, `feedsim trace --help`): list the group's commands.
    let group = commands.filter { $0.name.hasPrefix(args[0] + " ") }
    if !group.isEmpty, args.count == 1 || ["--help", "-h"].contains(args[1]) {
        print("Usage: feedsim \(args[0]) <command> [options]\n\nCommands:\n" + table(group))
        return args.count == 1 ? 64 : 0
    }
    // Longest match first, so `trace import` wins over a hypothetical `trace`.
    let match = commands
        .sorted { $0.name.count > $1.name.count }
        .first { command in
            let words = command.name.split(separator: " ").map(String.init)
            return args.count >= words.count && Array(args.prefix(words.count)) == words
        }
    guard let command = match else {
        let suggestion = nearestCommand(to: args, in: commands).map { " (did you mean '\($0)'?)" } ?? " (see feedsim --help)"
        let given = group.isEmpty || args.count < 2 ? args[0] : args[0] + " " + args[1]
        printError("feedsim: unknown command '\(given)'" + suggestion)
        return 64
    }
    args.removeFirst(command.name.split(separator: " ").count)
    do {
        let parsed = try ParsedArguments(args, specs: command.options)
        if parsed.wantsHelp {
            print(command.helpText, terminator: "")
            return 0
        }
        if !command.positionals.contains(parsed.positionals.count) {
            if command.positionals.upperBound == 0 {
                throw UsageError("unexpected argument '\(parsed.positionals[0])' (this command takes no FILE)")
            }
            let range = command.positionals
            let expected =
                range.count == 1
                ? "exactly \(range.lowerBound) FILE"
                : "\(range.lowerBound) to \(range.upperBound) FILEs" + (command.positionalsNote.map { " (\($0))" } ?? "")
            throw UsageError("expected \(expected), got \(parsed.positionals.count)")
        }
        return try command.run(parsed)
    } catch StoreError.interrupted {
        printError(
            "feedsim \(command.name): interrupted by \(Interruption.shared.signalName): "
                + "the transaction was rolled back, nothing was written")
        return 130
    } catch let interrupted as InterruptedCommand {
        printError("feedsim \(command.name): interrupted by \(Interruption.shared.signalName): \(interrupted.outcome)")
        return 130
    } catch let error as UsageError {
        printError("feedsim \(command.name): \(error.message)" + (error.showsUsage ? "\nUsage: feedsim \(command.usage)" : ""))
        return 64
    } catch {
        printError("feedsim \(command.name): \(error)")
        return 1
    }
}
