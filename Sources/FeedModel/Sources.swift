/// Where pages of item stubs come from: the SQLite store, or a test double.
///
/// All pages are in feed order (`publishedAt DESC, id DESC`) and served by keyset cursor.
public protocol PageSource {
    /// The newest `limit` items. `limit` ≥ 1.
    func newest(limit: Int) throws -> Page
    /// Up to `limit` items older than `cursor` (the More direction), in feed order.
    func after(_ cursor: Cursor, limit: Int) throws -> Page
    /// Up to `limit` items newer than `cursor` (the Refresh / prepend direction): the ones
    /// nearest the cursor, returned in feed order.
    func before(_ cursor: Cursor, limit: Int) throws -> Page
}

/// Where full rows come from.
public protocol RowSource {
    /// Rows for `ids`, in the requested order, with the ids that do not exist reported in `missing`.
    func rows(ids: [Int64]) throws -> RowBatch
}
