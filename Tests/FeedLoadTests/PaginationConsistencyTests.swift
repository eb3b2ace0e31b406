import FeedModel
import FeedStore
import Testing

@testable import FeedLoad

/// A walk down a feed of 30 items (ids 30…1, newest first) in pages of 10, with writes between
/// pages: 3 items inserted at the head (ids 31–33) after page 1, and the two newest of them
/// (33, 32) deleted after page 2. Checked against the store with the ``ConsistencyChecker``.
@Suite struct PaginationConsistencyTests {
    private func walk(_ mode: PaginationMode) throws -> (ids: [Int64], count: ConsistencyCount) {
        let database = try TemporaryDatabase()
        defer { database.cleanUp() }
        let store = try ItemStore(path: database.path)
        let (feed, _) = try store.insert(items: (1...30).map(newItem), feedNamed: "home")
        let source = TimedFeedSource(backend: try ItemStore(path: database.path).pages(feed: feed), mode: mode)
        let truth = try SQLiteGroundTruth(path: database.path, feed: feed)
        let maxIDAtStart = try truth.maxID()

        let first = try source.newest(limit: 10)
        try store.insert(items: (31...33).map(newItem), feed: feed)
        let second = try source.after(try #require(first.lastCursor), limit: 10)
        try store.delete(ids: [33, 32])
        _ = try source.after(try #require(second.lastCursor), limit: 10)

        let walk = try #require(source.walks.count == 1 ? source.walks[0] : nil)
        let survivors = try truth.span(newest: try #require(walk.newest), oldest: try #require(walk.oldest))
        let count = ConsistencyChecker.check(
            loadedIDs: walk.ids, survivorIDsInSpan: survivors.map(\.id)) { $0 <= maxIDAtStart }
        var metrics = LoadMetrics()
        source.flush(into: &metrics)
        #expect(metrics.pages == 3)
        #expect(metrics.items == 30)
        return (walk.ids, count)
    }

    @Test func offsetPagesRepeatItemsAfterInsertsAndSkipItemsAfterDeletes() throws {
        let (ids, count) = try walk(.offset)
        // Page 1: OFFSET 0 of 30…1 → 30…21.
        // Page 2: the feed is 33…1 (position k holds 33 − k), OFFSET 10 → 23…14: 23, 22, 21 again = 3 duplicates.
        // Page 3: the feed is 31…1 (position k holds 31 − k), OFFSET 20 → 11…2: 13 and 12 never loaded = 2 skips.
        #expect(ids == Array((21...30).reversed()) + Array((14...23).reversed()) + Array((2...11).reversed()))
        #expect(count == ConsistencyCount(duplicates: 3, skips: 2))
    }

    @Test func keysetPagesSeeEveryItemOnceUnderTheSameWrites() throws {
        let (ids, count) = try walk(.keyset)
        // After 21 → 20…11; after 11 → 10…1, whatever happened above the cursor.
        #expect(ids == Array((1...30).reversed()))
        #expect(count == ConsistencyCount(duplicates: 0, skips: 0))
    }
}

/// How ``TimedFeedSource`` cuts what the store returned into walks.
@Suite struct TimedFeedSourceWalkTests {
    /// Ids 1…30 in feed "home", and a keyset source over them.
    private func thirtyItems() throws -> (TemporaryDatabase, TimedFeedSource) {
        let database = try TemporaryDatabase()
        let store = try ItemStore(path: database.path)
        let (feed, _) = try store.insert(items: (1...30).map(newItem), feedNamed: "home")
        return (database, TimedFeedSource(backend: store.pages(feed: feed), mode: .keyset))
    }

    @Test func aNewestPageStartsAWalkAndAMoreFromElsewhereStartsAnother() throws {
        let (database, source) = try thirtyItems()
        defer { database.cleanUp() }
        let first = try source.newest(limit: 10)  // 30…21
        _ = try source.after(try #require(first.lastCursor), limit: 10)  // 20…11, same walk
        _ = try source.newest(limit: 5)  // a Refresh: 30…26, a new walk
        _ = try source.after(Cursor(publishedAt: 1_015_000, id: 15), limit: 3)  // re-fetch after a drop: 14…12, a new walk
        #expect(source.walks.map(\.ids) == [
            Array((11...30).reversed()), Array((26...30).reversed()), [14, 13, 12],
        ])
    }

    /// A More from elsewhere that finds nothing still starts a walk (an empty one), so a More from
    /// the first walk's end after it starts another rather than going on with the empty one.
    @Test func anEmptyMoreFromElsewhereEndsTheWalkBeforeIt() throws {
        let (database, source) = try thirtyItems()
        defer { database.cleanUp() }
        let first = try source.newest(limit: 10)  // 30…21
        #expect(try source.after(Cursor(publishedAt: 0, id: 0), limit: 10).items.isEmpty)  // older than all
        _ = try source.after(try #require(first.lastCursor), limit: 10)  // 20…11
        #expect(source.walks.map(\.ids) == [Array((21...30).reversed()), [], Array((11...20).reversed())])
    }
}
