import FeedModel
import FeedStore
import Foundation

/// A writer of the load test: writes to one feed at a steady rate, one `BEGIN IMMEDIATE`
/// transaction per batch, on its own connection, counting busy waits. Each operation of a batch is
/// an insert at the head, an update or a delete, drawn from the writer's ``WriteMix`` with its own
/// seeded stream.
///
/// - **Insert**: inside each transaction the writer reads the feed's newest `published_at` and
///   generates items no earlier than one millisecond after it, so every insert lands at the head
///   (IMMEDIATE takes the write lock first, so writers cannot interleave between the read and the
///   insert).
/// - **Update**: a new title and payload (``ItemGenerator/edit(kind:width:height:)``) for an item;
///   its id, time, kind and size stay, so its place in the feed and its layout do not change.
/// - **Delete**: removes an item, but never the row holding the store's largest id. Item ids are
///   SQLite rowids without `AUTOINCREMENT`, so a new row gets `max(rowid) + 1`
///   (<https://sqlite.org/autoinc.html>): were the largest row deleted, the next insert would reuse
///   its id. Keeping it, ids only grow, no id is ever reused, and the consistency check's
///   "existed at the start" test (`id ≤ max(id)` then) stays exact.
///
/// The item an update or delete picks, deterministically from the writer's stream: one of the
/// writer's own inserted items still present, drawn uniformly; while it has none, one of the
/// ``headCandidates`` newest items that existed before the writers started (never another writer's).
/// Those pre-existing items are recorded in the ``RestoreJournal`` before their first change, so
/// the pool can put them back after the run.
///
/// `SQLITE_BUSY` waits are counted by the connection's busy handler; a transaction that still
/// fails is rolled back and counted by result code, and the writer goes on.
final class HeadWriter {
    private let connection: RawConnection
    private let feed: FeedID
    private var generator: ItemGenerator
    private var operations: SplitMix64
    private let mix: WriteMix
    /// Items with an id up to this existed before the writers started.
    private let baselineMaxID: Int64
    private let journal: RestoreJournal?
    private let head: RawStatement
    private let insert: RawStatement
    private let maxID: RawStatement
    private let headItems: RawStatement
    private let size: RawStatement
    private let row: RawStatement
    private let update: RawStatement
    private let delete: RawStatement
    private let clock = ContinuousClock()
    /// The writer's own inserted items still present, in no particular order.
    private(set) var own: [Int64] = []

    /// How many of the newest pre-existing items an update or delete picks from while the writer
    /// has no item of its own.
    static let headCandidates = 32

    /// - Parameters:
    ///   - seed: the writer's seed (``WriterPool/writerSeed(base:writer:)``): its items and its
    ///     choices of operation and target.
    ///   - baselineMaxID: the store's largest id when the writers started.
    ///   - journal: where pre-existing items are recorded before their first change; `nil` to keep
    ///     the changes.
    init(
        path: String, feed: FeedID, preset: Preset, seed: UInt64, mix: WriteMix = .insertOnly,
        baselineMaxID: Int64 = .max, journal: RestoreJournal? = nil
    ) throws {
        connection = try RawConnection(path: path)
        self.feed = feed
        generator = ItemGenerator(preset: preset, seed: seed)
        // The operations' own stream: seeded with an output of a SplitMix64 over the seed and a
        // constant, so it is not the generator's stream shifted.
        var streams = SplitMix64(seed: seed ^ 0x6F70_6572_6174_696F)
        operations = SplitMix64(seed: streams.next())
        self.mix = mix
        self.baselineMaxID = baselineMaxID
        self.journal = journal
        head = try connection.prepare("SELECT coalesce(max(published_at), 0) FROM items WHERE feed_id = ?1")
        insert = try connection.prepare(
            """
            INSERT INTO items (feed_id, published_at, kind, width, height, title, author, payload)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
            """)
        maxID = try connection.prepare("SELECT coalesce(max(id), 0) FROM items")
        headItems = try connection.prepare(
            "SELECT id FROM items WHERE feed_id = ?1 AND id <= ?2 ORDER BY published_at DESC, id DESC LIMIT ?3")
        size = try connection.prepare("SELECT kind, width, height FROM items WHERE id = ?1")
        row = try connection.prepare(
            "SELECT feed_id, published_at, kind, width, height, title, author, payload FROM items WHERE id = ?1")
        update = try connection.prepare("UPDATE items SET title = ?2, payload = ?3 WHERE id = ?1")
        delete = try connection.prepare("DELETE FROM items WHERE id = ?1")
    }

