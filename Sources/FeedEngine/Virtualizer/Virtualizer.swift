import FeedLayout
import FeedModel

/// Creates cells only for what is near the viewport, reuses them by reuse identifier, and asks
/// for full rows only for items near the viewport: the part of `UICollectionView`,
/// `RecyclerView` or react-window that decides which elements exist.
///
/// Each frame, ``update(contentOffset:viewport:items:scrollVelocity:)`` asks the layout for the
/// elements in the prefetch and preload ranges (one `attributesForElements(in:)` query), then:
///
/// 1. cells whose item left the prefetch range go to the reuse pool of their kind;
/// 2. each entering item takes a cell from the pool of its own kind, or a new one;
/// 3. the pool is trimmed to ``reusePoolLimit`` per kind (the excess is discarded);
/// 4. rows are requested, in batches of at most ``rowBatchLimit`` ids, for items entering the
///    preload range whose row is neither cached nor already being fetched; fetches whose items
///    all left the range are cancelled.
///
/// Cells are keyed by item id, not index, so a prepend (which shifts every index) keeps every
/// cell where it is. The reuse identifier is ``FeedModel/Item/kind``: a cell never shows an item
/// of another kind. Rows arrive through ``rowsArrived(fetchID:batch:)`` and are bound only to
/// the live cell showing that item now.
///
/// Pure and deterministic: no clock, no I/O. One instance belongs to one session; the layout it
/// holds must be prepared by the caller and describe the `items` passed to each update (index
/// `i` of the layout is `items[i]`).
///
/// - Complexity: an update costs one layout query, O(log n + k) for a layout that meets
///   DESIGN.md, plus O(k log k) for the k elements in the ranges (sorting what entered and left):
///   never proportional to the number of loaded items.
public final class Virtualizer {
    /// The scroll direction along the axis.
    public enum Direction: String, Hashable, Sendable, Codable {
        /// Toward larger offsets: down, or right.
        case forward
        /// Toward smaller offsets: up, or left.
        case backward
    }

    /// Default reuse pool limit per kind: `RecyclerView.RecycledViewPool.DEFAULT_MAX_SCRAP` = 5.
    public static let defaultReusePoolLimit = 5
    /// Default number of ids per row fetch: one SQL statement with at most 50 bound parameters,
    /// well under SQLite's historical `SQLITE_MAX_VARIABLE_NUMBER` of 999.
    public static let defaultRowBatchLimit = 50
    /// Default number of rows kept for items outside the preload range.
    public static let defaultRowCacheCapacity = 500

    /// The layout asked for elements; prepared and kept current by the caller.
    public let layout: any CollectionLayout
    public let configuration: RangeConfiguration
    public let axis: ScrollAxis
    /// Most cells kept in the reuse pool per kind; `nil`: unbounded.
    public let reusePoolLimit: Int?
    /// Most ids in one ``RowFetch``.
    public let rowBatchLimit: Int
    /// Whether the virtualizer keeps cells and a reuse pool (``update(contentOffset:viewport:items:scrollVelocity:)``);
    /// `false` for ``updateRowsOnly(contentOffset:viewport:items:scrollVelocity:)`` alone, where
    /// ``visibleCellRowBound`` reads the row cache and there are no cells to list.
    public let keepsCells: Bool

    // Stored properties are `@exclusivity(unchecked)`: the virtualizer is used by one thread and never
    // hands out overlapping accesses, and Swift's dynamic exclusivity check on every access to a
    // class's stored `var` (swift_beginAccess, ~160 instructions with its access set) was 10 % of
    // `feedsim load`'s instructions and 8 % of `feedsim replay`'s (callgrind, 2,073M → 1,870M and
    // 731M → 673M on a 16-session grid load and a 120-s flinger replay).
    // Cells.
    /// Cells by id (ids are dense from 0: an array, not a hash map; a discarded cell leaves `nil`,
    /// so memory is O(cells ever created), 48 in `bench replay`'s 10-minute flinger). Hashing was
    /// ~10 % of ``update(contentOffset:viewport:items:scrollVelocity:)``'s time in that benchmark.
    @exclusivity(unchecked) var cells: [VirtualizerCell?] = []
    @exclusivity(unchecked) var cellOfItem = ItemIDTable<Int>()
    @exclusivity(unchecked) var pool = VirtualizerReusePool()
    @exclusivity(unchecked) var nextCellID = 0
    @exclusivity(unchecked) var liveSupplementaryKinds: Set<SupplementaryKind> = []

