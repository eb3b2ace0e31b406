import FeedModel

/// The rows a replay's `insert` events wrote, held in memory and merged into every page, row
/// batch and ground-truth listing the replay reads, so the store is never written (nor its write
/// lock held) while the replay runs: a concurrent `feedsim seed` proceeds, a killed replay leaves
/// the file as it was, and `--keep-inserts` commits them all at the end in one transaction.
///
/// Ids continue the store's rowids (largest + 1, + 2, …), which is what SQLite would have
/// assigned, so reports are the same as when the rows were written as they came.
struct PendingInserts {
    /// Stubs in feed order (``Cursor`` order: newest first).
    private(set) var stubs: [Item] = []
    private var rows: [Int64: NewItem] = [:]
    private var nextID: Int64

    /// - Parameter largestID: the store's largest item id at the start (`nil` for an empty store).
    init(largestID: Int64?) {
        nextID = (largestID ?? 0) < Int64.max ? (largestID ?? 0) + 1 : Int64.max
    }

    var isEmpty: Bool { stubs.isEmpty }
    var count: Int { stubs.count }

    /// Adds `items`, giving each the next id.
    /// - Returns: the ids given.
    /// - Throws: ``ReplayError/idsExhausted`` when the id space is exhausted (then nothing is added).
    /// - Complexity: O(m log m + n) for m items added to n pending ones: the new stubs are sorted
    ///   and merged in one pass (cursors are unique, so the order is the one inserting each at its
    ///   place gives). Inserting each at the front, where new items go, was O(m·n): six `insert`
    ///   events of 100,000 items took 253 s.
    @discardableResult
    mutating func add(_ items: [NewItem]) throws -> [Int64] {
        let first = nextID
        guard items.count <= Int64.max - nextID else { throw ReplayError.idsExhausted }
        var added: [Item] = []
        added.reserveCapacity(items.count)
        for var item in items {
            item.id = nextID
            nextID += 1
            rows[nextID - 1] = item
            added.append(
                Item(id: nextID - 1, publishedAt: item.publishedAt, kind: item.kind, width: item.width, height: item.height))
        }
        added.sort { $0.cursor < $1.cursor }
        stubs = Self.mergeSorted(stubs, added)
        return Array(first..<nextID)
    }

    /// The rows to commit, oldest first, with their ids.
    var newItems: [NewItem] { stubs.reversed().compactMap { rows[$0.id] } }

    /// The first index whose cursor is not before `cursor` in feed order.
    private func insertionIndex(_ cursor: Cursor) -> Int {
        var low = 0
        var high = stubs.count
        while low < high {
            let mid = (low + high) / 2
            if stubs[mid].cursor < cursor { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// Merges a store page with the pending stubs on the same side of the request.
    /// - Parameters:
    ///   - newest, after, before: the request (exactly one shape).
    ///   - storePage: the store's answer to the same request.
    ///   - storeProbe: whether the store holds an item strictly on the far side of `anchor`
    ///     (newer for pages read downwards, older for `before` pages), asked only when needed.
    func merge(
        _ request: PageRequest, limit: Int, storePage: Page, storeProbe: (_ anchor: Cursor, _ newer: Bool) throws -> Bool
    ) throws -> Page {
        switch request {
        case .newest, .after:
            var start = 0
            if case .after(let cursor) = request {
                start = insertionIndex(cursor)
                if start < stubs.count, stubs[start].cursor == cursor { start += 1 }
            }
            let candidates = stubs[start...]
            let merged = Self.mergeSorted(storePage.items, Array(candidates.prefix(limit)))
            let items = Array(merged.prefix(limit))
            let more = storePage.hasMoreAfter || storePage.items.count + candidates.count > limit
            let newer: Bool
            if case .after(let cursor) = request {
                let anchor = items.first?.cursor ?? cursor
                let pendingNewer = insertionIndex(anchor) > 0
                let storeNewer =
                    items.first?.cursor == storePage.items.first?.cursor && !storePage.items.isEmpty
                    ? storePage.hasMoreBefore : try storeProbe(anchor, true)
                newer = pendingNewer || storeNewer
            } else {
                newer = false
            }
            return Page(items: items, hasMoreBefore: newer, hasMoreAfter: more)
        case .before(let cursor):
            let end = insertionIndex(cursor)  // stubs[..<end] are newer than cursor
            let candidates = stubs[..<end]
            let merged = Self.mergeSorted(storePage.items, Array(candidates.suffix(limit)))
            let items = Array(merged.suffix(limit))
            let more = storePage.hasMoreBefore || storePage.items.count + candidates.count > limit
            let anchor = items.last?.cursor ?? cursor
            var pendingOlder = insertionIndex(anchor) < stubs.count
            if pendingOlder, stubs[insertionIndex(anchor)].cursor == anchor {
                pendingOlder = insertionIndex(anchor) + 1 < stubs.count
            }
            let storeOlder =
                items.last?.cursor == storePage.items.last?.cursor && !storePage.items.isEmpty
                ? storePage.hasMoreAfter : try storeProbe(anchor, false)
            return Page(items: items, hasMoreBefore: more, hasMoreAfter: pendingOlder || storeOlder)
        }
    }

    /// Rows for `ids`: pending ones from memory, the rest from `store`, in the requested order.
    func rows(ids: [Int64], store: (_ ids: [Int64]) throws -> RowBatch) throws -> RowBatch {
        let fromStore = ids.filter { rows[$0] == nil }
        let batch = fromStore.isEmpty ? RowBatch(rows: [], missing: []) : try store(fromStore)
        var found: [Int64: ItemRow] = [:]
        for row in batch.rows { found[row.id] = row }
        for id in ids { if let item = rows[id] { found[id] = ItemRow(id: id, title: item.title, author: item.author, payload: item.payload) } }
        return RowBatch(rows: ids.compactMap { found[$0] }, missing: ids.filter { found[$0] == nil })
    }

    /// Two runs in feed order merged into one (no id is in both: pending ids are new).
    private static func mergeSorted(_ a: [Item], _ b: [Item]) -> [Item] {
        if b.isEmpty { return a }
        var result: [Item] = []
        result.reserveCapacity(a.count + b.count)
        var i = 0
        var j = 0
        while i < a.count, j < b.count {
            if a[i].cursor < b[j].cursor {
                result.append(a[i])
                i += 1
            } else {
                result.append(b[j])
                j += 1
            }
        }
        result += a[i...]
        result += b[j...]
        return result
    }

    /// The shape of a page request.
    enum PageRequest {
        case newest
        case after(Cursor)
        case before(Cursor)
    }
}
