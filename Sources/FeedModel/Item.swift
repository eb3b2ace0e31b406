/// An item stub: what a page carries for each item, enough to lay it out and pick a cell.
///
/// The full content (title, author, payload) is an ``ItemRow``, fetched by id only for items
/// the virtualizer needs.
public struct Item: Hashable, Sendable, Codable {
    /// The item's id, unique within the store (SQLite `INTEGER PRIMARY KEY`).
    public var id: Int64
    /// Publication time, Unix milliseconds. The feed order is `publishedAt DESC, id DESC`.
    public var publishedAt: Int64
    /// The reuse identifier: cells are pooled and handed out per kind (e.g. `"photo"`, `"ad"`).
    public var kind: String
    /// Intrinsic width in points.
    public var width: Double
    /// Intrinsic height in points.
    public var height: Double

    public init(id: Int64, publishedAt: Int64, kind: String, width: Double, height: Double) {
        self.id = id
        self.publishedAt = publishedAt
        self.kind = kind
        self.width = width
        self.height = height
    }

    /// The keyset cursor of this item: `(publishedAt, id)`.
    public var cursor: Cursor { Cursor(publishedAt: publishedAt, id: id) }
}

/// A full row: the item's content, fetched by id in batches (``RowSource``).
public struct ItemRow: Hashable, Sendable, Codable {
    public var id: Int64
    public var title: String
    public var author: String
    /// JSON text, opaque to FeedSim.
    public var payload: String

    public init(id: Int64, title: String, author: String, payload: String) {
        self.id = id
        self.title = title
        self.author = author
        self.payload = payload
    }
}
