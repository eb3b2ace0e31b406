import Foundation

/// A page of `feedsim serve`'s shape (`{items:[{id, published_at, kind, width, height, title,
/// author, payload, …}], next_cursor, prev_cursor, has_more_after, has_more_before}`, see
/// `docs/http-api.md`) read by ``JSONByteReader`` straight from the body's bytes into typed fields:
/// only the fields the `feedsim` convention's pointers name are read (`image_url` and unknown keys
/// are checked and skipped), and no tree of `NSNumber`s and dictionaries is built and then walked by
/// pointer. With ``scan(_:rowFields:)``'s `rowFields` false (the convention reads rows by id, so a
/// page's title, author and payload are never used) those three are skipped too.
///
/// It is strict on purpose: malformed JSON, a field missing or `null` (but the cursors) or of
/// another JSON type than the one serve sends (a number for a cursor, an object for a payload,
/// `true` for a width, an id as text), an element that is not an object, a known key given twice,
/// make the scan throw, and ``HTTPFeedBackend`` then reads the body the general way (a
/// `JSONSerialization` tree and the convention's JSON Pointers), which accepts or reports those the
/// way it does for every convention. So whenever this scan succeeds, the page it gives is the one
/// the general way gives (checked by `ServePageBodyTests` on random pages).
struct ServePageBody {
    var items: [ServeItemBody]
    var nextCursor: String?
    var prevCursor: String?
    var hasMoreAfter: Bool
    var hasMoreBefore: Bool

    private static let keys: [StaticString] = ["items", "next_cursor", "prev_cursor", "has_more_after", "has_more_before"]

    /// Reads `body` as serve's page.
    /// - Parameter rowFields: whether items need `title`, `author` and `payload` (read as text);
    ///   otherwise those are skipped like unknown keys, present or not.
    /// - Throws: ``JSONScanError`` when the body is not JSON or not of serve's exact shape.
    /// - Complexity: O(bytes), one pass.
    static func scan(_ body: [UInt8], rowFields: Bool) throws -> ServePageBody {
        try body.withUnsafeBufferPointer { buffer in
            var reader = JSONByteReader(buffer)
            var items: [ServeItemBody]?
            var next: String?
            var prev: String?
            var after: Bool?
            var before: Bool?
            var seen = 0
            try reader.expect(UInt8(ascii: "{"))
            if reader.peek() == UInt8(ascii: "}") { throw reader.error("no items") }
            repeat {
                let key = try reader.readKey(matching: keys)
                try reader.expect(UInt8(ascii: ":"))
                guard let key else {
                    try reader.skipValue(depth: 1)
                    continue
                }
                guard seen & (1 << key) == 0 else { throw reader.error("'\(keys[key])' given twice") }
                seen |= 1 << key
                switch key {
                case 0: items = try readItems(&reader, rowFields: rowFields)
                case 1: next = reader.readNull() ? nil : try reader.readString()
                case 2: prev = reader.readNull() ? nil : try reader.readString()
                case 3: after = try reader.readBool()
                default: before = try reader.readBool()
                }
            } while try reader.next(close: UInt8(ascii: "}"))
            try reader.end()
            guard let items, let after, let before else { throw reader.error("a field of serve's page is missing") }
            return ServePageBody(items: items, nextCursor: next, prevCursor: prev, hasMoreAfter: after, hasMoreBefore: before)
        }
    }

    private static let itemKeys: [StaticString] = [
        "id", "published_at", "kind", "width", "height", "title", "author", "payload",
    ]

    /// Serve's members of an item in the order it writes them, with their index in ``itemKeys``
    /// (`nil`: `image_url`, skipped): tried as literals before a key is read the general way.
    private static let itemLayout: [(StaticString, Int?)] = [
        ("\"id\":", 0), ("\"published_at\":", 1), ("\"kind\":", 2), ("\"width\":", 3), ("\"height\":", 4),
        ("\"title\":", 5), ("\"author\":", 6), ("\"image_url\":", nil), ("\"payload\":", 7),
    ]

    private static func readItems(_ reader: inout JSONByteReader, rowFields: Bool) throws -> [ServeItemBody] {
        try reader.expect(UInt8(ascii: "["))
        var items: [ServeItemBody] = []
        if reader.peek() == UInt8(ascii: "]") {
            try reader.expect(UInt8(ascii: "]"))
            return items
        }
        items.reserveCapacity(32)
        let required = rowFields ? 0xFF : 0x1F
        repeat {
            try reader.expect(UInt8(ascii: "{"))
            var item = ServeItemBody(id: 0, publishedAt: 0, kind: "", width: 0, height: 0, title: "", author: "", payload: "")
            var seen = 0
            var member = 0
            if reader.peek() != UInt8(ascii: "}") {
                repeat {
                    // The key serve writes here, compared as bytes; any other key, or the same
                    // written another way (escapes, spaces), is read the general way.
                    let key: Int?
                    if member < itemLayout.count, reader.consume(itemLayout[member].0) {
                        key = itemLayout[member].1
                    } else {
                        key = try reader.readKey(matching: itemKeys)
                        try reader.expect(UInt8(ascii: ":"))
                    }
                    member += 1
                    guard let key, key < 5 || rowFields else {
                        try reader.skipValue(depth: 3)
                        continue
                    }
                    guard seen & (1 << key) == 0 else { throw reader.error("'\(itemKeys[key])' given twice") }
                    seen |= 1 << key
                    switch key {
                    case 0: item.id = try reader.readNumber()
                    case 1: item.publishedAt = try reader.readNumber()
                    case 2: item.kind = try reader.readString()
                    case 3: item.width = try reader.readNumber()
                    case 4: item.height = try reader.readNumber()
                    case 5: item.title = try reader.readString()
                    case 6: item.author = try reader.readString()
                    default: item.payload = try reader.readString()
                    }
                } while try reader.next(close: UInt8(ascii: "}"))
            } else {
                try reader.expect(UInt8(ascii: "}"))
            }
            guard seen & required == required else { throw reader.error("an item lacks a field of serve's shape") }
            items.append(item)
        } while try reader.next(close: UInt8(ascii: "]"))
        return items
    }
}

/// One item of serve's shape, every field present with the JSON type serve writes (serve sends
/// them all; an answer without one is read the general way, which reports it).
struct ServeItemBody {
    /// A JSON number (an id as text is read the general way).
    var id: Double
    /// Unix milliseconds as JSON gives them (a whole number is required later).
    var publishedAt: Double
    var kind: String
    var width: Double
    var height: Double
    /// `""` when the page was read without its row fields.
    var title: String
    var author: String
    var payload: String
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
