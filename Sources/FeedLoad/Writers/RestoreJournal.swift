import Synchronization

/// A row as it was before a load writer first changed it.
struct OriginalRow: Hashable, Sendable {
    var id: Int64
    var feed: Int64
    var publishedAt: Int64
    var kind: String
    var width: Double
    var height: Double
    var title: String
    var author: String
    var payload: String
}

/// The pre-existing rows the writers updated or deleted, each as it was before its first change,
/// shared by the writers of one pool: so the pool can put the feed back as it was when the run
/// ends (unless `--keep-writes`). The first writer to change a row records it (writers change rows
/// inside `BEGIN IMMEDIATE` transactions, one at a time), later changes keep that first record.
final class RestoreJournal: Sendable {
    private let rows = Mutex<[Int64: OriginalRow]>([:])

    func contains(_ id: Int64) -> Bool { rows.withLock { $0[id] != nil } }

    /// Records `row` unless its id is recorded already.
    func record(_ row: OriginalRow) {
        rows.withLock { if $0[row.id] == nil { $0[row.id] = row } }
    }

    /// The recorded rows by id.
    var originals: [OriginalRow] { rows.withLock { $0.values.sorted { $0.id < $1.id } } }
}
