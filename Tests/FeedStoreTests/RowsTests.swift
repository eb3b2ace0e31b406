import FeedModel
import Testing

@testable import FeedStore

@Suite struct RowsTests {
    @Test func rowsMatchABruteForceLookupForRandomRequestsAcrossChunks() throws {
        let store = try ItemStore.inMemory()
        let feed = try store.createFeed(named: "f")
        // Ids 1…1 200 (the odd ones only, so even ids are missing), title "t<id>", author "a<id mod 7>".
        let existing = Set(stride(from: Int64(1), through: 1_200, by: 2))
        try store.insert(
            items: existing.sorted().map {
                NewItem(id: $0, publishedAt: $0, kind: "k", width: 1, height: 1, title: "t\($0)", author: "a\($0 % 7)")
            }, feed: feed)
        var random = SplitMix64(seed: 12)
        for size in [1, 2, 7, 20, 499, 500, 501, 1_100] {
            // Random ids in any order, repeats allowed; more than `rowsChunk` (500) ids span several statements.
            let ids = (0..<size).map { _ in Int64(random.next() % 1_250) + 1 }
            let batch = try store.rows(ids: ids)
            // Brute force: one row per requested id that exists, in request order; the rest missing, in order.
            #expect(batch.rows.map(\.id) == ids.filter(existing.contains))
            #expect(batch.rows.map(\.title) == ids.filter(existing.contains).map { "t\($0)" })
            #expect(batch.rows.map(\.author) == ids.filter(existing.contains).map { "a\($0 % 7)" })
            #expect(batch.missing == ids.filter { !existing.contains($0) })
        }
    }
}
