import FeedModel
import Foundation
import Testing

@testable import FeedStore

@Suite struct PagingEdgeTests {
    @Test func emptyFeedGivesEmptyPagesWithNothingMoreEitherWay() throws {
        let store = try ItemStore.inMemory()
        let pages = store.pages(feed: try store.createFeed(named: "empty"))
        let cursor = Cursor(publishedAt: 1000, id: 1)
        for page in [try pages.newest(limit: 10), try pages.after(cursor, limit: 10), try pages.before(cursor, limit: 10)] {
            #expect(page.items.isEmpty)
            #expect(page.firstCursor == nil && page.lastCursor == nil)
            #expect(!page.hasMoreBefore && !page.hasMoreAfter)
        }
    }

    @Test func oneItemFeedPagesAroundItsOnlyItem() throws {
        let store = try ItemStore.inMemory()
        let feed = try store.createFeed(named: "one")
        try store.insert(items: [stub(id: 7, at: 500)], feed: feed)
        let pages = store.pages(feed: feed)
        let only = Cursor(publishedAt: 500, id: 7)

        let first = try pages.newest(limit: 1)
        #expect(first.items.map(\.id) == [7])
        #expect(first.firstCursor == only && first.lastCursor == only)
        #expect(!first.hasMoreBefore && !first.hasMoreAfter)

        let below = try pages.after(only, limit: 5)
        #expect(below.items.isEmpty)
        // Empty page: nothing is strictly newer than the cursor (item 7 is the cursor) nor older.
        #expect(!below.hasMoreBefore && !below.hasMoreAfter)

        let above = try pages.before(only, limit: 5)
        #expect(above.items.isEmpty)
        #expect(!above.hasMoreBefore && !above.hasMoreAfter)
    }

    @Test func limitLargerThanTheFeedReturnsEverythingInFeedOrder() throws {
        let store = try ItemStore.inMemory()
        let feed = try store.createFeed(named: "small")
        try store.insert(items: [stub(id: 1, at: 30), stub(id: 2, at: 10), stub(id: 3, at: 20)], feed: feed)
        let page = try store.pages(feed: feed).newest(limit: 100)
        // Feed order by published_at DESC: 30 (id 1), 20 (id 3), 10 (id 2).
        #expect(page.items.map(\.id) == [1, 3, 2])
        #expect(!page.hasMoreAfter && !page.hasMoreBefore)
    }

    @Test func tiesInPublishedAtAreOrderedByIdAndNeverLostOrRepeated() throws {
        let store = try ItemStore.inMemory()
        let feed = try store.createFeed(named: "ties")
        try store.insert(items: [5, 3, 9, 1, 7].map { stub(id: $0, at: 100) }, feed: feed)
        let pages = store.pages(feed: feed)
        // All at 100: feed order is id DESC = 9, 7, 5, 3, 1; pages of 2: [9, 7] [5, 3] [1].
        let p1 = try pages.newest(limit: 2)
        let p2 = try pages.after(try #require(p1.lastCursor), limit: 2)
        let p3 = try pages.after(try #require(p2.lastCursor), limit: 2)
        #expect(p1.items.map(\.id) == [9, 7] && p1.hasMoreAfter)
        #expect(p2.items.map(\.id) == [5, 3] && p2.hasMoreAfter && p2.hasMoreBefore)
        #expect(p3.items.map(\.id) == [1] && !p3.hasMoreAfter && p3.hasMoreBefore)
        // And back up from the bottom: before(1) nearest two = 3, 5, in feed order [5, 3].
        let up = try pages.before(Cursor(publishedAt: 100, id: 1), limit: 2)
        #expect(up.items.map(\.id) == [5, 3] && up.hasMoreBefore && up.hasMoreAfter)
    }

    @Test func cursorWhoseItemWasDeletedStillPagesFromItsPosition() throws {
        let store = try ItemStore.inMemory()
        let feed = try store.createFeed(named: "f")
        // ids 1...6 at 10, 20, ..., 60: feed order 6, 5, 4, 3, 2, 1.
        try store.insert(items: (1...6).map { stub(id: Int64($0), at: Int64($0) * 10) }, feed: feed)
        let pages = store.pages(feed: feed)
        let first = try pages.newest(limit: 2)
        #expect(first.items.map(\.id) == [6, 5])
        #expect(try store.delete(ids: [5]) == 1)
        let next = try pages.after(try #require(first.lastCursor), limit: 2)
        #expect(next.items.map(\.id) == [4, 3])
        #expect(next.hasMoreBefore && next.hasMoreAfter)
        #expect(try store.delete(ids: [6]) == 1)
        let back = try pages.before(try #require(next.firstCursor), limit: 2)
        #expect(back.items.isEmpty && !back.hasMoreBefore && back.hasMoreAfter)
    }

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

    @Test(arguments: [ItemStore.newestSQL, ItemStore.afterSQL, ItemStore.beforeSQL, ItemStore.newerExistsSQL, ItemStore.olderExistsSQL])
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
                NewItem(id: 1, publishedAt: 1, kind: "a", width: 1, height: 1, title: "one", author: "x", payload: "{\"n\":1}"),
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
