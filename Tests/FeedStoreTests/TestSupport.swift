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

/// The items of a feed as the test believes them to be, with brute-force pages to compare against.
struct FeedModelOracle {
    var items: [Item] = []

    /// All items in feed order (published_at DESC, id DESC), by a plain sort.
    var feedOrder: [Item] {
        items.sorted { ($0.publishedAt, $0.id) > ($1.publishedAt, $1.id) }
    }

    /// Items strictly older than `cursor`, in feed order.
    func older(than cursor: Cursor) -> [Item] {
        feedOrder.filter { ($0.publishedAt, $0.id) < (cursor.publishedAt, cursor.id) }
    }

    /// Items strictly newer than `cursor`, in feed order.
    func newer(than cursor: Cursor) -> [Item] {
        feedOrder.filter { ($0.publishedAt, $0.id) > (cursor.publishedAt, cursor.id) }
    }

    /// The page `after(cursor, limit)` must return.
    func afterPage(_ cursor: Cursor, limit: Int) -> Page {
        let older = older(than: cursor)
        let items = Array(older.prefix(limit))
        let newerThanFirst = !newer(than: items.first?.cursor ?? cursor).isEmpty
        return Page(items: items, hasMoreBefore: newerThanFirst, hasMoreAfter: older.count > limit)
    }

    /// The page `before(cursor, limit)` must return: the `limit` newer items nearest the cursor.
    func beforePage(_ cursor: Cursor, limit: Int) -> Page {
        let newer = newer(than: cursor)
        let items = Array(newer.suffix(limit))
        let olderThanLast = !older(than: items.last?.cursor ?? cursor).isEmpty
        return Page(items: items, hasMoreBefore: newer.count > limit, hasMoreAfter: olderThanLast)
    }
}

/// A minimal valid item for tests.
func stub(id: Int64?, at publishedAt: Int64, kind: String = "photo") -> NewItem {
    NewItem(id: id, publishedAt: publishedAt, kind: kind, width: 100, height: 50, title: "t\(id ?? 0)")
}

/// Skips a test, with a message, when the real datasets are absent.
let realDataAvailable = Testing.ConditionTrait.enabled(if: RealData.isAvailable, "\(RealData.skipMessage)")
