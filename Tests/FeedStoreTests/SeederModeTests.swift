import FeedResources
import FeedModel
import Foundation
import Testing

@testable import FeedStore

/// Seeding a feed that already has items: refused, appended after the newest, or replaced.
@Suite struct SeederModeTests {
    static func publishedTimes(_ store: ItemStore, feed: String) throws -> [Int64] {
        let statement = try store.connection.prepare(
            "SELECT published_at FROM items JOIN feeds ON feeds.id = items.feed_id WHERE feeds.name = '\(feed)' ORDER BY items.id")
        var times: [Int64] = []
        while try statement.step() { times.append(statement.int64(at: 0)) }
        return times
    }

    static func seed(_ store: ItemStore, _ mode: Seeder.Mode, count: Int, seed: UInt64 = 1) throws -> SeedSummary {
        try Seeder.seed(
            store, feedNamed: "home", mode: mode, preset: try Preset.named("photos"), seed: seed,
            start: ItemGenerator.defaultStart, count: count)
    }

    @Test func aFeedWithItemsIsRefusedAndNothingIsWritten() throws {
        let store = try ItemStore.inMemory()
        try Self.seed(store, .intoEmpty, count: 10)
        let before = try Self.publishedTimes(store, feed: "home")
        #expect(throws: StoreError.feedNotEmpty("home", items: 10)) { try Self.seed(store, .intoEmpty, count: 5) }
        #expect(try Self.publishedTimes(store, feed: "home") == before)
        // Another, empty feed of the same database seeds as usual.
        _ = try Seeder.seed(
            store, feedNamed: "other", mode: .intoEmpty, preset: try Preset.named("photos"), seed: 1,
            start: ItemGenerator.defaultStart, count: 3)
        #expect(try Self.publishedTimes(store, feed: "other").count == 3)
    }

    @Test func appendContinuesStrictlyAfterTheNewestItem() throws {
        let store = try ItemStore.inMemory()
        try Self.seed(store, .intoEmpty, count: 10)
        let first = try Self.publishedTimes(store, feed: "home")
        let newest = try #require(first.max())
        // Same seed and start again: without --append the timestamps would repeat exactly.
        let summary = try Self.seed(store, .append, count: 10)
        #expect(summary.items == 10)
        let all = try Self.publishedTimes(store, feed: "home")
        #expect(all.count == 20)
        #expect(Array(all.prefix(10)) == first)
        #expect(all.dropFirst(10).allSatisfy { $0 > newest })
        #expect(Set(all).count == Set(first).count + Set(all.dropFirst(10)).count)
        #expect(try #require(summary.oldestPublishedAt) > newest)
    }

    @Test func replaceDeletesTheOldItemsInTheSameTransaction() throws {
        let store = try ItemStore.inMemory()
        try Self.seed(store, .intoEmpty, count: 10)
        let first = try Self.publishedTimes(store, feed: "home")
        try Self.seed(store, .replace, count: 4)
        let after = try Self.publishedTimes(store, feed: "home")
        // The same preset, seed and start: the first 4 of the earlier run, nothing else.
        #expect(after == Array(first.prefix(4)))
        #expect(try store.itemCount(feed: try store.requireFeed(named: "home")) == 4)
    }

    @Test func appendToAnEmptyFeedStartsAtTheGivenStart() throws {
        let a = try ItemStore.inMemory()
        let b = try ItemStore.inMemory()
        try Self.seed(a, .append, count: 5)
        try Self.seed(b, .intoEmpty, count: 5)
        #expect(try Self.publishedTimes(a, feed: "home") == Self.publishedTimes(b, feed: "home"))
    }
}
