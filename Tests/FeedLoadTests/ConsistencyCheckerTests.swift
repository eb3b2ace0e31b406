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

    @Test func idsOfTheSpanGiveTheSameCountsAsABruteForceCheckOnRandomWalks() {
        var random = SplitMix64(seed: 6)
        for _ in 0..<200 {
            // A feed of up to 60 ids; a walk of random loads (repeats allowed); survivors a random subset.
            let size = Int(random.next() % 60) + 1
            let loaded = (0..<Int(random.next() % 40)).map { _ in item(Int64(random.next() % UInt64(size)) + 1) }
            let survivors = (1...Int64(size)).filter { _ in random.next() % 4 != 0 }.map(item)
            let cutoff = Int64(random.next() % UInt64(size + 1))
            let existed: (Int64) -> Bool = { $0 <= cutoff }
            // Brute force, straight from the definitions: duplicates = |L| − |distinct ids of L|;
            // skips = survivors between the newest and oldest loaded cursor that existed and were not loaded.
            var distinct: [Int64] = []
            for item in loaded where !distinct.contains(item.id) { distinct.append(item.id) }
            var skips = 0
            if let newest = loaded.map(\.cursor).min(), let oldest = loaded.map(\.cursor).max() {
                for survivor in survivors
                where newest <= survivor.cursor && survivor.cursor <= oldest && existed(survivor.id)
                    && !loaded.contains(where: { $0.id == survivor.id })
                {
                    skips += 1
                }
            }
            let expected = ConsistencyCount(duplicates: loaded.count - distinct.count, skips: skips)
            let spanIDs = survivors.filter { item in
                loaded.contains { $0.cursor <= item.cursor } && loaded.contains { $0.cursor >= item.cursor }
            }.map(\.id)
            #expect(ConsistencyChecker.check(loaded: loaded, survivors: survivors, existedAtStart: existed) == expected)
            // The walk record keeps the span's bounds as pages arrive (random page sizes, loads in any
            // order): the same as a scan of every load would find.
            var record = Walk()
            var rest = loaded[...]
            while !rest.isEmpty {
                let size = Int(random.next() % 5) + (random.next() % 4 == 0 ? 0 : 1)  // empty pages too
                record.append(Array(rest.prefix(size)))
                rest = rest.dropFirst(size)
            }
            #expect(record.ids == loaded.map(\.id))
            #expect(record.newest == loaded.map(\.cursor).min())
            #expect(record.oldest == loaded.map(\.cursor).max())
            #expect(record.last == loaded.last?.cursor)
            #expect(
                ConsistencyChecker.check(
                    loadedIDs: loaded.map(\.id), survivorIDsInSpan: spanIDs, existedAtStart: existed)
                    == expected)
            // The one-pass check proves its counts or declines; it never gives others.
            let inFeedOrder = survivors.filter { spanIDs.contains($0.id) }.sorted { $0.cursor < $1.cursor }.map(\.id)
            if let count = ConsistencyChecker.checkInFeedOrder(
                loadedIDs: loaded.map(\.id), survivorIDsInFeedOrder: inFeedOrder, existedAtStart: existed)
            {
                #expect(count == expected)
            }
        }
    }

    @Test func theOnePassCheckCountsEveryWalkThatIsASubsequenceOfTheSurvivorsLikeTheBruteForce() {
        var random = SplitMix64(seed: 7)
        var declined = 0
        for _ in 0..<300 {
            // Survivors: a random subset of ids 1…size, in feed order (newest, the largest id, first).
            let size = Int(random.next() % 60) + 1
            let survivors = (1...Int64(size)).reversed().filter { _ in random.next() % 4 != 0 }.map(item)
            // A walk down them in feed order that skips some: a subsequence, so no duplicates.
            var loaded = survivors.filter { _ in random.next() % 3 != 0 }
            // Sometimes break it: a repeat, two loads swapped, or a load that is no survivor.
            let breakage = random.next() % 4
            if breakage == 1, let first = loaded.first { loaded.append(first) }
            if breakage == 2, loaded.count >= 2 { loaded.swapAt(0, 1) }
            if breakage == 3, !loaded.isEmpty { loaded.insert(item(Int64(size) + 1), at: 0) }
            let cutoff = Int64(random.next() % UInt64(size + 1))
            let existed: (Int64) -> Bool = { $0 <= cutoff }
            let spanIDs = survivors.filter { item in
                loaded.contains { $0.cursor <= item.cursor } && loaded.contains { $0.cursor >= item.cursor }
            }.map(\.id)
            let expected = ConsistencyChecker.check(loaded: loaded, survivors: survivors, existedAtStart: existed)
            let count = ConsistencyChecker.checkInFeedOrder(
                loadedIDs: loaded.map(\.id), survivorIDsInFeedOrder: spanIDs, existedAtStart: existed)
            if breakage == 0 || loaded.count < 2 && breakage == 2 {
                // An untouched subsequence: always proved, and 0 duplicates by construction.
                #expect(count == expected)
                #expect(count?.duplicates == 0)
            } else if let count {
                #expect(count == expected)
            } else {
                declined += 1
            }
        }
        #expect(declined > 0)  // the broken walks do reach the fallback
    }
}
