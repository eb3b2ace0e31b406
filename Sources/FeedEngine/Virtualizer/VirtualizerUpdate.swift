import FeedLayout
import FeedModel

/// A batch of rows to fetch by id (one `RowSource.rows(ids:)` call, one SQL statement).
public struct RowFetch: Hashable, Sendable {
    /// Identifies the fetch in ``Virtualizer/rowsArrived(fetchID:batch:)`` and in cancellations.
    /// Increasing from 0 in issue order.
    public var id: Int
    /// Item ids, most urgent first: visible items, then by distance from the viewport.
    public var itemIDs: [Int64]

    public init(id: Int, itemIDs: [Int64]) {
        self.id = id
        self.itemIDs = itemIDs
    }
}

/// What one ``Virtualizer/update(contentOffset:viewport:items:scrollVelocity:)`` did.
///
/// Cell identities: `liveBefore − cellsRecycled + cellsReused + cellsCreated = liveAfter`, and
/// `pooledBefore + cellsRecycled − cellsReused − cellsDiscarded = pooledAfter`.
public struct VirtualizerUpdate: Hashable, Sendable {
    /// New cells made because the pool of the item's kind was empty.
    public var cellsCreated: Int
    /// Cells taken from the reuse pool for entering items.
    public var cellsReused: Int
    /// Cells whose item left the prefetch range (they went to the pool).
    public var cellsRecycled: Int
    /// Cells thrown away because their kind's pool was over its limit after the update.
    public var cellsDiscarded: Int
    /// Items that got a cell in this update, in layout (index) order.
    public var enteredItemIDs: [Int64]
    /// Items whose cell was recycled in this update, in cell id order.
    public var leftItemIDs: [Int64]
    /// Row fetches to issue now.
    public var rowFetches: [RowFetch]
    /// Fetches issued earlier whose items have all left the preload range: cancel or drop them.
    /// Ascending.
    public var cancelledFetchIDs: [Int]
    /// The scroll direction the ranges were resolved with.
    public var direction: Virtualizer.Direction
    /// The viewport in content coordinates, points.
    public var visibleRect: Rect
    /// The prefetch range, points.
    public var prefetchRect: Rect
    /// The preload range, points.
    public var preloadRect: Rect
    /// Live cells after the update.
    public var liveCellCount: Int
}

/// A cell: a reusable view with a reuse identifier, showing at most one item.
public struct VirtualizerCell: Hashable, Sendable {
    /// Increasing from 0 in creation order.
    public var id: Int
    /// The reuse identifier: the kind of every item this cell may show.
    public var kind: String
    /// The item shown, `nil` while in the reuse pool.
    public var itemID: Int64?
    /// Where the item is, as of the last update.
    public var indexPath: IndexPath?
    /// The item whose row is bound to this cell, `nil` when none. Cleared on reuse.
    public var boundRowItemID: Int64?

    /// Whether the cell shows its item's full row (not a placeholder).
    public var isRowBound: Bool { itemID != nil && boundRowItemID == itemID }
}

/// An element in the viewport after the last update, for blank-area and frame metrics.
public struct VisibleElement: Hashable, Sendable {
    public var attributes: LayoutAttributes
    /// The item, `nil` for supplementary and decoration views.
    public var itemID: Int64?
    /// The cell showing it, `nil` for supplementary and decoration views.
    public var cellID: Int?
    /// Whether the cell shows its full row. Always `true` for non-cell elements.
    public var isRowBound: Bool
}

/// What a hit test or tap found.
public struct VirtualizerHit: Hashable, Sendable {
    public var indexPath: IndexPath
    public var category: ElementCategory
    /// The item, `nil` when the topmost element is a supplementary or decoration view.
    public var itemID: Int64?
    /// The element's frame with its transform applied, points.
    public var frame: Rect
}

/// What ``Virtualizer/rowsArrived(fetchID:batch:)`` did with a batch.
public struct RowArrival: Hashable, Sendable {
    /// `false` when the fetch was unknown or already cancelled: nothing was cached or bound.
    public var accepted: Bool
    /// Rows stored in the cache.
    public var rowsCached: Int
    /// Items whose live cell now shows its row, in batch order.
    public var boundItemIDs: [Int64]
    /// Ids the source reported as missing.
    public var missingItemIDs: [Int64]
}

/// Cumulative counts since the virtualizer was made.
public struct VirtualizerCounters: Hashable, Sendable, Codable {
    public var updates = 0
    public var cellsCreated = 0
    public var cellsReused = 0
    public var cellsRecycled = 0
    public var cellsDiscarded = 0
    /// Fetches issued.
    public var rowFetchesIssued = 0
    /// Ids requested over all fetches.
    public var rowsRequested = 0
    /// Fetches cancelled because all their items left the preload range.
    public var rowFetchesCancelled = 0
    /// Fetches that failed (``Virtualizer/rowsFailed(fetchID:)``).
    public var rowFetchesFailed = 0
    /// Batches for unknown or cancelled fetches, ignored.
    public var rowBatchesDropped = 0
    /// Rows received in accepted batches.
    public var rowsReceived = 0
    /// Rows bound to a live cell, on arrival or when a cell was dequeued for a cached row.
    public var rowsBound = 0
    /// Ids the row source reported missing.
    public var rowsMissing = 0
    /// Rows evicted from the LRU cache.
    public var rowsEvicted = 0
    /// Taps that selected an item.
    public var taps = 0
    /// Cells created and reused per reuse identifier (the item's kind).
    public var cellsByKind: [String: KindCounts] = [:]

    /// Cells created and reused for one reuse identifier.
    public struct KindCounts: Hashable, Sendable, Codable {
        public var created = 0
        public var reused = 0
        public init(created: Int = 0, reused: Int = 0) {
            self.created = created
            self.reused = reused
        }
    }

    public init() {}
}

/// A cell entering the prefetch range: its index path and item. A struct, not a tuple: an array
/// of tuples holding a string (the item's kind) is destroyed by the runtime's generic tuple code,
/// element by element through the type's metadata (with ``PreloadEntry``, 11M instructions of
/// `bench replay`'s workload in `tuple_destroy`, callgrind), a struct's array by its own code.
struct EnteringCell {
    var indexPath: IndexPath
    var item: Item
}

/// An item of the preload range: the item, its distance from the viewport (points, 0 when
/// visible) and its layout index. A struct for the reason given at ``EnteringCell``.
struct PreloadEntry {
    var item: Item
    var distance: Double
    var index: Int
}