    // Rows.
    @exclusivity(unchecked) var rowCache: VirtualizerRowCache
    @exclusivity(unchecked) var preloadItemIDs = ItemIDSet()
    @exclusivity(unchecked) var fetches: [Int: PendingRowFetch] = [:]
    @exclusivity(unchecked) var fetchOfItem = ItemIDTable<Int>()
    @exclusivity(unchecked) var nextFetchID = 0

    // Last update.
    /// The items of the last update, or the caller's list as edited since (``editItems(_:)``; copy
    /// on write: holding it costs nothing per frame, and a caller that edits its list in place lets
    /// go of it meanwhile, ``editItems(_:)``).
    @exclusivity(unchecked) var items: [Item] = []
    @exclusivity(unchecked) var lastContentOffset: Point?
    /// Items in the prefetch range and item ids in the preload range at the last update that
    /// changed them, in index order: when a frame finds the same two lists (same ids, same kinds),
    /// no cell enters or leaves and no row is needed, so the set work is skipped.
    @exclusivity(unchecked) var lastPrefetchItems: [Item] = []
    /// When set, the prefetch items are ``items``[run] and ``lastPrefetchItems`` is not filled: a
    /// run diff of the cells (every few frames of a scroll) copied its items out each time; they
    /// are copied only when ``items`` is replaced (once per list edit).
    @exclusivity(unchecked) var lastPrefetchRun: ClosedRange<Int>?
    @exclusivity(unchecked) var lastPreloadIDs: [Int64] = []
    /// The layout indices of the two ranges at the last update, and the storage of that update's
    /// `items`: while the caller passes the same array again (same storage, which the virtualizer
    /// keeps alive in ``items``, so an edited list always comes in new storage), equal index lists
    /// mean equal item lists, compared without reading an item. Comparing the item lists (two
    /// strings per item) was ~1 k instructions of a frame in `bench replay`.
    @exclusivity(unchecked) var lastPrefetchIndices: [Int] = []
    @exclusivity(unchecked) var lastPreloadIndices: [Int] = []
    @exclusivity(unchecked) var lastItemsStorage: UnsafeRawPointer?
    /// Set by a failed fetch (its items' claims were dropped from `preloadItemIDs`), cleared by the
    /// next row update: until then the claims may differ from `lastPreloadIDs` even when an update
    /// finds the same preload list.
    @exclusivity(unchecked) var preloadClaimsStale = false
    /// Spare buffers for the next update (kept to avoid allocations per frame): the index lists,
    /// the layout's answer, and the sets of the second pass.
    @exclusivity(unchecked) var sparePrefetchIndices: [Int] = []
    @exclusivity(unchecked) var sparePreloadIndices: [Int] = []
    @exclusivity(unchecked) var spareElements: [LayoutAttributes] = []
    @exclusivity(unchecked) var scratchPrefetchIDs = ItemIDSet()
    @exclusivity(unchecked) var scratchPreloadIDs = ItemIDSet()
    /// Layout index of the first prefetch cell at the last update: a prepend shifts every index
    /// (live cells' index paths must follow) while the ids stay the same.
    @exclusivity(unchecked) var lastPrefetchFirstIndex: Int?
    @exclusivity(unchecked) public internal(set) var direction: Direction = .forward
    /// Elements intersecting the viewport after the last update, in layout order.
    /// The layout's answer at the last update, and the positions in it of the elements
    /// intersecting the viewport, in layout order.
    @exclusivity(unchecked) var lastElements: [LayoutAttributes] = []
    /// The rect `lastElements` answers and the layout's generation then; `nil` when the layout
    /// has no generation (it is asked every update).
    @exclusivity(unchecked) var elementCache: VirtualizerElementCache?
    /// `lastElements` along the scroll axis, when in axis order (indexed when the layout is asked).
    let axisOrder = ElementAxisOrder()
    /// Where each range may move while the same elements of `lastElements` intersect it.
    @exclusivity(unchecked) var visibleWindow = MembershipWindow()
    @exclusivity(unchecked) var prefetchWindow = MembershipWindow()
    @exclusivity(unchecked) var preloadWindow = MembershipWindow()
    /// Range queries asked of the layout by updates (the element cache's misses), for tests.
    @exclusivity(unchecked) var layoutQueries = 0
    /// Whether range changes may be taken as run diffs (Virtualizer+RunDiff.swift); tests turn it
    /// off for the oracle. Cell and row updates done as run diffs, for tests.
    @exclusivity(unchecked) var usesRunDiffs = true
    @exclusivity(unchecked) var runDiffs = (cells: 0, rows: 0)
    @exclusivity(unchecked) var visibleElementPositionsStorage: [Int] = []
    /// The visible cells alone, as plain values (no enum payload to retain): what per-frame
    /// metrics read without copying ``LayoutAttributes``.
    @exclusivity(unchecked) var visibleCellFramesStorage: [Rect] = []
    @exclusivity(unchecked) var visibleCellItemIDsStorage: [Int64] = []
    /// The previous update's visible cell items (swapped with the current list each update).
    @exclusivity(unchecked) var previousVisibleCellItemIDs: [Int64] = []
    @exclusivity(unchecked) var visibleCellIndexRangeStorage: ClosedRange<Int>?
    /// The lowest and highest index of the cells intersecting the viewport after the last update,
    /// `nil` when none does. A getter of this module: read from another module, the stored
    /// property paid a dynamic exclusivity check every frame.
    public var visibleCellIndexRange: ClosedRange<Int>? { visibleCellIndexRangeStorage }
    /// Bumped whenever the visible cells' items change, a visible item's cell enters or leaves, or
    /// a visible item's row is bound to its cell (without cells: cached): while it stays the same,
    /// ``visibleCellRowBound`` stays the same.
    @exclusivity(unchecked) public internal(set) var visibleGeneration = 0
    /// The prefetch rect of the last ``updateRowsOnly(contentOffset:viewport:items:scrollVelocity:)``.
    @exclusivity(unchecked) var rowsOnlyLastPrefetchRect: Rect?

