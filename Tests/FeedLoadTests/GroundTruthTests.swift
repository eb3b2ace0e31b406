import FeedModel
import FeedStore
import Testing

@testable import FeedLoad

@Suite struct GroundTruthTests {
    @Test func spanIDsAreTheIdsOfTheSpanItemsIncludingTiesInPublicationTime() throws {
        let database = try TemporaryDatabase()
        defer { database.cleanUp() }
        let store = try ItemStore(path: database.path)
        // Ids 1…40 in feed "home", published in pairs (ids 2k−1 and 2k share a time), and ids
        // 41…50 in another feed, which no span of "home" may include.
        let home = (Int64(1)...40).map { id -> NewItem in
            var item = newItem(id)
            item.publishedAt = 1_000_000 + (id + 1) / 2 * 1_000
            return item
        }
        let (feed, _) = try store.insert(items: home, feedNamed: "home")
        _ = try store.insert(items: (41...50).map(newItem), feedNamed: "other")
        let truth = try GroundTruth(path: database.path, feed: feed)
        let cursors = home.map { Cursor(publishedAt: $0.publishedAt, id: $0.id!) }
        var random = SplitMix64(seed: 61)
        for _ in 0..<50 {
            let a = cursors[Int(random.next() % 40)]
            let b = cursors[Int(random.next() % 40)]
            let (newest, oldest) = (min(a, b), max(a, b))
            // Brute force: every "home" item whose cursor lies between them in feed order.
            let expected = cursors.filter { newest <= $0 && $0 <= oldest }.sorted().map(\.id)  // feed order
            #expect(try truth.spanIDs(newest: newest, oldest: oldest) == expected)
            #expect(try truth.span(newest: newest, oldest: oldest).map(\.id).sorted() == expected.sorted())
        }
    }
}
