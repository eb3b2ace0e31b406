import Foundation

/// Where the tests find the package's own files and the real recordings and datasets that live
/// outside it (`shared/data/real`, see SOURCES.md there).
///
/// Tests that read real data skip, with ``skipMessage``, when it is absent: the package builds and
/// passes its tests on a clone without `../shared`.
public enum RealData {
    /// The package root: this file is `<root>/Tests/Support/RealData.swift`.
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `$FEEDSIM_SHARED_DATA`, else `<root>/../shared/data/real`, else `<root>/../../shared/data/real`
    /// (a git worktree one level deeper), the first that holds `SOURCES.md`; `nil` when none does.
    public static let directory: URL? = {
        var candidates: [URL] = []
        if let override = ProcessInfo.processInfo.environment["FEEDSIM_SHARED_DATA"], !override.isEmpty {
            candidates.append(URL(fileURLWithPath: override, isDirectory: true))
        }
        for relative in ["../shared/data/real", "../../shared/data/real"] {
            candidates.append(packageRoot.appendingPathComponent(relative, isDirectory: true).standardizedFileURL)
        }
        return candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("SOURCES.md").path) }
    }()

    /// Whether the real data was found.
    public static var isAvailable: Bool { directory != nil }

    /// Why a test that needs the real data did not run.
    public static let skipMessage =
        "real data not found: set FEEDSIM_SHARED_DATA to shared/data/real or place it at ../shared/data/real"

    /// A file of the real data. - Throws: `CocoaError.fileNoSuchFile` when the data is absent.
    public static func url(_ name: String) throws -> URL {
        guard let directory else { throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: name]) }
        return directory.appendingPathComponent(name)
    }

    /// A file shipped in the package (`Seeds/…`, `Tests/Fixtures/…`).
    public static func packageFile(_ relativePath: String) -> URL {
        packageRoot.appendingPathComponent(relativePath)
    }
}
