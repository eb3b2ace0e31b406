import FeedModel
import Testing

@testable import FeedLoad

@Suite struct ConsistencyCheckerTests {
    /// Item `id` published at `1000 + id`: a larger id is newer.
    private func item(_ id: Int64) -> Item {
        Item(id: id, publishedAt: 1_000 + id, kind: "post", width: 100, height: 100)
    }

    private func items(_ ids: [Int64]) -> [Item] { ids.map(item) }

    @Test func aWalkThatLoadedEverySpanItemOnceIsClean() {
        let feed = items(Array((1...20).reversed()))
        let count = ConsistencyChecker.check(loaded: Array(feed[0..<12]), survivors: feed) { _ in true }
        #expect(count == ConsistencyCount(duplicates: 0, skips: 0))
        #expect(count.isClean)
    }

    @Test func repeatedItemsCountOncePerExtraLoad() {
        // Pages 20…11 and 13…4 (3 inserted at the head shifted OFFSET 10 back by 3): 11, 12, 13 twice.
        let loaded = items(Array((11...20).reversed()) + Array((4...13).reversed()))
        let truth = items(Array((1...23).reversed()))
        let count = ConsistencyChecker.check(loaded: loaded, survivors: truth) { $0 <= 20 }
        #expect(count == ConsistencyCount(duplicates: 3, skips: 0))
    }

    @Test func itemsInsertedDuringTheWalkAreNotSkips() {
        // The walk loaded 30…21 and 20…11; meanwhile 25 was deleted and re-added as id 35 (new),
        // and ids 31, 32 were inserted at the head. Nothing stable was missed.
        let loaded = items(Array((11...30).reversed()))
        let truth = items([32, 31] + Array((1...30).reversed()).filter { $0 != 25 })
        let count = ConsistencyChecker.check(loaded: loaded, survivors: truth) { $0 <= 30 }
        #expect(count == ConsistencyCount(duplicates: 0, skips: 0))
    }

    @Test func stableItemsInsideTheSpanThatWereNeverLoadedAreSkips() {
        // Loaded 20…11 then 8…1: 10 and 9 were passed over; 15 inserted mid-walk and never seen is not a skip.
        let loaded = items(Array((11...20).reversed()) + Array((1...8).reversed()))
        let truth = items(Array((1...20).reversed()))
        let count = ConsistencyChecker.check(loaded: loaded.filter { $0.id != 15 }, survivors: truth) { $0 != 15 }
        #expect(count == ConsistencyCount(duplicates: 0, skips: 2))
    }

    @Test func itemsOutsideTheSpanAreIgnored() {
        let loaded = items([10, 9, 8])
        let truth = items(Array((1...12).reversed()))
        #expect(ConsistencyChecker.check(loaded: loaded, survivors: truth) { _ in true }.isClean)
        #expect(ConsistencyChecker.check(loaded: [], survivors: truth) { _ in true }.isClean)
    }
}
