import Foundation
import Testing

@testable import FeedReplay

/// Where the real recordings and the package's own files are, for tests.
enum TraceTestData {
    /// The package root: this file is `<root>/Tests/FeedReplayTests/TraceTestSupport.swift`.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `$FEEDSIM_SHARED_DATA`, else `<root>/../shared/data/real` or `<root>/../../shared/data/real`, when it exists.
    static let realDirectory: URL? = {
        let candidates = [ProcessInfo.processInfo.environment["FEEDSIM_SHARED_DATA"].map { URL(fileURLWithPath: $0) },
                          packageRoot.appendingPathComponent("../shared/data/real").standardizedFileURL,
                          // a git worktree one level deeper (`<repo>/wt/<name>`) shares the same data
                          packageRoot.appendingPathComponent("../../shared/data/real").standardizedFileURL]
        return candidates.compactMap { $0 }.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("SOURCES.md").path) }
    }()

    static let skipMessage = "real recordings not found: set FEEDSIM_SHARED_DATA or place them at ../shared/data/real"

    static func real(_ name: String) throws -> (path: String, text: String) {
        let url = try #require(realDirectory, "\(skipMessage)").appendingPathComponent(name)
        return (url.path, try String(contentsOf: url, encoding: .utf8))
    }

    static func fixture(_ name: String) -> URL {
        packageRoot.appendingPathComponent("Tests/Fixtures").appendingPathComponent(name)
    }
}

extension Trace {
    /// The touch points in order (down, moves, up).
    var touchPoints: [(t: Double, y: Double, kind: String)] {
        events.compactMap { event in
            switch event.kind {
            case .touchDown(let p): (event.t, p.y, "down")
            case .touchMove(let p): (event.t, p.y, "move")
            case .touchUp(let p): (event.t, p.y, "up")
            default: nil
            }
        }
    }
}
