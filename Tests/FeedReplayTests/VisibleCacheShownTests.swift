import FeedEngine
import FeedModel
import Testing

@testable import FeedReplay

/// ``VisibleCache/insertNewlyShown(ids:bound:into:)`` (the rows shown for `rows.distinct_shown`,
/// inserted only for the cells the last visible change did not already show) against the
/// brute-force set of every bound id ever seen, on seeded random scrolls of a visible window over
/// a list: small moves both ways, jumps, rows arriving, a list with a repeated id.
@Suite struct VisibleCacheShownTests {
    @Test(arguments: [UInt64(3), 17, 91])
    func newlyShownRowsGiveTheSetEveryBoundRowGives(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        // Item ids of a feed (newest first), with one id repeated far down (a list with a duplicate).
        var feed = (0..<400).map { Int64(10_000 - $0 * 3) }
        feed[300] = feed[12]
        var loaded = Set<Int64>()  // rows that arrived
        var cache = VisibleCache()
        var fast = ItemIDSet()
        var oracle = Set<Int64>()
        var start = 0
        var skipped = 0
        for _ in 0..<2_000 {
            switch rng.next() % 10 {
            case 0: start = Int(rng.next() % 380)  // a jump
            case 1...6: start = max(0, min(380, start + Int(rng.next() % 7) - 3))  // a few cells either way
            default: break  // rows arrive only
            }
            let count = 12 + Int(rng.next() % 9)
            let ids = Array(feed[start..<min(feed.count, start + count)])
            for id in ids where rng.next() % 3 == 0 { loaded.insert(id) }
            let bound = ids.map { loaded.contains($0) }
            let before = fast.count
            cache.insertNewlyShown(ids: ids, bound: bound, into: &fast)
            for (id, isBound) in zip(ids, bound) where isBound { oracle.insert(id) }
            skipped += bound.filter { $0 }.count - (fast.count - before)
            cache = VisibleCache(
                generation: 0, bound: bound, unbound: bound.indices.filter { !bound[$0] }, itemIDs: ids)
            #expect(fast.count == oracle.count)
        }
        #expect(fast.sorted() == oracle.sorted())
        // The scrolls exercised the skip: most bound cells were shown at the change before.
        #expect(skipped > 5_000)
    }
}
