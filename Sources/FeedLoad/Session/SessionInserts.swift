import FeedModel
import Synchronization

/// The rows the sessions' traces inserted (their `insert` events), deleted when the run ends
/// unless `--keep-writes`, as the writers delete theirs. Not when each session ends: while the run
/// goes on, deleting the newest rows would let SQLite give their ids again (a new rowid is
/// `max(rowid) + 1`), and the consistency check tells new items from old ones by id.
public final class SessionInserts: Sendable {
    private let ids = Mutex<[Int64]>([])

    public init() {}

    /// Notes a session's inserted ids (at its end).
    func add(_ inserted: [Int64]) {
        guard !inserted.isEmpty else { return }
        ids.withLock { $0.append(contentsOf: inserted) }
    }

    /// Deletes every noted row still there, in one transaction on a new writer connection.
    /// - Returns: how many were deleted.
    /// - Throws: the backend's error opening the connection or deleting; then nothing was deleted.
    func deleteAll(through connector: any FeedBackendConnector) throws -> Int {
        let all = ids.withLock { ids in
            defer { ids = [] }
            return ids
        }
        guard !all.isEmpty else { return 0 }
        return try connector.connectWriter().delete(ids: all)
    }
}
