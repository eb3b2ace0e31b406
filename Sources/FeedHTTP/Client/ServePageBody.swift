import Foundation

/// A page of `feedsim serve`'s shape (`{items:[{id, published_at, kind, width, height, title,
/// author, payload, …}], next_cursor, prev_cursor, has_more_after, has_more_before}`, see
/// `docs/http-api.md`) read with Foundation's `JSONDecoder` into typed fields: only the fields the
/// `feedsim` convention's pointers name are decoded (`image_url` and unknown keys are skipped),
/// and no `JSONSerialization` tree of `NSNumber`s and dictionaries is built and then walked by
/// pointer. About a third less CPU per page than the tree (`feedsim bench http`).
///
/// It is strict on purpose: a field missing or `null` (but the cursors) or of another JSON type
/// than the one serve sends (a number for a cursor, an object for a payload, `true` for a width, an
/// id as text), an element that is not an object, make the decode throw, and ``HTTPFeedBackend`` then reads the body the
/// general way (a `JSONSerialization` tree and the convention's JSON Pointers), which accepts or
/// reports those the way it does for every convention. So whenever this decode succeeds, the page
/// it gives is the one the general way gives (checked by `ServePageBodyTests` on random pages).
struct ServePageBody: Decodable {
    var items: [ServeItemBody]
    var nextCursor: String?
    var prevCursor: String?
    var hasMoreAfter: Bool
    var hasMoreBefore: Bool

    enum CodingKeys: String, CodingKey {
        case items
        case nextCursor = "next_cursor"
        case prevCursor = "prev_cursor"
        case hasMoreAfter = "has_more_after"
        case hasMoreBefore = "has_more_before"
    }
}

/// One item of serve's shape, every field present with the JSON type serve writes (serve sends
/// them all; an answer without one is read the general way, which reports it).
struct ServeItemBody: Decodable {
    /// A JSON number (an id as text is read the general way).
    var id: Double
    /// Unix milliseconds as JSON gives them (a whole number is required later).
    var publishedAt: Double
    var kind: String
    var width: Double
    var height: Double
    var title: String
    var author: String
    var payload: String

    enum CodingKeys: String, CodingKey {
        case id, kind, width, height, title, author, payload
        case publishedAt = "published_at"
    }
}

/// A rows answer of serve's shape (`{items:[{id, title, author, payload}], missing}`).
struct ServeRowsBody: Decodable {
    var items: [ServeRowBody]
}

struct ServeRowBody: Decodable {
    var id: Double
    var title: String
    var author: String
    var payload: String
}

extension Convention {
    /// Whether this convention's page pointers are exactly serve's (the `feedsim` preset's, with or
    /// without its rows request), so ``ServePageBody`` can read its pages.
    var pagesHaveServeShape: Bool {
        items == "/items" && Self.itemFieldNames.allSatisfy { fields[$0] == Self.standardFields[$0] }
            && next == "/next_cursor" && prev == "/prev_cursor" && hasMoreAfter == "/has_more_after"
            && hasMoreBefore == "/has_more_before" && hasMore == nil && (publishedAtUnit ?? "ms") == "ms"
    }

    /// Whether rows answers have serve's shape (``ServeRowsBody``).
    var rowsHaveServeShape: Bool {
        (rowsItems ?? "/items") == "/items" && ["id", "title", "author", "payload"].allSatisfy { fields[$0] == Self.standardFields[$0] }
    }

    /// The item fields a page is read for.
    static let itemFieldNames = ["id", "published_at", "kind", "width", "height", "title", "author", "payload"]
}
