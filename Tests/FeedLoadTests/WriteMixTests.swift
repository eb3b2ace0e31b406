import FeedEngine
import FeedModel
import FeedReplay
import FeedStore
import Foundation
import Testing

@testable import FeedLoad
import FeedResources

@Suite struct WriteMixTests {
    private func seededDatabase(count: Int) throws -> TemporaryDatabase {
        let database = try TemporaryDatabase()
        let store = try ItemStore(path: database.path)
        var generator = ItemGenerator(preset: try Preset.named("mixed"), seed: 7)
        try Seeder.seed(store, feedNamed: "home", generator: &generator, count: count)
        return database
    }

    /// Every row of the store, ordered by id, as text: to compare a database before and after.
    private func snapshot(_ path: String) throws -> [String] {
        let backend = try SQLiteConnector(path: path, feedName: "home").connect()
        let stubs = try backend.groundTruth(after: Cursor(publishedAt: .max, id: .max), limit: 1_000_000)
        let rows = try backend.rows(ids: stubs.map(\.id)).rows
        return zip(stubs, rows).map { stub, row in "\(stub) \(row)" }
    }

    @Test func parsesWeightsAndMapsDrawsInOrderInsertUpdateDelete() throws {
        let mix = try WriteMix(parsing: "insert=8,update=1,delete=1")
        #expect(mix == WriteMix(insert: 8, update: 1, delete: 1))
        // Total 10: [0, 0.8) insert, [0.8, 0.9) update, [0.9, 1) delete.
        #expect(mix.operation(forUnit: 0) == .insert && mix.operation(forUnit: 0.799) == .insert)
        #expect(mix.operation(forUnit: 0.8) == .update && mix.operation(forUnit: 0.899) == .update)
        #expect(mix.operation(forUnit: 0.9) == .delete && mix.operation(forUnit: 0.999) == .delete)
        #expect(try WriteMix(parsing: "delete=3") == WriteMix(insert: 0, update: 0, delete: 3))
        for bad in ["", "insert", "insert=8,bogus=1", "insert=-1", "insert=1,insert=2", "insert=0", "update=x"] {
            #expect(throws: WriteMixError.self, "'\(bad)'") { try WriteMix(parsing: bad) }
        }
    }

    @Test func eachWriterDrawsItsOwnStream() throws {
        let preset = try Preset.named("mixed")
        let seeds = (0..<4).map { WriterPool.writerSeed(base: 1, writer: $0) }
        #expect(Set(seeds).count == 4)
        let streams = seeds.map { seed in
            var generator = ItemGenerator(preset: preset, seed: seed)
            return generator.items(count: 200)
        }
        for a in 0..<4 {
            for b in (a + 1)..<4 {
                // Shifted or equal streams would share titles in sequence; independent ones share
                // few titles at the same position and no payload (each carries a 64-bit media key).
                let sameTitle = zip(streams[a], streams[b]).filter { $0.title == $1.title }.count
                #expect(sameTitle < 20, "writers \(a) and \(b): \(sameTitle) equal titles at the same index")
                #expect(streams[a].map(\.title) != streams[b].map(\.title))
                #expect(streams[a].map(\.author) != streams[b].map(\.author))
                #expect(Set(streams[a].map(\.payload)).isDisjoint(with: streams[b].map(\.payload)))
                // No stream is another one shifted by a few items.
                for shift in 1...5 {
                    #expect(Array(streams[a].dropFirst(shift).map(\.title).prefix(50)) != Array(streams[b].map(\.title).prefix(50)))
                    #expect(Array(streams[b].dropFirst(shift).map(\.title).prefix(50)) != Array(streams[a].map(\.title).prefix(50)))
                }
            }
        }
    }

    @Test func writersIdsNeverCollideAndDeletesNeverFreeTheLargestID() throws {
        let database = try seededDatabase(count: 200)
        defer { database.cleanUp() }
        let preset = try Preset.named("mixed")
        let feed = try ItemStore(path: database.path).requireFeed(named: "home")
        let connector = try SQLiteConnector(path: database.path, feedName: "home")
        let mix = WriteMix(insert: 1, update: 1, delete: 2)
        let writers = try (0..<2).map { index in
            let reader = try connector.groundTruthReader(reuseUnchangedSpans: false)
            return HeadWriter(
                backend: try connector.connectWriter(), preset: preset,
                seed: WriterPool.writerSeed(base: 3, writer: index), mix: mix, largestID: { try reader.maxID() },
                baselineMaxID: 200)
        }
        var metrics = LoadMetrics()
        var insertedInOrder: [Int64] = []
        var insertedBy: [Set<Int64>] = [[], []]
        for round in 0..<300 {
            let ids = writers[round % 2].writeBatch(2, into: &metrics)
            insertedInOrder += ids
            insertedBy[round % 2].formUnion(ids)
        }
        #expect(metrics.errors.isEmpty)
        #expect(metrics.deleted > 100 && metrics.updated > 50 && metrics.inserted > 100)
        // Ids only grow: none is given twice, whichever writer inserted it and whatever was deleted.
        #expect(zip(insertedInOrder, insertedInOrder.dropFirst()).allSatisfy { $0 < $1 })
        #expect(insertedBy[0].isDisjoint(with: insertedBy[1]))
        #expect(insertedBy[0].count + insertedBy[1].count == metrics.inserted)
        let store = try ItemStore(path: database.path)
        #expect(try store.itemCount(feed: feed) == 200 + metrics.inserted - metrics.deleted)
    }

