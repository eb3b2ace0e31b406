import FeedModel
import FeedStore

@testable import FeedLoad
import Foundation

/// A fresh database file in a private temporary directory, removed by `cleanUp()`.
struct TemporaryDatabase {
    let directory: URL
    var path: String { directory.appendingPathComponent("load.sqlite").path }

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("feedsim-load-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func cleanUp() {
        try? FileManager.default.removeItem(at: directory)
    }
}

/// Item `id` published at `1 000 000 + id × 1 000` ms: a larger id is newer, so the feed order is id descending.
func newItem(_ id: Int64) -> NewItem {
    NewItem(id: id, publishedAt: 1_000_000 + id * 1_000, kind: "post", width: 390, height: 200)
}

/// Opens the SQLite file and feed a load configuration names, as `feedsim load` does.
func openSQLite(_ configuration: LoadConfiguration) throws -> any FeedBackendConnector {
    try configuration.checkDatabaseFile()
    return try SQLiteConnector(path: configuration.path, feedName: configuration.feedName)
}