    /// Cumulative counts.
    @exclusivity(unchecked) public internal(set) var counters = VirtualizerCounters()
    /// The most live cells after any update.
    @exclusivity(unchecked) public internal(set) var maxLiveCells = 0
    /// The last item selected by ``tap(at:)``.
    @exclusivity(unchecked) public internal(set) var selection: VirtualizerHit?

    /// A fetch in flight: the ids asked for, and those still in the preload range.
    struct PendingRowFetch {
        var itemIDs: [Int64]
        /// How many of `itemIDs` are in the preload range now: an id of a fetch in flight is in the
        /// range exactly when it is in ``preloadItemIDs``, so entering and leaving ids only move a
        /// count (a set of them was two allocations and a hash per fetch). At 0 the fetch is cancelled.
        var neededCount: Int
    }

    /// - Parameters:
    ///   - layout: prepared by the caller for the items it will pass to `update`.
    ///   - configuration: the prefetch and preload ranges.
    ///   - axis: the scroll axis the ranges extend along.
    ///   - reusePoolLimit: most pooled cells per kind (≥ 0), overriding the configuration's
    ///     ``RangeConfiguration/reusePoolLimit``; `nil`: the configuration's.
    ///   - rowBatchLimit: most ids per row fetch (≥ 1).
    ///   - rowCacheCapacity: most cached rows of items outside the preload range (≥ 0); rows of
    ///     items inside it are always kept.
    ///   - keepsCells: `false` for a virtualizer updated with
    ///     ``updateRowsOnly(contentOffset:viewport:items:scrollVelocity:)`` alone (no cells).
    /// - Throws: ``VirtualizerConfigurationError`` naming the first invalid parameter.
    public init(
        layout: any CollectionLayout,
        configuration: RangeConfiguration,
        axis: ScrollAxis = .vertical,
        reusePoolLimit: Int? = nil,
        rowBatchLimit: Int = Virtualizer.defaultRowBatchLimit,
        rowCacheCapacity: Int = Virtualizer.defaultRowCacheCapacity,
        keepsCells: Bool = true
    ) throws(VirtualizerConfigurationError) {
        func invalid(_ name: String, _ value: String, _ reason: String) -> VirtualizerConfigurationError {
            .invalidParameter(name: name, value: value, reason: reason)
        }
        guard configuration.prefetch.isValid else {
            throw invalid("prefetch", configuration.prefetch.description, "amounts must be finite and ≥ 0")
        }
        guard configuration.preload.isValid else {
            throw invalid("preload", configuration.preload.description, "amounts must be finite and ≥ 0")
        }
        let poolLimit = reusePoolLimit ?? configuration.reusePoolLimit
        if let poolLimit, poolLimit < 0 { throw invalid("reusePoolLimit", "\(poolLimit)", "must be ≥ 0") }
        guard rowBatchLimit >= 1 else { throw invalid("rowBatchLimit", "\(rowBatchLimit)", "must be ≥ 1") }
        guard rowCacheCapacity >= 0 else {
            throw invalid("rowCacheCapacity", "\(rowCacheCapacity)", "must be ≥ 0")
        }
        self.layout = layout
        self.configuration = configuration
        self.axis = axis
        self.reusePoolLimit = poolLimit
        self.rowBatchLimit = rowBatchLimit
        self.keepsCells = keepsCells
        self.rowCache = VirtualizerRowCache(capacity: rowCacheCapacity)
    }
}

