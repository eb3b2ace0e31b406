import FeedModel
import FeedStore
import Foundation

/// Shared by the store commands (seed, import, page, stats): opening the database and picking a feed.
enum StoreCommandSupport {
    /// Opens a database that must already exist, read-only (page, stats, layout --db, replay):
    /// a missing file is an error, not a new database, and the file is never changed.
    static func openExisting(_ path: String) throws -> ItemStore {
        try requireDatabaseFile(path)
        return try ItemStore.openReadOnly(path: path)
    }

    /// Refuses a SQLite `--db` that is missing or a directory (SQLite's own word for a directory
    /// is "disk I/O error"), as the trace readers do for a directory given as a trace.
    /// - Throws: ``CommandFailure``: `PATH: no such database (…)`, `PATH: is a directory, not a database file`.
    static func requireDatabaseFile(_ path: String, hint: String = "create one with feedsim seed or feedsim import") throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CommandFailure("\(path): no such database (\(hint))")
        }
        if isDirectory.boolValue { throw CommandFailure("\(path): is a directory, not a database file") }
    }

    /// Opens (creating when missing) the database a command writes to (seed, import).
    /// - Throws: ``CommandFailure`` when the file's directory does not exist or is not a directory.
    static func openForWriting(_ path: String) throws -> ItemStore {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else {
            throw CommandFailure("\(path): the directory \(directory) does not exist")
        }
        guard isDirectory.boolValue else { throw CommandFailure("\(path): \(directory) is not a directory") }
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw CommandFailure("\(path): is a directory, not a database file")
        }
        return try ItemStore(path: path)
    }

    /// The feed named by `--feed`; without it, `home` when present, else the only feed.
    static func feed(_ arguments: ParsedArguments, in store: ItemStore) throws -> FeedID {
        if let name = arguments.value("--feed") {
            return try store.requireFeed(named: name)
        }
        if let home = try store.feedID(named: "home") { return home }
        let feeds = try store.feeds()
        if feeds.count == 1 { return feeds[0].id }
        if feeds.isEmpty { throw CommandFailure("\(store.path): the database has no feeds") }
        throw CommandFailure("several feeds, pick one with --feed: \(feeds.map(\.name).joined(separator: ", "))")
    }

    /// Seconds elapsed since `start` (wall time for reporting only; the simulator never reads it).
    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// A one-line progress bar on stderr, redrawn in place (only when stderr is a terminal).
    static func progressBar(done: Int, total: Int) {
        let width = 30
        let filled = total == 0 ? width : width * done / total
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        FileHandle.standardError.write(Data("\r[\(bar)] \(done)/\(total)".utf8))
        if done >= total { FileHandle.standardError.write(Data("\n".utf8)) }
    }

    /// JSON text with sorted keys and a trailing newline.
    static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
