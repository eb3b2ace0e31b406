import FeedModel
import Foundation
import Testing

@testable import FeedStore

@Suite struct PagingEdgeTests {
    // Empty feed, one item, limits around the feed size, ties, a deleted cursor row: the page
    // contract, run on SQLite (and PostgreSQL) by BackendContractTests' BackendPagingEdgeTests.

    @Test func offsetBaselineRepeatsAnItemWhenOneIsInsertedAboveButKeysetDoesNot() throws {
        let store = try ItemStore.inMemory()
        let feed = try store.createFeed(named: "f")
        try store.insert(items: (1...10).map { stub(id: Int64($0), at: Int64($0)) }, feed: feed)
        let first = try store.offsetPage(feed: feed, offset: 0, limit: 5)
        #expect(first.items.map(\.id) == [10, 9, 8, 7, 6])
        try store.insert(items: [stub(id: 11, at: 11)], feed: feed)
        // Item 11 pushes everything down one place: OFFSET 5 now starts at 6 again.
        let second = try store.offsetPage(feed: feed, offset: 5, limit: 5)
        #expect(second.items.map(\.id) == [6, 5, 4, 3, 2])
        let keyset = try store.pages(feed: feed).after(try #require(first.lastCursor), limit: 5)
        #expect(keyset.items.map(\.id) == [5, 4, 3, 2, 1])
    }

    @Test(arguments: [
        ItemStore.newestSQL, ItemStore.afterSQL, ItemStore.beforeSQL, ItemStore.newerExistsSQL,
        ItemStore.olderExistsSQL,
    ])
    func pageQueriesSeekTheFeedOrderIndexWithoutScanOrSort(sql: String) throws {
        let store = try ItemStore.inMemory()
        let statement = try store.connection.prepare("EXPLAIN QUERY PLAN " + sql)
        var details: [String] = []
        while try statement.step() { details.append(statement.text(at: 3)) }
        let plan = details.joined(separator: " | ")
        #expect(plan.contains("INDEX items_feed_order"), "\(plan)")
        #expect(!plan.contains("SCAN items"), "\(plan)")
        #expect(!plan.contains("TEMP B-TREE"), "\(plan)")
    }

    @Test func rowsComeBackInTheRequestedOrderWithMissingIdsReported() throws {
        let store = try ItemStore.inMemory()
        let feed = try store.createFeed(named: "f")
        try store.insert(
            items: [
                NewItem(
                    id: 1, publishedAt: 1, kind: "a", width: 1, height: 1, title: "one", author: "x",
                    payload: "{\"n\":1}"),
                NewItem(id: 3, publishedAt: 3, kind: "a", width: 1, height: 1, title: "three", author: "y"),
            ], feed: feed)
        let batch = try store.rows(ids: [3, 99, 1, 3])
        #expect(batch.rows.map(\.id) == [3, 1, 3])
        #expect(batch.rows.map(\.title) == ["three", "one", "three"])
        #expect(batch.rows[1].payload == "{\"n\":1}" && batch.rows[1].author == "x")
        #expect(batch.missing == [99])
        // More ids than one statement binds (500): split into chunks, still in order.
        let many = (0..<1_203).map { Int64($0 % 5) }
        let big = try store.rows(ids: many)
        #expect(big.rows.map(\.id) == many.filter { $0 == 1 || $0 == 3 })
        #expect(big.missing == many.filter { $0 != 1 && $0 != 3 })
    }
}
