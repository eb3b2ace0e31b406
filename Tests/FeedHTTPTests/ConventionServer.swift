import FeedHTTP
import FeedModel
import FeedSimTestSupport
import FeedStore
import Foundation
import Testing

/// `Tests/Fixtures/convention_server.py` started on a free loopback port for one test, stopped
/// (SIGTERM) when released.
final class ConventionServer {
    let child: ChildProcess
    let port: Int
    static let script = RealData.packageFile("Tests/Fixtures/convention_server.py").path
    static let data = RealData.packageFile("Tests/Fixtures/convention-items.json").path

    /// `python3` on the PATH, or `nil` (the tests that need it are skipped then).
    static let python: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/python3" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    static let skipMessage = "python3 not found on PATH: the convention server tests need it"

    /// Starts the server and waits for its `port N` line. - Throws: when it does not start within 20 s.
    init(convention: String, mode: String = "ok") throws {
        let python = try #require(Self.python, "python3")
        child = try ChildProcess(
            python, [Self.script, "--data", Self.data, "--convention", convention, "--mode", mode, "--port", "0"])
        let line = child.waitForLine(startingWith: "port ") ?? ""
        guard let port = Int(line.dropFirst(5).trimmingCharacters(in: .whitespaces)) else {
            throw CocoaError(
                .fileReadCorruptFile,
                userInfo: [NSLocalizedDescriptionKey: "the convention server did not start: \(child.standardError)"])
        }
        self.port = port
    }

    var url: String { "http://127.0.0.1:\(port)/items" }

    deinit {
        child.send(SIGTERM)
        child.wait()
    }

    /// The fixture's items as a database, the independent truth for skipped items.
    static func truthStore() throws -> (ItemStore, FeedID) {
        let store = try ItemStore.inMemory()
        let raw = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: data))) as! [[String: Any]]
        let items = raw.map {
            NewItem(
                id: Int64($0["id"] as! Int), publishedAt: Int64($0["published_at"] as! Int), kind: $0["kind"] as! String,
                width: Double($0["width"] as! Int), height: Double($0["height"] as! Int), title: $0["title"] as! String)
        }
        let (feed, _) = try store.insert(items: items, feedNamed: "home")
        return (store, feed)
    }
}