// MARK: - Queries

extension Virtualizer {
    /// Live cells (showing an item), by item id ascending.
    /// - Complexity: O(k log k) for k live cells.
    public var liveCells: [VirtualizerCell] {
        cellOfItem.sortedKeys().compactMap { cells[cellOfItem[$0]!] }
    }

    /// Number of live cells.
    public var liveCellCount: Int { cellOfItem.count }

    /// The live cell showing `itemID`, `nil` when it has none.
    public func cell(forItem itemID: Int64) -> VirtualizerCell? {
        cellOfItem[itemID].flatMap { cells[$0] }
    }

    /// Cells in the reuse pool, all kinds.
    public var pooledCellCount: Int { pool.count }

    /// Cells in the reuse pool per kind.
    public var pooledCellCounts: [String: Int] { pool.countsByKind }

    /// Header and footer views intersecting the prefetch range, sorted.
    public var liveSupplementaryViews: [SupplementaryKind] {
        liveSupplementaryKinds.sorted { $0.rawValue < $1.rawValue }
    }

    /// Whether the full row of `itemID` is cached (a missing id is not loaded).
    public func isRowLoaded(_ itemID: Int64) -> Bool { rowCache.hasRow(for: itemID) }

    /// The cached row of `itemID`, `nil` when not loaded.
    public func row(for itemID: Int64) -> ItemRow? { rowCache.row(for: itemID) }

    /// Rows cached, pinned and unpinned.
    public var cachedRowCount: Int { rowCache.count }

    /// Fetches issued and neither answered nor cancelled, ascending.
    public var pendingFetchIDs: [Int] { fetches.keys.sorted() }

    /// Items whose row is being fetched, ascending.
    public var itemsBeingFetched: [Int64] { fetchOfItem.sortedKeys() }

    /// Items in the preload range after the last update, ascending.
    public var preloadRangeItemIDs: [Int64] { preloadItemIDs.sorted() }

    /// Layout attributes of the elements intersecting the viewport after the last update
    /// (cells, headers, footers), in layout order.
    public var visibleAttributes: [LayoutAttributes] { visibleElementPositionsStorage.map { lastElements[$0] } }

    /// The elements intersecting the viewport after the last update, with their cells and whether
    /// each shows its row, in layout order.
    public var visibleElements: [VisibleElement] {
        // Each cell's item as the last update recorded it (the visible pass lists the cells' ids in
        // the order of their positions), not read from ``items``: the caller may have edited its
        // list since (``editItems(_:)``).
        var cellOrdinal = 0
        return visibleAttributes.map { attributes in
            guard attributes.category == .cell else {
                return VisibleElement(attributes: attributes, itemID: nil, cellID: nil, isRowBound: true)
            }
            let itemID = visibleCellItemIDsStorage[cellOrdinal]
            cellOrdinal += 1
            let cell = cellOfItem[itemID].flatMap { cells[$0] }
            return VisibleElement(
                attributes: attributes, itemID: itemID, cellID: cell?.id, isRowBound: cell?.isRowBound ?? false)
        }
    }

