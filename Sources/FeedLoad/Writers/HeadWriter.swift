import FeedModel
import FeedResources
import Foundation

/// A writer of the load test: writes to one feed through the backend's own write paths, on its own
/// connection, counting lock waits where the backend counts them (``FeedModel/LockWaitCounting``).
/// Each operation of a batch is an insert at the head, an update or a delete, drawn from the
/// writer's ``WriteMix`` with its own seeded stream; a batch's inserts go in one
/// ``FeedModel/FeedBackend/insertAtHead(_:)`` transaction, its updates in one
/// ``FeedModel/FeedBackend/update(_:)``, its deletes in one ``FeedModel/FeedBackend/delete(ids:)``.
///
/// - **Insert**: items published after the feed's newest (SQLite: read and written in one
///   `BEGIN IMMEDIATE` transaction, so every insert lands at the head).
/// - **Update**: a new title and payload (``ItemGenerator/edit(kind:width:height:)``) for an item;
///   its id, time, kind and size stay, so its place in the feed and its layout do not change.
/// - **Delete**: removes an item, but never one at or above the store's largest id read before the
///   pick. SQLite item ids are rowids without `AUTOINCREMENT`, so a new row gets `max(rowid) + 1`
///   (<https://sqlite.org/autoinc.html>): were the largest row deleted, the next insert would reuse
///   its id. Keeping it, ids only grow, no id is ever given twice, and the consistency check's
///   "existed at the start" test (`id ≤ max(id)` then) stays exact.
///
/// The item an update or delete picks, deterministically from the writer's stream: one of the
/// writer's own inserted items still present, drawn uniformly; while it has none, one of the
/// ``headCandidates`` newest items that existed before the writers started (never another writer's).
/// Those pre-existing items are recorded in the ``RestoreJournal`` before their first change, so
/// the pool can put them back after the run. A failed call is counted by its code and the writer goes on.
final class HeadWriter {
    private let backend: any FeedBackend
    private let waits: (any LockWaitCounting)?
    private let largestID: (() throws -> Int64)?
    private var generator: ItemGenerator
    private var operations: SplitMix64
    private let mix: WriteMix
    /// Items with an id up to this existed before the writers started.
    private let baselineMaxID: Int64
    private let journal: RestoreJournal?
    private let clock = ContinuousClock()
    /// The writer's own inserted items still present (stubs), in no particular order.
    private(set) var own: [Item] = []

    /// How many of the newest pre-existing items an update or delete picks from while the writer
    /// has no item of its own.
    static let headCandidates = 32

    /// - Parameters:
    ///   - backend: a writer connection (``FeedModel/FeedBackendConnector/connectWriter()``).
    ///   - seed: the writer's seed (``WriterPool/writerSeed(base:writer:)``): its items and its
    ///     choices of operation and target.
    ///   - largestID: reads the store's largest item id (a ground-truth reader's ``FeedModel/GroundTruthReader/maxID()``);
    ///     needed for deletes.
    ///   - baselineMaxID: the store's largest id when the writers started.
    ///   - journal: where pre-existing items are recorded before their first change; `nil` to keep them changed.
    init(
        backend: any FeedBackend, preset: Preset, seed: UInt64, mix: WriteMix = .insertOnly,
        largestID: (() throws -> Int64)? = nil, baselineMaxID: Int64 = .max, journal: RestoreJournal? = nil
    ) {
        self.backend = backend
        self.waits = backend as? any LockWaitCounting
        self.largestID = largestID
        generator = ItemGenerator(preset: preset, seed: seed)
        // The operations' own stream: seeded with an output of a SplitMix64 over the seed and a
        // constant, so it is not the generator's stream shifted.
        var streams = SplitMix64(seed: seed ^ 0x6F70_6572_6174_696F)
        operations = SplitMix64(seed: streams.next())
        self.mix = mix
        self.baselineMaxID = baselineMaxID
        self.journal = journal
    }

    /// Inserts `batch` items at the head in one transaction (inserts only, whatever the mix).
    /// - Returns: the new ids, or `[]` when the transaction failed (its error is counted).
    @discardableResult
    func insertBatch(_ batch: Int, into metrics: inout LoadMetrics) -> [Int64] {
        let waitsBefore = waits?.lockWaits ?? 0
        defer { metrics.busyWaits += (waits?.lockWaits ?? 0) - waitsBefore }
        return insert(batch, into: &metrics)
    }

    private func insert(_ count: Int, into metrics: inout LoadMetrics) -> [Int64] {
        let start = clock.now
        do {
            var made: [NewItem] = []
            let ids = try backend.insertAtHead { newest in
                made = generator.items(count: count, notBefore: newest.map { $0 < Int64.max ? $0 + 1 : Int64.max } ?? 1)
                return made
            }
            for (id, item) in zip(ids, made) {
                own.append(Item(id: id, publishedAt: item.publishedAt, kind: item.kind, width: item.width, height: item.height))
            }
            metrics.record(.insert, nanoseconds: start.duration(to: clock.now).nanoseconds)
            metrics.inserted += ids.count
            metrics.insertTransactions += 1
            return ids
        } catch {
            metrics.recordError(error)
            return []
        }
    }

