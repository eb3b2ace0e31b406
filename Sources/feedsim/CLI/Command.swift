import Foundation

/// One `feedsim` subcommand. The CLI stays thin: parse, call a library, format.
///
/// A value, not a protocol of static members: each command file defines
/// `let seedCommand = Command(...)` and `main.swift` lists them.
struct Command: Sendable {
    /// The word(s) after `feedsim` (`seed`, `page`, `trace import`).
    var name: String
    /// One line for `feedsim --help`.
    var summary: String
    /// Usage line(s) after `feedsim`, e.g. `seed --db PATH --preset NAME --count N [--seed S]`.
    var usage: String
    /// The option table: names, value rules (ranges), defaults and help lines, read by the parser,
    /// `--help` and validation alike. A name listed twice is refused at start (``OptionTableError``).
    var options: [OptionSpec]
    /// How many positional arguments (files) the command takes; more or fewer is a usage error
    /// (exit 64), checked by ``runMain(_:commands:)`` before the command runs.
    var positionals: ClosedRange<Int> = 0...0
    /// Runs with parsed arguments and returns the exit code (0 ok; 2 for "ran, found violations").
    /// Throws ``UsageError`` (exit 64), ``CommandFailure`` or any other error (exit 1).
    var run: @Sendable (ParsedArguments) throws -> Int32

    /// The full `--help` text.
    var helpText: String {
        var text = "\(summary)\n\nUsage: feedsim \(usage)\n"
        if !options.isEmpty {
            text += "\nOptions:\n"
            let width = options.map { Self.optionLabel($0).count }.max() ?? 0
            for option in options {
                let label = Self.optionLabel(option)
                text += "  " + label + String(repeating: " ", count: width - label.count + 2) + option.helpLine + "\n"
            }
            text += "  --help" + String(repeating: " ", count: max(2, width - 4)) + "Show this help.\n"
        }
        return text
    }

    private static func optionLabel(_ option: OptionSpec) -> String {
        option.kind == .flag ? option.name : "\(option.name) \(option.valueName)"
    }
}

/// Writes to standard error (diagnostics, progress); standard output carries results only.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// Whether standard error is a terminal (progress bars only then).
var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

/// Writes `data` to `path` atomically (all or nothing).
/// - Throws: ``CommandFailure`` naming the option and the path when the file cannot be written.
func writeOutput(_ data: Data, to path: String, option: String) throws {
    do {
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let reason = FileManager.default.fileExists(atPath: directory) ? "cannot write the file" : "no directory \(directory)"
        throw CommandFailure("\(option) \(path): \(reason)")
    }
}
