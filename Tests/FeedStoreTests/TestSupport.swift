import FeedModel
import FeedSimTestSupport
import Foundation
import Testing

@testable import FeedStore

/// A fresh database file in a private temporary directory, removed with the directory by `cleanUp()`.
struct TemporaryDatabase {
    let directory: URL
    var path: String { directory.appendingPathComponent("test.sqlite").path }

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("feedsim-store-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func cleanUp() {
        try? FileManager.default.removeItem(at: directory)
    }
}

/// A minimal valid item for tests.
func stub(id: Int64?, at publishedAt: Int64, kind: String = "photo") -> NewItem {
    NewItem(id: id, publishedAt: publishedAt, kind: kind, width: 100, height: 50, title: "t\(id ?? 0)")
}

/// Skips a test, with a message, when the real datasets are absent.
let realDataAvailable = Testing.ConditionTrait.enabled(if: RealData.isAvailable, "\(RealData.skipMessage)")