    /// Runs `batch` operations of the mix in one transaction and records it into `metrics`
    /// (inserted, updated and deleted items; the transaction's latency under `insert`).
    /// - Returns: the ids inserted, or `[]` when the transaction failed (its error is counted and
    ///   nothing of it stays).
    @discardableResult
    func writeBatch(_ batch: Int, into metrics: inout LoadMetrics) -> [Int64] {
        let waitsBefore = connection.busyWaits
        let start = clock.now
        defer { metrics.busyWaits += connection.busyWaits - waitsBefore }
        let ownBefore = own
        let generatorBefore = generator
        do {
            try connection.execute("BEGIN IMMEDIATE")
            do {
                var inserted: [Int64] = []
                var (updated, deleted) = (0, 0)
                for _ in 0..<batch {
                    switch mix.operation(forUnit: operations.nextUnit()) {
                    case .insert:
                        let id = try insertAtHead()
                        inserted.append(id)
                        own.append(id)
                    case .update:
                        if let target = try pickTarget(deleting: false) {
                            try updateItem(target)
                            updated += 1
                        }
                    case .delete:
                        if let target = try pickTarget(deleting: true) {
                            try deleteItem(target)
                            deleted += 1
                        }
                    }
                }
                try connection.execute("COMMIT")
                metrics.record(.insert, nanoseconds: start.duration(to: clock.now).nanoseconds)
                metrics.inserted += inserted.count
                metrics.updated += updated
                metrics.deleted += deleted
                metrics.insertTransactions += 1
                return inserted
            } catch {
                for statement in [head, insert, maxID, headItems, size, row, update, delete] { statement.reset() }
                try? connection.execute("ROLLBACK")
                throw error
            }
        } catch {
            // Nothing of the transaction stays: the writer's view goes back to before it.
            own = ownBefore
            generator = generatorBefore
            metrics.recordError(error)
            return []
        }
    }

    /// Inserts `batch` items at the head in one transaction (inserts only, whatever the mix).
    /// - Returns: the new ids, or `[]` when the transaction failed (its error is counted).
    @discardableResult
    func insertBatch(_ batch: Int, into metrics: inout LoadMetrics) -> [Int64] {
        let waitsBefore = connection.busyWaits
        let start = clock.now
        defer { metrics.busyWaits += connection.busyWaits - waitsBefore }
        do {
            try connection.execute("BEGIN IMMEDIATE")
            do {
                var ids: [Int64] = []
                for _ in 0..<batch { ids.append(try insertAtHead()) }
                try connection.execute("COMMIT")
                own.append(contentsOf: ids)
                metrics.record(.insert, nanoseconds: start.duration(to: clock.now).nanoseconds)
                metrics.inserted += ids.count
                metrics.insertTransactions += 1
                return ids
            } catch {
                head.reset()
                insert.reset()
                try? connection.execute("ROLLBACK")
                throw error
            }
        } catch {
            metrics.recordError(error)
            return []
        }
    }

