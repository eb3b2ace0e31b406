import Foundation

/// A child process for tests that talk to a real server (`feedsim serve`, the Python fixture),
/// started with `posix_spawn` and an empty signal mask with default dispositions.
///
/// Foundation's `Process` hands the child the spawning thread's signal mask, and test threads
/// (Dispatch workers) block nearly every signal: a child started that way never sees SIGTERM.
/// Standard output goes to a file the test reads; standard error to another.
public final class ChildProcess {
    public let pid: pid_t
    public let stdoutPath: String
    public let stderrPath: String
    private var exitStatus: Int32?

    /// - Throws: `POSIXError` when the program cannot be started.
    public init(_ executable: String, _ arguments: [String]) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("feedsim-child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        stdoutPath = directory.appendingPathComponent("stdout").path
        stderrPath = directory.appendingPathComponent("stderr").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, executable, &actions, &attributes, argv, environ)
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EINVAL) }
        pid = child
    }

    deinit {
        if exitStatus == nil {
            kill(pid, SIGKILL)
            _ = wait()
        }
    }

    /// What the child wrote to standard output so far.
    public var standardOutput: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }
    public var standardError: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// Waits up to `seconds` for a line of standard output starting with `prefix`; returns it.
    public func waitForLine(startingWith prefix: String, seconds: Double = 20) -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let line = standardOutput.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) {
                return String(line)
            }
            if exitStatus != nil || hasExited() { return nil }
            usleep(20_000)
        }
        return nil
    }

    private func hasExited() -> Bool {
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid {
            exitStatus = status
            return true
        }
        return false
    }

    /// Sends `signal`.
    public func send(_ signal: Int32) { kill(pid, signal) }

    /// Waits for the child to exit; its exit code, or 128 + the signal that ended it.
    @discardableResult
    public func wait() -> Int32 {
        if exitStatus == nil {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            exitStatus = status
        }
        let status = exitStatus!
        if status & 0x7f == 0 { return (status >> 8) & 0xff }
        return 128 + (status & 0x7f)
    }
}