    /// Runs `edit`, which edits the caller's list in place and returns it, while the virtualizer
    /// holds no reference to the list (its reference kept the storage shared, so every edit copied
    /// the whole list), then holds the edited list, which the layout now describes: until the next
    /// update, hit tests (``element(at:)``, ``tap(at:)``) map the layout's indices to it, as
    /// UIKit's `indexPathForItem(at:)` answers from the updated layout and the updated data
    /// source. The next update compares its ranges afresh, as after any edit.
    public func editItems(_ edit: () -> [Item]) {
        materializePrefetchItems()
        items = []
        lastItemsStorage = nil
        items = edit()
    }

    /// Copies the prefetch items out of ``items`` (see ``lastPrefetchRun``) before ``items`` changes.
    func materializePrefetchItems() {
        guard let run = lastPrefetchRun else { return }
        lastPrefetchItems = Array(items[run])
        lastPrefetchRun = nil
    }

    /// Whether the items at `prefetchIndices` of `items` differ from the last prefetch list (its
    /// length, or an item: id, kind or size).
    func prefetchItemsDiffer(_ prefetchIndices: [Int], in items: [Item]) -> Bool {
        if let run = lastPrefetchRun {
            let last = self.items
            return prefetchIndices.count != run.count || zip(prefetchIndices, run).contains { items[$0] != last[$1] }
        }
        return prefetchIndices.count != lastPrefetchItems.count
            || zip(prefetchIndices, lastPrefetchItems).contains { items[$0] != $1 }
    }

    /// ``visibleGeneration`` and `counters.rowsBound` in one call (read from another module, each
    /// stored property paid a dynamic exclusivity check per frame; a getter of this module reads
    /// them without).
    public var visibleRowState: (generation: Int, rowsBound: Int) { (visibleGeneration, counters.rowsBound) }

    /// Items intersecting the viewport after the last update, in layout order.
    public var visibleItemIDs: [Int64] { visibleCellItemIDsStorage }

    /// Frames of the cells intersecting the viewport after the last update, in layout order
    /// (the cells of ``visibleAttributes``), points.
    public var visibleCellFrames: [Rect] { visibleCellFramesStorage }

    /// Items of the cells intersecting the viewport after the last update, in layout order
    /// (same as ``visibleItemIDs``, aligned with ``visibleCellFrames``).
    public var visibleCellItemIDs: [Int64] { visibleCellItemIDsStorage }

    /// Whether each visible cell shows its full row, aligned with ``visibleCellFrames``.
    /// Unchanged while ``visibleGeneration`` is. Without cells
    /// (``keepsCells`` `false`): whether the row cache holds each visible item's row, which is the
    /// same (see ``updateRowsOnly(contentOffset:viewport:items:scrollVelocity:)``); a visible
    /// item's row arriving then bumps ``visibleGeneration`` (a visible row is pinned, so none is
    /// evicted meanwhile).
    /// - Complexity: O(k) hash lookups for k visible cells.
    public var visibleCellRowBound: [Bool] {
        var flags: [Bool] = []
        visibleCellRowBound(into: &flags)
        return flags
    }

    /// ``visibleCellRowBound`` written into `flags`, reusing its storage (the replay refills one
    /// buffer at each change of the visible cells instead of allocating an array).
    public func visibleCellRowBound(into flags: inout [Bool]) {
        let ids = visibleCellItemIDsStorage
        if !keepsCells {
            let rowCache = self.rowCache
            flags.refill(upTo: ids.count, filler: false) { flags in
                for (position, id) in ids.enumerated() { flags[position] = rowCache.hasRow(for: id) }
                return ids.count
            }
            return
        }
        // Read once into locals: each read of a stored property inside the loop paid a dynamic
        // exclusivity check (two per visible cell).
        let cellOfItem = self.cellOfItem
        let cells = self.cells
        // The cells are read in place: `cells[$0]` copied each visible cell out (its kind, a string,
        // retained and released), ~80 instructions a cell.
        cells.withUnsafeBufferPointer { cells in
            flags.refill(upTo: ids.count, filler: false) { flags in
                for (position, itemID) in ids.enumerated() {
                    guard let cellID = cellOfItem[itemID] else {
                        flags[position] = false
                        continue
                    }
                    flags[position] = cells[cellID]?.isRowBound ?? false
                }
                return ids.count
            }
        }
    }
}
