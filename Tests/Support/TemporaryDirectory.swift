import Foundation

/// A fresh directory for one test: `$TMPDIR/<prefix>-<UUID>`, created at once (a test suite
/// stores one per instance, and Swift Testing makes an instance per test).
public enum TemporaryDirectory {
    /// Creates and returns a new, empty directory whose name starts with `prefix`.
    public static func make(_ prefix: String) -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