    /// Four replay sessions for 1.5 s while 2 writers run 400 operations/s of `mix`.
    private func load(path: String, mix: WriteMix, keep: Bool) -> LoadConfiguration {
        var configuration = LoadConfiguration(
            path: path, feedName: "home", model: .closed(sessions: 4),
            traces: .synthesized(models: [.skimmer, .flinger], durationSeconds: 6),
            replay: ReplayOptions(controller: FeedController.Configuration(pageSize: 10, initialLoadPages: 1)),
            timeScale: 10, pagination: .keyset, durationSeconds: 1.5, workers: 2, writers: 2, writeRate: 400,
            keepWrites: keep)
        configuration.writeMix = mix
        return configuration
    }

    @Test func keysetSessionsReportNoSkipsForItemsWritersDeleted() throws {
        let database = try seededDatabase(count: 3_000)
        defer { database.cleanUp() }
        let report = try LoadRunner(configuration: load(path: database.path, mix: WriteMix(insert: 2, update: 1, delete: 2), keep: true), openBackend: openSQLite).run()
        #expect(report.errors.isEmpty && report.sessions.failed == 0)
        #expect(report.deleted > 50 && report.updated > 20, "the writers deleted and updated while sessions walked")
        #expect(report.consistency.sessionsChecked == report.sessions.started)
        // A deleted item no longer exists: the walk that missed it skipped nothing.
        #expect(report.consistency.skips == 0 && report.consistency.duplicates == 0)
        let outcomes = "\(report.consistency.sessions)"
        #expect(!report.hasViolations, "\(outcomes)")
        #expect(report.settings.writeMix == "insert=2,update=1,delete=2")
        #expect(report.text.contains("\(report.updated) updated, \(report.deleted) deleted"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(try report.json().utf8)) as? [String: Any])
        let deleted = json["deleted"] as? Int
        let updated = json["updated"] as? Int
        #expect(deleted == report.deleted)
        #expect(updated == report.updated)
        let store = try ItemStore(path: database.path)
        #expect(try store.itemCount(feed: try store.requireFeed(named: "home")) == 3_000 + report.inserted - report.deleted)
    }

    @Test func theFeedIsAsBeforeAfterARunWithUpdatesAndDeletesUnlessKept() throws {
        let database = try seededDatabase(count: 400)
        defer { database.cleanUp() }
        let before = try snapshot(database.path)
        // Deletes and updates first (insert weight 1 of 4): the writers change seeded items early.
        let report = try LoadRunner(configuration: load(path: database.path, mix: WriteMix(insert: 1, update: 2, delete: 1), keep: false), openBackend: openSQLite).run()
        #expect(report.errors.isEmpty)
        #expect(report.deleted > 20 && report.updated > 40)
        #expect(try snapshot(database.path) == before, "every row back as it was, byte for byte")
    }

    @Test func consistencyCountsNoSkipForAnItemDeletedDuringTheWalk() {
        // Items 1...6 at times 60, 50, ..., 10 (feed order 1, 2, ..., 6). The walk loaded 1, 2, 4, 6;
        // item 3 was deleted before the walk reached it, item 5 is still there and was passed over.
        func item(_ id: Int64) -> Item { Item(id: id, publishedAt: 70 - id * 10, kind: "a", width: 1, height: 1) }
        let loaded = [1, 2, 4, 6].map(item)
        let survivors = [1, 2, 4, 5, 6].map(item)
        let count = ConsistencyChecker.check(loaded: loaded, survivors: survivors, existedAtStart: { $0 <= 6 })
        #expect(count == ConsistencyCount(duplicates: 0, skips: 1), "item 5 is a skip, deleted item 3 is not")
        // Item 4 loaded and deleted afterwards: still no skip, no duplicate.
        let later = ConsistencyChecker.check(loaded: loaded, survivors: [1, 2, 5, 6].map(item), existedAtStart: { $0 <= 6 })
        #expect(later == ConsistencyCount(duplicates: 0, skips: 1))
    }
}
