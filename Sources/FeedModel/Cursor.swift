/// A keyset cursor: the `(publishedAt, id)` of a boundary item.
///
/// The feed order is `publishedAt DESC, id DESC`, so a cursor splits the feed into the items
/// *before* it (newer: larger `publishedAt`, or equal `publishedAt` and larger `id`) and the
/// items *after* it (older). `Comparable` follows the feed order: `a < b` means `a` comes
/// first in the feed, i.e. `a` is newer.
public struct Cursor: Hashable, Sendable, Codable, Comparable {
    /// Unix milliseconds.
    public var publishedAt: Int64
    public var id: Int64

    public init(publishedAt: Int64, id: Int64) {
        self.publishedAt = publishedAt
        self.id = id
    }

    /// Feed order: newer first; ties in `publishedAt` broken by the larger id first.
    public static func < (lhs: Cursor, rhs: Cursor) -> Bool {
        if lhs.publishedAt != rhs.publishedAt { return lhs.publishedAt > rhs.publishedAt }
        return lhs.id > rhs.id
    }
}
