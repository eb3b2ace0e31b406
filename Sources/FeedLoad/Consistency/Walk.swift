import FeedModel

/// What the consistency check keeps of one walk down the feed: the ids the store returned, in
/// load order, and the walk's span — the newest and the oldest item it loaded, in feed order
/// (``FeedModel/Cursor`` order: `publishedAt DESC, id DESC`). 8 bytes an item instead of a copy
/// of each ``FeedModel/Item``; the bounds are kept as pages arrive, so the check need not scan.
public struct Walk: Hashable, Sendable {
    /// The loaded ids, in load order (a repeated id appears again).
    public private(set) var ids: [Int64] = []
    /// The newest loaded item's cursor (the smallest in feed order); `nil` while empty.
    public private(set) var newest: Cursor?
    /// The oldest loaded item's cursor (the largest in feed order); `nil` while empty.
    public private(set) var oldest: Cursor?
    /// The last loaded item's cursor, in load order (where a More page from it goes on); `nil` while empty.
    public private(set) var last: Cursor?

    public init() {}

    /// A walk that loaded `items`, in that order.
    public init(_ items: [Item]) {
        append(items)
    }

    /// Items loaded.
    public var count: Int { ids.count }

    /// Records a page's items, in load order.
    /// - Complexity: O(items.count) amortized (the ids grow geometrically; no `reserveCapacity` here,
    ///   which would reallocate to the exact size on every page).
    public mutating func append(_ items: [Item]) {
        guard let first = items.first else { return }
        var low = newest ?? first.cursor
        var high = oldest ?? first.cursor
        for index in items.indices {
            let cursor = Cursor(publishedAt: items[index].publishedAt, id: items[index].id)
            ids.append(cursor.id)
            if cursor < low { low = cursor }
            if high < cursor { high = cursor }
        }
        newest = low
        oldest = high
        last = items[items.count - 1].cursor
    }
}
