/// The two ends of a feed: the top (newer items, Refresh / prepend) and the bottom (older items, More).
public enum LoadDirection: String, Hashable, Sendable, Codable, CaseIterable {
    /// Newer items, above the first loaded one: pull to refresh, prepend.
    case top
    /// Older items, below the last loaded one: load more.
    case bottom
}

/// A page of item stubs in feed order (`publishedAt DESC, id DESC`).
public struct Page: Hashable, Sendable, Codable {
    /// Item stubs, newest first.
    public var items: [Item]
    /// Cursor of `items.first`, `nil` when the page is empty.
    public var firstCursor: Cursor?
    /// Cursor of `items.last`, `nil` when the page is empty.
    public var lastCursor: Cursor?
    /// Whether newer items exist above `items.first` (or above the request's cursor when empty).
    public var hasMoreBefore: Bool
    /// Whether older items exist below `items.last` (or below the request's cursor when empty).
    public var hasMoreAfter: Bool

    public init(items: [Item], hasMoreBefore: Bool, hasMoreAfter: Bool) {
        self.items = items
        self.firstCursor = items.first?.cursor
        self.lastCursor = items.last?.cursor
        self.hasMoreBefore = hasMoreBefore
        self.hasMoreAfter = hasMoreAfter
    }

    /// Whether more items exist beyond this page in `direction`.
    public func hasMore(_ direction: LoadDirection) -> Bool {
        direction == .top ? hasMoreBefore : hasMoreAfter
    }
}

/// Rows fetched by id: found rows in the requested order, and the ids that were not found.
public struct RowBatch: Hashable, Sendable {
    public var rows: [ItemRow]
    public var missing: [Int64]

    public init(rows: [ItemRow], missing: [Int64]) {
        self.rows = rows
        self.missing = missing
    }
}
