import FeedModel
import Foundation
import Testing

@testable import FeedStore

@Suite struct ReadTransactionTests {
    private func store(_ database: TemporaryDatabase, items: Int) throws -> (ItemStore, FeedID) {
        let store = try ItemStore(path: database.path)
        let feed = try store.createFeed(named: "home")
        try store.insert(items: (1...Int64(items)).map { stub(id: $0, at: $0 * 10) }, feed: feed)
        return (store, feed)
    }

    @Test func queriesInOneReadTransactionSeeOneSnapshotWhileAnotherConnectionCommits() throws {
        let database = try TemporaryDatabase()
        defer { database.cleanUp() }
        let (reader, feed) = try store(database, items: 5)
        let writer = try ItemStore(path: database.path)
        let count = "SELECT count(*) FROM items"
        let (before, during) = try reader.read {
            let before = try reader.connection.scalarInt(count)
            try writer.insert(items: [stub(id: 6, at: 60)], feed: feed)  // commits on its own connection
            return (before, try reader.connection.scalarInt(count))
        }
        #expect(before == 5)
        #expect(during == 5, "the second read still sees the snapshot of the first")
        #expect(try reader.connection.scalarInt(count) == 6, "a read after the transaction sees the insert")
    }

    @Test func aReadTransactionEndsWhenItsBodyThrowsAndTheConnectionCanWriteAgain() throws {
        struct Stop: Error {}
        let database = try TemporaryDatabase()
        defer { database.cleanUp() }
        let (store, feed) = try store(database, items: 3)
        #expect(throws: Stop.self) {
            try store.connection.read {
                _ = try store.connection.scalarInt("SELECT count(*) FROM items")
                throw Stop()
            }
        }
        // BEGIN IMMEDIATE would fail inside a transaction left open.
        try store.insert(items: [stub(id: 4, at: 40)], feed: feed)
        #expect(try store.connection.scalarInt("SELECT count(*) FROM items") == 4)
    }

    @Test func aKeysetPageInsideAWriteTransactionSeesThatTransactionsWrites() throws {
        let database = try TemporaryDatabase()
        defer { database.cleanUp() }
        let (store, feed) = try store(database, items: 4)
        // Items 40, 30, 20, 10 (published_at); inside the transaction item 5 (at 25) is added.
        let page = try store.discardingWrites {
            try store.insert(items: [stub(id: 5, at: 25)], feed: feed)
            return try store.after(Cursor(publishedAt: 30, id: 3), feed: feed, limit: 2)
        }
        #expect(page.items.map(\.id) == [5, 2])
        #expect(page.hasMoreBefore && page.hasMoreAfter)
        #expect(try store.after(Cursor(publishedAt: 30, id: 3), feed: feed, limit: 2).items.map(\.id) == [2, 1])
    }

    @Test func aPageInsideATransactionBegunWithPlainSQLJoinsIt() throws {
        let database = try TemporaryDatabase()
        defer { database.cleanUp() }
        let (store, feed) = try store(database, items: 4)
        try store.connection.execute("BEGIN")
        let page = try store.after(Cursor(publishedAt: 40, id: 4), feed: feed, limit: 2)
        try store.connection.execute("COMMIT")  // would fail had `after` committed the transaction itself
        #expect(page.items.map(\.id) == [3, 2])
    }
}
