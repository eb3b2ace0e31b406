import FeedModel
import FeedResources
import Foundation

/// A writer of the load test: inserts items at the head of one feed through the backend's own
/// insert path (``FeedModel/FeedBackend/insertAtHead(_:)``: on SQLite one `BEGIN IMMEDIATE`
/// transaction per batch that reads the feed's newest `published_at` and writes the batch no
/// earlier than one millisecond after it, so every insert lands at the head), on its own
/// connection, counting lock waits where the backend counts them (``FeedModel/LockWaitCounting``).
/// A batch that fails is rolled back by the backend and counted by its code, and the writer goes on.
final class HeadWriter {
    private let backend: any FeedBackend
    private let waits: (any LockWaitCounting)?
    private var generator: ItemGenerator
    private let clock = ContinuousClock()

    /// - Parameter backend: a writer connection (``FeedModel/FeedBackendConnector/connectWriter()``).
    init(backend: any FeedBackend, preset: Preset, seed: UInt64) {
        self.backend = backend
        self.waits = backend as? any LockWaitCounting
        generator = ItemGenerator(preset: preset, seed: seed)
    }

    /// Inserts `batch` items at the head in one transaction and records it into `metrics`.
    /// - Returns: the new ids, or `[]` when the transaction failed (its error is counted).
    @discardableResult
    func insertBatch(_ batch: Int, into metrics: inout LoadMetrics) -> [Int64] {
        let waitsBefore = waits?.lockWaits ?? 0
        let start = clock.now
        defer { metrics.busyWaits += (waits?.lockWaits ?? 0) - waitsBefore }
        do {
            let ids = try backend.insertAtHead { newest in
                generator.items(count: batch, notBefore: newest.map { $0 < Int64.max ? $0 + 1 : Int64.max } ?? 1)
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

    /// Deletes the items with `ids` through the backend, in one transaction.
    /// - Returns: how many were deleted (ids already gone are skipped).
    /// - Throws: the backend's error; then nothing was deleted.
    func delete(ids: [Int64]) throws -> Int {
        guard !ids.isEmpty else { return 0 }
        return try backend.delete(ids: ids)
    }
}
