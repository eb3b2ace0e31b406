/// Named presets: each framework's default ranges, with where each number comes from.
///
/// | preset | prefetch (cells) | preload (rows) | reuse pool |
/// |---|---|---|---|
/// | `uikit` | 0.5 / 0 screenfuls | 1 / 0 screenfuls | unbounded |
/// | `texture` | 1.0 / 0.5 screenfuls | 2.5 / 1.5 screenfuls | unbounded |
/// | `paging3` | 1 / 2 items | 20 / 20 items (page size 20) | 5 per view type |
/// | `react-window` | 2 / 1 items | 15 / 15 items | none |
/// | `flashlist` | 250 / 250 pt | 250 / 250 pt | unbounded per type |
///
/// (leading / trailing, see ``RangeExtent``.)
extension RangeConfiguration {
    /// UIKit's `UICollectionView` with cell prefetching (`isPrefetchingEnabled`, on by default since
    /// iOS 10) and a `prefetchDataSource`.
    ///
    /// Apple documents no distances: `collectionView(_:prefetchItemsAt:)` is called "for cells it is
    /// likely to display in the near future", ordered by priority, and cancelled
    /// (`cancelPrefetchingForItemsAt`) when the user reverses. The numbers here are the commonly
    /// observed behaviour, so treat them as an approximation: cells are prepared about half a
    /// screen ahead in the scroll direction (with 8 cells on screen, scrolling down to show 2–10
    /// asks for 11–14) and none behind, because a cell that leaves the bounds goes straight to the
    /// reuse queue; data prefetch runs about one screenful ahead and nothing behind.
    ///
    /// Reuse pool: unbounded. `dequeueReusableCell(withReuseIdentifier:for:)` "creates a new cell
    /// only if no cell is available for reuse" (UICollectionView documentation) and UIKit documents
    /// no cap on its reuse queues: every cell that leaves the visible and prefetched cells is
    /// enqueued and kept, so the cells created are the most ever live at once per identifier.
    public static let uikit = RangeConfiguration(
        name: "uikit",
        prefetch: .screenfuls(leading: 0.5, trailing: 0),
        preload: .screenfuls(leading: 1, trailing: 0),
        reusePoolLimit: nil
    )

    /// Texture (AsyncDisplayKit)'s `ASRangeController` in `ASLayoutRangeModeFull`, the mode of a
    /// scroll view in use.
    ///
    /// Source: `ASAbstractLayoutController.mm`, `defaultTuningParameters`:
    /// `ASLayoutRangeTypeDisplay` = `{ leadingBufferScreenfuls 1.0, trailingBufferScreenfuls 0.5 }`
    /// (nodes rendered ahead: our prefetch) and `ASLayoutRangeTypePreload` = `{ 2.5, 1.5 }` (data
    /// fetched ahead: our preload). Leading and trailing follow the scroll direction, as here.
    ///
    /// Reuse pool: unbounded, UIKit's. `ASCollectionView` is a `UICollectionView` whose cells
    /// (`_ASCollectionViewCell`) host the nodes and go through UIKit's reuse queues.
    public static let texture = RangeConfiguration(
        name: "texture",
        prefetch: .screenfuls(leading: 1.0, trailing: 0.5),
        preload: .screenfuls(leading: 2.5, trailing: 1.5),
        reusePoolLimit: nil
    )

    /// Paging 3 with a `RecyclerView` and `LinearLayoutManager`, page size 20.
    ///
    /// - prefetch, leading 1 item: `GapWorker` prefetches the next adjacent position in the scroll
    ///   direction (`LinearLayoutManager.collectAdjacentPrefetchPositions` adds one position).
    /// - prefetch, trailing 2 items: the item view cache (`mCachedViews`,
    ///   `RecyclerView.Recycler.DEFAULT_CACHE_SIZE = 2`) keeps the last two views that scrolled off
    ///   still bound, so they come back without a rebind; we count them as live cells.
    /// - preload, 20 items each side: `PagingConfig.prefetchDistance` defaults to `pageSize`
    ///   (Paging 3 `PagingConfig`), measured in items from either loaded end. `pageSize` has no
    ///   default; 20 is the value of the Paging 3 codelab and most samples. Use
    ///   ``paging3(pageSize:)`` for another page size.
    /// - reuse pool: 5 per view type, `RecycledViewPool.DEFAULT_MAX_SCRAP` (`putRecycledView` drops a
    ///   view once `mMaxScrap` of its type are held). The 2-view item cache (`mViewCacheMax =
    ///   DEFAULT_CACHE_SIZE = 2`) sits in front of the pool: views in it stay bound and return
    ///   without a rebind; the trailing 2 items of the prefetch range are those views.
    public static let paging3 = paging3(pageSize: 20)

    /// ``paging3`` with `prefetchDistance = pageSize` for another page size (items, ≥ 1).
    public static func paging3(pageSize: Int) -> RangeConfiguration {
        RangeConfiguration(
            name: "paging3",
            prefetch: .items(leading: 1, trailing: 2),
            preload: .items(leading: pageSize, trailing: pageSize),
            reusePoolLimit: 5
        )
    }

    /// react-window (`FixedSizeList` / `VariableSizeList`, v1) with `react-window-infinite-loader`.
    ///
    /// - prefetch: `overscanCount` defaults to 2 (`defaultProps` of `createListComponent`); while
    ///   scrolling, `_getRangeToRender` overscans `max(1, overscanCount)` items ahead and only 1
    ///   behind (2 on both sides at rest; we keep the scrolling shape).
    /// - preload: `InfiniteLoader`'s `threshold` defaults to 15 items, on both sides of the
    ///   rendered range (`isItemLoaded` is checked from `startIndex - threshold` to
    ///   `stopIndex + threshold`).
    /// - reuse pool: none. `createListComponent` renders one element per index in the range, keyed
    ///   by `itemKey(index)` (the index by default); React unmounts an element whose key leaves the
    ///   list and mounts a new one for a key that enters, so no element is ever recycled: every
    ///   entering item is a created cell.
    public static let reactWindow = RangeConfiguration(
        name: "react-window",
        prefetch: .items(leading: 2, trailing: 1),
        preload: .items(leading: 15, trailing: 15),
        reusePoolLimit: 0
    )

    /// Shopify's FlashList on React Native.
    ///
    /// - prefetch: `drawDistance` defaults to 250 (dp, i.e. points), on both sides
    ///   (`PlatformConfig.defaultDrawDistance = 250` on iOS and Android; the web build uses 500).
    /// - preload: FlashList renders items from data already in memory, so a row is needed exactly
    ///   when its item is drawn: the preload range equals the draw distance.
    /// - reuse pool: unbounded per type. FlashList (v1) renders through recyclerlistview, whose
    ///   `RecycleItemPool` keeps every recycled key in a set per `getItemType` type with no cap
    ///   (`putRecycledObject` / `getRecycledObject`).
    public static let flashlist = RangeConfiguration(
        name: "flashlist",
        prefetch: .points(leading: 250, trailing: 250),
        preload: .points(leading: 250, trailing: 250),
        reusePoolLimit: nil
    )

    /// All presets, by name: `uikit`, `texture`, `paging3`, `react-window`, `flashlist`.
    public static let presets: [String: RangeConfiguration] = [
        "uikit": uikit, "texture": texture, "paging3": paging3, "react-window": reactWindow, "flashlist": flashlist,
    ]

    /// The preset names, sorted.
    public static var presetNames: [String] { presets.keys.sorted() }

    /// The preset called `name`, `nil` when there is none.
    public static func preset(named name: String) -> RangeConfiguration? { presets[name] }
}
