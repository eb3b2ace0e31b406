import FeedResources
import FeedEngine
import FeedModel
import FeedStore
import Foundation
import Testing

@testable import FeedReplay

/// A replay's upstream inserts stay in memory until the end (issue 11: no write lock held while
/// the replay runs; kept inserts all or nothing). The pages, rows and ground truth the replay
/// reads must be exactly those of the store with the inserts written: the oracle is SQLite's own
/// keyset pages after ``StoreBackend/commitInserts()``.
@Suite struct PendingInsertsTests {
    func request(_ query: FeedController.PageQuery, limit: Int) -> FeedController.FetchRequest {
        FeedController.FetchRequest(id: 1, direction: .bottom, kind: .more, query: query, limit: limit, generation: 0, attempt: 1)
    }

    /// The batch is sorted and merged in one pass (inserting each stub at its place was O(m·n));
    /// the oracle: every stub added so far sorted in feed order, on random batches with clustered
    /// timestamps, in and out of order.
    @Test(arguments: [UInt64(1), 2, 3, 4])
    func batchesMergeIntoFeedOrder(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        var pending = PendingInserts(largestID: 100)
        var all: [Item] = []
        for _ in 0..<20 {
            let batch = (0..<Int(random.next() % 30)).map { _ in
                NewItem(publishedAt: Int64(random.next() % 50), kind: "photo", width: 1, height: 1)
            }
            let ids = try pending.add(batch)
            all += zip(ids, batch).map { Item(id: $0, publishedAt: $1.publishedAt, kind: "photo", width: 1, height: 1) }
            #expect(pending.stubs == all.sorted { $0.cursor < $1.cursor })
        }
        #expect(Set(all.map(\.id)).count == all.count && all.map(\.id).max() == 100 + Int64(all.count))
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6])
    func pagesMergedWithPendingInsertsEqualTheStoresPagesAfterTheyAreWritten(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let store = try ItemStore.inMemory()
        // 60 base items with clustered timestamps (ties on published_at broken by id).
        let base = (1...60).map { index in
            NewItem(publishedAt: 1_000 + Int64(random.next() % 40) * 10, kind: "photo", width: 10, height: 10, title: "b\(index)")
        }
        let feed = try store.insert(items: base, feedNamed: "home").feed
        let backend = try StoreBackend(
            backend: store.pages(feed: feed), insertPreset: try Preset.named("mixed"), seed: seed,
            largestID: try store.largestItemID())
        for step in 0..<Int(2 + random.next() % 4) {
            try backend.insertAtHead(count: Int(1 + random.next() % 7), at: Double(step) * 150)
        }
        // Another writer meanwhile, with timestamps among and above the pending ones (explicit ids
        // far from the ones the replay gives its inserts).
        let newest = try store.pages(feed: feed).newest(limit: 1).items[0].publishedAt
        let other = (0..<5).map { index in
            NewItem(
                id: 900_000 + Int64(index), publishedAt: newest + Int64(random.next() % 2_000), kind: "ad", width: 5,
                height: 5)
        }
        try store.insert(items: other, feed: feed)

        // Every shape of request, from every item's cursor and from cursors between items.
        let oracleSource = store.pages(feed: feed)
        var cursors: [Cursor] = []
        var page = try backend.page(request(.newest, limit: 1000))
        cursors = page.items.map(\.cursor)
        let pendingCount = backend.pendingInsertCount
        #expect(page.items.count == 60 + 5 + pendingCount)
        cursors += (0..<20).map { _ in Cursor(publishedAt: 900 + Int64(random.next() % 3_500), id: Int64(random.next() % 200)) }
        var asked: [(FeedController.PageQuery, Int, Page)] = []
        for limit in [1, 3, 10, 200] {
            asked.append((.newest, limit, try backend.page(request(.newest, limit: limit))))
            for cursor in cursors {
                asked.append((.after(cursor), limit, try backend.page(request(.after(cursor), limit: limit))))
                asked.append((.before(cursor), limit, try backend.page(request(.before(cursor), limit: limit))))
            }
        }
        let truth = try cursors.map { try backend.groundTruth(after: $0, limit: 7) }
        let ids = page.items.map(\.id) + [123_456]
        let rows = try backend.rows(ids: ids)

        #expect(try backend.commitInserts() == pendingCount)
        #expect(try store.stats().totalItems == 65 + pendingCount)
        for (query, limit, merged) in asked {
            let expected = try request(query, limit: limit).run(on: oracleSource)
            #expect(merged == expected, "\(query) limit \(limit)")
        }
        for (cursor, items) in zip(cursors, truth) {
            #expect(items == (try oracleSource.after(cursor, limit: 7).items), "ground truth after \(cursor)")
        }
        #expect(rows == (try store.rows(ids: ids)))
        page = try oracleSource.newest(limit: 1000)
        #expect(page.items.count == 65 + pendingCount)
    }

    @Test func insertIDsContinueTheStoresRowidsAsSQLiteWouldAssignThem() throws {
        let store = try ItemStore.inMemory()
        let feed = try store.insert(
            items: [NewItem(id: 41, publishedAt: 5, kind: "a", width: 1, height: 1)], feedNamed: "home"
        ).feed
        let backend = try StoreBackend(
            backend: store.pages(feed: feed), insertPreset: try Preset.named("mixed"), seed: 1,
            largestID: try store.largestItemID())
        try backend.insertAtHead(count: 3, at: 0)
        let ids = try backend.page(request(.newest, limit: 10)).items.map(\.id)
        #expect(ids == [44, 43, 42, 41])
        #expect(try store.stats().totalItems == 1, "nothing written before the commit")
    }

}