    /// One item at the head, inside the open transaction. - Returns: its id.
    private func insertAtHead() throws -> Int64 {
        head.bind(feed.rawValue, at: 1)
        let newest = try head.step() ? head.int64(at: 0) : 0
        head.reset()
        let item = generator.items(count: 1, notBefore: newest < Int64.max ? newest + 1 : Int64.max)[0]
        defer { insert.reset() }
        insert.bind(feed.rawValue, at: 1)
        insert.bind(item.publishedAt, at: 2)
        insert.bind(item.kind, at: 3)
        insert.bind(item.width, at: 4)
        insert.bind(item.height, at: 5)
        insert.bind(item.title, at: 6)
        insert.bind(item.author, at: 7)
        insert.bind(item.payload, at: 8)
        _ = try insert.step()
        return connection.lastInsertRowID
    }

    /// The item an update or delete changes (see the type's discussion), or `nil` when there is none.
    private func pickTarget(deleting: Bool) throws -> Int64? {
        let largest: Int64
        if deleting {
            defer { maxID.reset() }
            largest = try maxID.step() ? maxID.int64(at: 0) : 0
        } else {
            largest = .min
        }
        let draw = operations.next()
        var candidates = own
        if deleting { candidates.removeAll { $0 == largest } }
        if candidates.isEmpty {
            defer { headItems.reset() }
            headItems.bind(feed.rawValue, at: 1)
            headItems.bind(baselineMaxID, at: 2)
            headItems.bind(Int64(Self.headCandidates), at: 3)
            while try headItems.step() {
                let id = headItems.int64(at: 0)
                if id != largest { candidates.append(id) }
            }
        }
        guard !candidates.isEmpty else { return nil }
        return candidates[Int(draw % UInt64(candidates.count))]
    }

    /// Records a pre-existing item in the journal before its first change.
    private func recordOriginal(_ id: Int64) throws {
        guard let journal, id <= baselineMaxID, !journal.contains(id) else { return }
        defer { row.reset() }
        row.bind(id, at: 1)
        guard try row.step() else { return }
        journal.record(
            OriginalRow(
                id: id, feed: row.int64(at: 0), publishedAt: row.int64(at: 1), kind: row.text(at: 2),
                width: row.double(at: 3), height: row.double(at: 4), title: row.text(at: 5), author: row.text(at: 6),
                payload: row.text(at: 7)))
    }

    private func updateItem(_ id: Int64) throws {
        try recordOriginal(id)
        size.bind(id, at: 1)
        guard try size.step() else {
            size.reset()
            return
        }
        let (kind, width, height) = (size.text(at: 0), size.double(at: 1), size.double(at: 2))
        size.reset()
        let edit = generator.edit(kind: kind, width: width, height: height)
        defer { update.reset() }
        update.bind(id, at: 1)
        update.bind(edit.title, at: 2)
        update.bind(edit.payload, at: 3)
        _ = try update.step()
    }

    private func deleteItem(_ id: Int64) throws {
        try recordOriginal(id)
        defer { delete.reset() }
        delete.bind(id, at: 1)
        _ = try delete.step()
        if let index = own.firstIndex(of: id) { own.remove(at: index) }
    }

    /// Deletes the writer's own items still present, in one `BEGIN IMMEDIATE` transaction (the
    /// largest id included: the run is over).
    /// - Returns: how many were deleted.
    /// - Throws: ``RawSQLiteError``; then nothing was deleted.
    func deleteOwnRows() throws -> Int {
        let deleted = try delete(ids: own)
        own = []
        return deleted
    }

    /// Deletes the items with `ids` in one `BEGIN IMMEDIATE` transaction.
    /// - Returns: how many were deleted (ids already gone are skipped).
    /// - Throws: ``RawSQLiteError``; then nothing was deleted.
    func delete(ids: [Int64]) throws -> Int {
        guard !ids.isEmpty else { return 0 }
        try connection.execute("BEGIN IMMEDIATE")
        do {
            var deleted = 0
            for id in ids {
                delete.bind(id, at: 1)
                _ = try delete.step()
                delete.reset()
                deleted += connection.changes
            }
            try connection.execute("COMMIT")
            return deleted
        } catch {
            delete.reset()
            try? connection.execute("ROLLBACK")
            throw error
        }
    }
}
