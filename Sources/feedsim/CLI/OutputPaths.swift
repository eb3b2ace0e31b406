import Foundation

/// Keeps a command from writing over its own input files, or one output over another: `replay
/// --timeline feed.sqlite`, `load --report feed.sqlite` or `compare a.json b.json --html a.json`
/// would replace the database, trace or report the run reads, and exit 0. Checked when the
/// options are bound (``ParsedArguments``), before any work, as a usage error (exit 64).
enum OutputPaths {
    /// A path with what names it in an error: `option '--timeline'`, `argument 1`.
    struct Named: Equatable {
        var label: String
        var path: String
        /// A database file (`--db`, `--truth-db`): its SQLite companions are inputs too.
        var isDatabase = false
    }

    /// - Parameters:
    ///   - outputs: the files the command will write.
    ///   - inputs: the files it reads (paths that do not exist are not inputs to lose).
    /// - Throws: ``UsageError`` naming the output and the input (or the two outputs) that are the
    ///   same file: the same device and inode when both exist (a hard link, `./x` and `x`, a
    ///   symbolic link), else the same absolute, standardized path.
    static func check(outputs: [Named], inputs: [Named]) throws {
        for (position, output) in outputs.enumerated() {
            for input in inputs where isSameExistingFile(output.path, input.path) {
                throw UsageError(
                    "\(output.label): '\(output.path)' is the input of \(input.label); writing it would destroy that input",
                    showsUsage: false)
            }
            // A database's companions (its write-ahead log, shared-memory index, rollback journal)
            // are part of it, and may not exist yet when the command starts: compared by path too.
            for input in inputs where input.isDatabase {
                for suffix in sqliteCompanionSuffixes
                where isSameExistingFile(output.path, input.path + suffix)
                    || normalized(output.path) == normalized(input.path) + suffix
                {
                    throw UsageError(
                        "\(output.label): '\(output.path)' is SQLite's \(suffix) file of \(input.label)'s database; writing it would corrupt that database",
                        showsUsage: false)
                }
            }
            for other in outputs[(position + 1)...] where isSameOutput(output.path, other.path) {
                throw UsageError(
                    "\(output.label) and \(other.label) both name '\(output.path)'; one would overwrite the other",
                    showsUsage: false)
            }
        }
    }

    /// The files SQLite keeps beside a database `PATH`: `PATH-wal`, `PATH-shm`, `PATH-journal`.
    static let sqliteCompanionSuffixes = ["-wal", "-shm", "-journal"]

    /// Whether both paths exist and are the same file (device and inode).
    static func isSameExistingFile(_ a: String, _ b: String) -> Bool {
        guard let x = identity(a), let y = identity(b) else { return false }
        return x == y
    }

    /// Whether two outputs are the same file: by identity when both exist, else by path.
    static func isSameOutput(_ a: String, _ b: String) -> Bool {
        if let x = identity(a), let y = identity(b) { return x == y }
        return normalized(a) == normalized(b)
    }

    private static func identity(_ path: String) -> [UInt64]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return [UInt64(info.st_dev), UInt64(info.st_ino)]
    }

    private static func normalized(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
}