    /// Runs `batch` operations of the mix and records them into `metrics` (inserted, updated and
    /// deleted items; each write transaction's latency under `insert`).
    /// - Returns: the ids inserted.
    @discardableResult
    func writeBatch(_ batch: Int, into metrics: inout LoadMetrics) -> [Int64] {
        let waitsBefore = waits?.lockWaits ?? 0
        defer { metrics.busyWaits += (waits?.lockWaits ?? 0) - waitsBefore }
        var counts: [WriteMix.Operation: Int] = [:]
        for _ in 0..<batch { counts[mix.operation(forUnit: operations.nextUnit()), default: 0] += 1 }
        var inserted: [Int64] = []
        if let inserts = counts[.insert] { inserted = insert(inserts, into: &metrics) }
        if let updates = counts[.update] { change(updates, deleting: false, into: &metrics) }
        if let deletes = counts[.delete] { change(deletes, deleting: true, into: &metrics) }
        return inserted
    }

    /// Updates or deletes `count` distinct items picked as the type says, in one backend call.
    private func change(_ count: Int, deleting: Bool, into metrics: inout LoadMetrics) {
        let start = clock.now
        do {
            let targets = try pickTargets(count, deleting: deleting)
            guard !targets.isEmpty else { return }
            try recordOriginals(targets)
            if deleting {
                metrics.deleted += try backend.delete(ids: targets.map(\.id))
                let gone = Set(targets.map(\.id))
                own.removeAll { gone.contains($0.id) }
            } else {
                let rows = targets.map { target in
                    let edit = generator.edit(kind: target.kind, width: target.width, height: target.height)
                    return ItemRow(
                        id: target.id, title: edit.title, author: target.author ?? "", payload: edit.payload)
                }
                metrics.updated += try backend.update(rows)
            }
            metrics.record(.insert, nanoseconds: start.duration(to: clock.now).nanoseconds)
            metrics.insertTransactions += 1
        } catch {
            metrics.recordError(error)
        }
    }

    private struct Target {
        var id: Int64
        var publishedAt: Int64
        var kind: String
        var width: Double
        var height: Double
        /// The row's author when it was read (pre-existing items), kept by an update.
        var author: String?
    }

    /// Up to `count` distinct targets (see the type's discussion).
    private func pickTargets(_ count: Int, deleting: Bool) throws -> [Target] {
        let largest = deleting ? try largestID?() ?? .min : .max
        var candidates = own.filter { !deleting || $0.id < largest }.map {
            Target(id: $0.id, publishedAt: $0.publishedAt, kind: $0.kind, width: $0.width, height: $0.height)
        }
        var headAuthors = false
        if candidates.isEmpty {
            let page = try backend.newest(limit: Self.headCandidates)
            candidates = page.items.filter { $0.id <= baselineMaxID && (!deleting || $0.id < largest) }.map {
                Target(id: $0.id, publishedAt: $0.publishedAt, kind: $0.kind, width: $0.width, height: $0.height)
            }
            headAuthors = true
        }
        var picked: [Target] = []
        for _ in 0..<count where !candidates.isEmpty {
            picked.append(candidates.remove(at: Int(operations.next() % UInt64(candidates.count))))
        }
        if headAuthors, !deleting, !picked.isEmpty {
            // Updates keep the author: read it for items not written by this writer.
            let rows = Dictionary(uniqueKeysWithValues: try backend.rows(ids: picked.map(\.id)).rows.map { ($0.id, $0) })
            picked = picked.compactMap { target in
                guard let row = rows[target.id] else { return nil }
                var target = target
                target.author = row.author
                return target
            }
        }
        return picked
    }

    /// Records the pre-existing items among `targets` in the journal before their first change.
    private func recordOriginals(_ targets: [Target]) throws {
        guard let journal else { return }
        let fresh = Dictionary(
            uniqueKeysWithValues: targets.filter { $0.id <= baselineMaxID && !journal.contains($0.id) }.map { ($0.id, $0) })
        guard !fresh.isEmpty else { return }
        for row in try backend.rows(ids: fresh.keys.sorted()).rows {
            guard let stub = fresh[row.id] else { continue }
            journal.record(
                NewItem(
                    id: row.id, publishedAt: stub.publishedAt, kind: stub.kind, width: stub.width, height: stub.height,
                    title: row.title, author: row.author, payload: row.payload))
        }
    }

    /// Deletes the writer's own items still present, in one transaction (the largest id included:
    /// the run is over).
    /// - Returns: how many were deleted.
    /// - Throws: the backend's error; then nothing was deleted.
    func deleteOwnRows() throws -> Int {
        let deleted = try delete(ids: own.map(\.id))
        own = []
        return deleted
    }

    /// Deletes the items with `ids` through the backend, in one transaction.
    /// - Returns: how many were deleted (ids already gone are skipped).
    /// - Throws: the backend's error; then nothing was deleted.
    func delete(ids: [Int64]) throws -> Int {
        guard !ids.isEmpty else { return 0 }
        return try backend.delete(ids: ids)
    }
}
