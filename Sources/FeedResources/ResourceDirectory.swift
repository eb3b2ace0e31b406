import FeedModel
import Foundation
import Synchronization

/// A directory of the package's data files: `Schema/` (migrations) or `Seeds/` (presets, traces,
/// datasets), read either from the copy the binary carries (embedded at build time by the
/// `EmbedResources` plugin from the repository's directories, which stay the source of truth) or
/// from a directory on disk that overrides it.
///
/// Which one a run uses (``schema`` and ``seeds``): a directory the executable named at start
/// (``overrideSeeds(with:)``, `feedsim --seeds DIR`), else `$FEEDSIM_ROOT/Schema` or
/// `$FEEDSIM_ROOT/Seeds` when `FEEDSIM_ROOT` is set, else the embedded copy, so a binary copied
/// alone to another machine runs.
///
/// ```swift
/// let names = try ResourceDirectory.seeds.fileNames()          // ["mixed.json", "news.json", ...]
/// let news = try ResourceDirectory.seeds.data("news.json")
/// let traces = ResourceDirectory.seeds.subdirectory("traces")
/// ```
public struct ResourceDirectory: Hashable, Sendable, CustomStringConvertible {
    enum Location: Hashable, Sendable {
        /// Embedded files whose package-relative path starts with this prefix (`Seeds`, `Seeds/traces`).
        case embedded(String)
        case disk(URL)
    }

    let location: Location

    /// The embedded copy of the package directory `name` (`"Schema"`, `"Seeds"`, `"Seeds/traces"`).
    public static func embedded(_ name: String) -> ResourceDirectory {
        ResourceDirectory(location: .embedded(name))
    }

    /// A directory on disk.
    public static func directory(_ url: URL) -> ResourceDirectory {
        ResourceDirectory(location: .disk(url))
    }

    /// The migration files this run uses: `$FEEDSIM_ROOT/Schema`, else the embedded `Schema/`.
    public static var schema: ResourceDirectory { packageDirectory("Schema") }

    /// The seeds this run uses: the directory given to ``overrideSeeds(with:)``, else
    /// `$FEEDSIM_ROOT/Seeds`, else the embedded `Seeds/`.
    public static var seeds: ResourceDirectory {
        if let url = seedsOverride.withLock({ $0 }) { return .directory(url) }
        return packageDirectory("Seeds")
    }

    /// Makes ``seeds`` read `url` for the rest of the process (`feedsim --seeds DIR`). Called by the
    /// executable at start, before any work; a library never calls it.
    public static func overrideSeeds(with url: URL) {
        seedsOverride.withLock { $0 = url }
    }

    /// The process's `--seeds` directory: set once by the executable at start, read by every
    /// ``seeds`` look-up (a mutex, so a load test's threads may read it).
    private static let seedsOverride = Mutex<URL?>(nil)

    private static func packageDirectory(_ name: String) -> ResourceDirectory {
        if let root = ProcessInfo.processInfo.environment["FEEDSIM_ROOT"], !root.isEmpty {
            return .directory(URL(fileURLWithPath: root, isDirectory: true).appendingPathComponent(name, isDirectory: true))
        }
        return .embedded(name)
    }

    /// The directory `name` inside this one.
    public func subdirectory(_ name: String) -> ResourceDirectory {
        switch location {
        case .embedded(let prefix): return .embedded(prefix + "/" + name)
        case .disk(let url): return .directory(url.appendingPathComponent(name, isDirectory: true))
        }
    }

    /// Where the directory is, for messages: a path on disk, or `Seeds (embedded)`.
    public var description: String {
        switch location {
        case .embedded(let prefix): return "\(prefix) (embedded)"
        case .disk(let url): return url.path
        }
    }

    /// The path of the file `name` inside this directory, for messages: a path on disk, or
    /// `Seeds/news.json (embedded)`.
    public func path(_ name: String) -> String {
        switch location {
        case .embedded(let prefix): return "\(prefix)/\(name) (embedded)"
        case .disk(let url): return url.appendingPathComponent(name).path
        }
    }

    /// The names of the regular files directly in this directory, sorted.
    /// - Throws: ``FileError`` when the directory does not exist or cannot be listed.
    public func fileNames() throws -> [String] {
        switch location {
        case .embedded(let prefix):
            let names = EmbeddedFiles.shared.paths.compactMap { path -> String? in
                guard path.hasPrefix(prefix + "/") else { return nil }
                let name = path.dropFirst(prefix.count + 1)
                return name.contains("/") ? nil : String(name)
            }
            guard !names.isEmpty || EmbeddedFiles.shared.hasDirectory(prefix) else {
                throw FileError(path: description, reason: "directory not found")
            }
            return names.sorted()
        case .disk(let url):
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue
            else {
                throw FileError(path: url.path, reason: "directory not found")
            }
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: url.path) else {
                throw FileError(path: url.path, reason: "cannot list directory")
            }
            return names.filter { name in
                var childIsDirectory: ObjCBool = false
                let exists = FileManager.default.fileExists(
                    atPath: url.appendingPathComponent(name).path, isDirectory: &childIsDirectory)
                return exists && !childIsDirectory.boolValue
            }.sorted()
        }
    }

    /// The bytes of the file `name` (may contain `/`) inside this directory.
    /// - Throws: ``FileError`` naming ``path(_:)`` when there is no such file or it cannot be read.
    public func data(_ name: String) throws -> Data {
        switch location {
        case .embedded(let prefix):
            guard let data = EmbeddedFiles.shared.data(at: prefix + "/" + name) else {
                throw FileError(path: path(name), reason: "no such file")
            }
            return data
        case .disk(let url):
            do {
                return try Data(contentsOf: url.appendingPathComponent(name))
            } catch {
                throw FileError(path: path(name), reason: "cannot read file")
            }
        }
    }
}

/// The files the build embedded (``embeddedFiles``, generated), decoded once per process.
final class EmbeddedFiles: Sendable {
    static let shared = EmbeddedFiles()

    /// Package-relative paths, sorted.
    let paths: [String]
    private let contents: [String: Data]

    private init() {
        var contents: [String: Data] = [:]
        for file in embeddedFiles {
            // The generator wrote this Base64 itself: failing to decode it is a broken build.
            guard let data = Data(base64Encoded: file.base64) else {
                preconditionFailure("embedded file \(file.path) is not valid Base64")
            }
            contents[file.path] = data
        }
        self.contents = contents
        self.paths = contents.keys.sorted()
    }

    func data(at path: String) -> Data? { contents[path] }

    /// Whether some embedded file lies below `prefix` (an empty directory is not embedded).
    func hasDirectory(_ prefix: String) -> Bool {
        paths.contains { $0.hasPrefix(prefix + "/") }
    }
}
