import FeedModel
import Synchronization

/// The pre-existing rows the writers updated or deleted, each as it was before its first change,
/// shared by the writers of one pool: so the pool can put the feed back as it was when the run
/// ends (unless `--keep-writes`). The first writer to change a row records it before changing it;
/// a later reader of the row (after that change) finds it recorded, so the first record stays.
final class RestoreJournal: Sendable {
    private let rows = Mutex<[Int64: NewItem]>([:])

    func contains(_ id: Int64) -> Bool { rows.withLock { $0[id] != nil } }

    /// Records `row` unless its id is recorded already.
    func record(_ row: NewItem) {
        guard let id = row.id else { return }
        rows.withLock { if $0[id] == nil { $0[id] = row } }
    }

    /// The recorded rows by id.
    var originals: [NewItem] { rows.withLock { $0.sorted { $0.key < $1.key }.map(\.value) } }
}
