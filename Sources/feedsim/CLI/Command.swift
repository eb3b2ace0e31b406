import FeedModel
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
    /// What the files are, for the usage error of a wrong count (`OUT and one IN per segment`).
    var positionalsNote: String? = nil
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

/// Writes `data` to `path` all or nothing (``AtomicFileWriter``: a regular file is replaced by
/// a renamed temporary, a device such as `/dev/stdout` is written in place).
/// - Throws: ``CommandFailure`` naming the option, the path and the reason in one line.
func writeOutput(_ data: Data, to path: String, option: String) throws {
    try writeOutput(to: path, option: option) { try $0.write(data) }
}

/// Checks, before a long run, that each output option's file can be written (its directory
/// exists and takes a new file, the path is not a directory), by opening an ``AtomicFileWriter``
/// for it and abandoning it: nothing is left behind and an existing file is not touched. A typo in
/// `--html` no longer costs a whole load run that then ends in exit 1.
/// - Throws: ``CommandFailure`` naming the option and the path, as the write itself would.
func checkOutputPaths(_ arguments: ParsedArguments, options: [String]) throws {
    for option in options {
        for path in arguments.all(option) {
            do {
                try AtomicFileWriter(path: path).abandon()
            } catch {
                throw CommandFailure("\(option) \(error.path): \(error.reason)")
            }
        }
    }
}

/// Streams an output file through ``AtomicFileWriter``: `body` writes, then the file is committed;
/// if `body` throws, the temporary is removed and the target left as it was.
/// - Throws: ``CommandFailure`` for a write error; `body`'s own errors unchanged.
func writeOutput(to path: String, option: String, _ body: (AtomicFileWriter) throws -> Void) throws {
    try removingTemporariesOnSignal {
        do {
            let writer = try AtomicFileWriter(path: path)
            try body(writer)
            try writer.commit()
        } catch let error as FileError where error.path == path {  // the writer's own, not one of body's inputs
            throw CommandFailure("\(option) \(error.path): \(error.reason)")
        }
    }
}

/// Runs `body` with SIGINT and SIGTERM caught: either signal removes the unfinished temporaries
/// (``TemporaryFiles/removeAll()``), says so on stderr and exits 130 or 143 (128 + the signal, as a
/// shell reports a process killed by it). The previous dispositions are restored afterwards.
func removingTemporariesOnSignal<T>(_ body: () throws -> T) rethrows -> T {
    let signals = [SIGINT, SIGTERM]
    let previous = signals.map { signal($0, SIG_IGN) }
    let sources = signals.map { number in
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler {
            let removed = TemporaryFiles.current
            TemporaryFiles.removeAll()
            let what = removed.isEmpty ? "" : "; removed the unfinished \(removed.joined(separator: ", "))"
            printError("feedsim: interrupted by signal \(number)\(what)")
            exit(128 + number)
        }
        source.resume()
        return source
    }
    defer {
        for source in sources { source.cancel() }
        for (number, handler) in zip(signals, previous) { signal(number, handler) }
    }
    return try body()
}

/// Checks that `path` names an input file that exists and is not a directory.
/// - Throws: ``CommandFailure`` in one line: no such file, or a directory (both were "no such
///   file" or "cannot read file").
func requireInputFile(_ path: String) throws {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw CommandFailure("\(path): no such file")
    }
    if isDirectory.boolValue { throw CommandFailure("\(path): a directory, not a file") }
}

/// The bytes of an input file a command reads whole (`compare`'s and `report merge`'s reports).
/// - Throws: as ``requireInputFile(_:)``, or ``CommandFailure`` when it cannot be read.
func readInputFile(_ path: String) throws -> Data {
    try requireInputFile(path)
    guard let data = FileManager.default.contents(atPath: path) else {
        throw CommandFailure("\(path): cannot read the file (permissions?)")
    }
    return data
}
