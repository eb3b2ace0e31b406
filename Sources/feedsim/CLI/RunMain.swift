import FeedResources
import FeedStore
import Foundation

/// The one place that decides what reaches stderr and the exit code:
/// 0 ok, 1 failure, 2 ran but found violations, 64 bad usage (a value out of its option's range
/// included), 70 a broken option table (a bug of this binary), 130 interrupted (SIGINT/SIGTERM).
func runMain(_ argv: [String], commands: [Command]) -> Int32 {
    let overview = """
        feedsim — a headless, deterministic paged feed simulator.

        Usage: feedsim [--seeds DIR] <command> [options]   (feedsim <command> --help for its options)

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
        printError("feedsim: unknown command '\(args[0])' (see feedsim --help)")
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
            throw UsageError("expected exactly \(command.positionals.lowerBound) FILE, got \(parsed.positionals.count)")
        }
        return try command.run(parsed)
    } catch StoreError.interrupted {
        printError(
            "feedsim \(command.name): interrupted by \(Interruption.shared.signalName): "
                + "the transaction was rolled back, nothing was written")
        return 130
    } catch let error as UsageError {
        printError("feedsim \(command.name): \(error.message)" + (error.showsUsage ? "\nUsage: feedsim \(command.usage)" : ""))
        return 64
    } catch {
        printError("feedsim \(command.name): \(error)")
        return 1
    }
}
