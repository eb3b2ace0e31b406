import FeedSimTestSupport
import Foundation
import Testing

@testable import FeedReplay

/// Where the real recordings and the package's own files are, for tests.
enum TraceTestData {
    static func real(_ name: String) throws -> (path: String, text: String) {
        let url = try #require(RealData.directory, "\(RealData.skipMessage)").appendingPathComponent(name)
        return (url.path, try String(contentsOf: url, encoding: .utf8))
    }

    static func fixture(_ name: String) -> URL {
        RealData.packageFile("Tests/Fixtures/\(name)")
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
