import Foundation
import Testing

/// The built `feedsim` binary run as a separate process: exit status, stdout and stderr, so a
/// test sees what a user sees (signals, exit codes, one-line messages).
struct FeedsimProcess {
    /// The executable next to the test runner (`.build/<configuration>/feedsim`), if built.
    static let binary: URL? = ProcessDeterminismTests.binary

    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
        /// Whether the process ended by an uncaught signal (a trap is SIGILL/SIGTRAP: 132/133).
        var signalled: Bool
        var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
    }

    let directory: URL

    /// A process ready to start (not started), with stdout and stderr going to files.
    func prepare(_ arguments: [String], shell: String? = nil) throws -> (Process, outPath: String, errPath: String) {
        let binary = try #require(Self.binary)
        let name = UUID().uuidString
        let outPath = directory.appendingPathComponent("\(name).out").path
        let errPath = directory.appendingPathComponent("\(name).err").path
        FileManager.default.createFile(atPath: outPath, contents: nil)
        FileManager.default.createFile(atPath: errPath, contents: nil)
        let process = Process()
        if let shell {
            // `shell` prefixes the command, e.g. `ulimit -v 600000;`.
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            let quoted = ([binary.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
            process.arguments = ["-c", shell + " exec " + quoted.joined(separator: " ")]
        } else {
            process.executableURL = binary
            process.arguments = arguments
        }
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        process.standardInput = FileHandle.nullDevice
        return (process, outPath, errPath)
    }

    /// Runs `feedsim arguments` to the end.
    @discardableResult
    func run(_ arguments: [String], shell: String? = nil) throws -> Outcome {
        let (process, outPath, errPath) = try prepare(arguments, shell: shell)
        try process.run()
        process.waitUntilExit()
        return Self.outcome(process, outPath, errPath)
    }

    static func outcome(_ process: Process, _ outPath: String, _ errPath: String) -> Outcome {
        Outcome(
            status: process.terminationStatus,
            stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "",
            signalled: process.terminationReason == .uncaughtSignal)
    }

    /// Waits until `condition` holds, checking every 20 ms, for at most `seconds`.
    static func wait(seconds: Double, until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return condition()
    }
}
