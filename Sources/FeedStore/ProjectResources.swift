import Foundation

/// Where the package's data directories (`Schema/`, `Seeds/`) are at run time.
///
/// The package root is `FEEDSIM_ROOT` when that environment variable is set, else the directory
/// three levels above this source file (`<root>/Sources/FeedStore/ProjectResources.swift`), which
/// is right whenever the binary is built and run from a clone (`swift run feedsim ...`).
public enum ProjectResources {
    /// The package root directory.
    public static var root: URL {
        if let override = ProcessInfo.processInfo.environment["FEEDSIM_ROOT"], !override.isEmpty {
            return URL(fileURLWithPath: override, isDirectory: true)
        }
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // FeedStore
            .deletingLastPathComponent()  // Sources
            .deletingLastPathComponent()  // root
    }

    /// `<root>/Schema`: numbered migration files.
    /// - Throws: ``StoreError/resource(path:reason:)`` when the directory is missing.
    public static func schemaDirectory() throws -> URL {
        try existingDirectory("Schema")
    }

    /// `<root>/Seeds`: preset JSON files and shipped datasets.
    /// - Throws: ``StoreError/resource(path:reason:)`` when the directory is missing.
    public static func seedsDirectory() throws -> URL {
        try existingDirectory("Seeds")
    }

    private static func existingDirectory(_ name: String) throws -> URL {
        let url = root.appendingPathComponent(name, isDirectory: true)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            throw StoreError.resource(
                path: url.path, reason: "directory not found (set FEEDSIM_ROOT to the FeedSim package root)")
        }
        return url
    }
}
