import FeedEngine
import FeedModel

/// An in-memory ``ReplayBackend``: a feed held in a sorted array, answered by brute force.
///
/// The deterministic test double of the store (and the oracle of the store's own tests): pages
/// follow the same keyset rules as the SQLite store, by filtering and sorting the whole array.
///
/// - Complexity: O(n) per call; meant for tests and small demos, not for 1,000,000 items.
public final class MemoryBackend: ReplayBackend {
    /// The feed in feed order (newest first).
    public private(set) var items: [Item]
    /// Calls served, for tests: page queries and row fetches.
    public private(set) var pageCalls = 0
    public private(set) var rowCalls = 0
    /// Kind and size of items written by ``insertAtHead(count:at:)``.
    public var insertedKind = "card"
    public var insertedSize = (width: 100.0, height: 100.0)
    /// Unix ms of virtual time 0, for inserted items' `published_at`.
    public var epoch: Int64

    /// - Parameter items: any order; kept sorted in feed order. Ids must be unique.
    public init(items: [Item], epoch: Int64? = nil) {
        self.items = items.sorted { $0.cursor < $1.cursor }
        self.epoch = epoch ?? saturatingAdd(self.items.first?.publishedAt ?? 0, 1)
    }

    public func page(_ request: FeedController.FetchRequest) throws -> Page {
        pageCalls += 1
        return try request.run(on: self)
    }

    public func rows(ids: [Int64]) throws -> RowBatch {
        rowCalls += 1
        let known = Set(items.map(\.id))
        let rows = ids.filter(known.contains).map { ItemRow(id: $0, title: "item \($0)", author: "a", payload: "{}") }
        return RowBatch(rows: rows, missing: ids.filter { !known.contains($0) })
    }

    public func insertAtHead(count: Int, at t: Double) throws {
        let offset = t.isFinite && t > 0 ? (t < 9.2e18 ? Int64(t) : Int64.max) : 0
        let base = max(
            saturatingAdd(epoch, offset), saturatingAdd(items.first?.publishedAt ?? 0, 1))
        let nextID = saturatingAdd(items.map(\.id).max() ?? 0, 1)
        let new = (0..<Int64(count)).map {
            Item(
                id: saturatingAdd(nextID, $0), publishedAt: saturatingAdd(base, $0),
                kind: insertedKind, width: insertedSize.width, height: insertedSize.height)
        }
        items = (new + items).sorted { $0.cursor < $1.cursor }
    }

    public func groundTruth(after cursor: Cursor, limit: Int) throws -> [Item] {
        Array(items.filter { cursor < $0.cursor }.prefix(limit))
    }
}

extension MemoryBackend: PageSource {
    public func newest(limit: Int) -> Page {
        let slice = Array(items.prefix(limit))
        return Page(items: slice, hasMoreBefore: false, hasMoreAfter: items.count > slice.count)
    }

    public func after(_ cursor: Cursor, limit: Int) -> Page {
        let older = items.filter { cursor < $0.cursor }
        let slice = Array(older.prefix(limit))
        let newerExists = items.contains { $0.cursor < (slice.first?.cursor ?? cursor) }
        return Page(items: slice, hasMoreBefore: newerExists, hasMoreAfter: older.count > slice.count)
    }

    public func before(_ cursor: Cursor, limit: Int) -> Page {
        let newer = items.filter { $0.cursor < cursor }
        let slice = Array(newer.suffix(limit))
        let olderExists = items.contains { (slice.last?.cursor ?? cursor) < $0.cursor }
        return Page(items: slice, hasMoreBefore: newer.count > slice.count, hasMoreAfter: olderExists)
    }
}

/// `a + b`, saturating at the ends of `Int64` (timestamps and ids near `Int64.max` must not trap).
private func saturatingAdd(_ a: Int64, _ b: Int64) -> Int64 {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? (b > 0 ? Int64.max : Int64.min) : sum
}
