import FeedModel
import FeedStore
import Foundation

let pageCommand = Command(
    name: "page",
    summary: "Print one page of a feed by keyset cursor.",
    usage: "page --db PATH [--feed NAME] [--after CURSOR | --before CURSOR] [--limit N] [--json]",
    options: [
        OptionSpec("--db", "PATH", accepts: .path, help: "SQLite database file."),
        OptionSpec("--feed", .value, "NAME", help: "Feed (default: home, or the only feed)."),
        OptionSpec("--after", .value, "CURSOR", help: "Older items after this cursor (load more)."),
        OptionSpec("--before", .value, "CURSOR", help: "Newer items before this cursor (refresh)."),
        OptionSpec("--limit", "N", accepts: .integer(1...10_000), default: "20", help: "Items per page."),
        OptionSpec("--json", .flag, help: "Print the page as one JSON object."),
    ],
    run: { arguments in
        let path = try arguments.required("--db")
        if arguments.value("--after") != nil && arguments.value("--before") != nil {
            throw UsageError("give --after or --before, not both")
        }
        try arguments.expectNoPositionals()
        let limit = try arguments.int("--limit") ?? 20
        let after = try arguments.value("--after").map(parseCursor)
        let before = try arguments.value("--before").map(parseCursor)
        let store = try StoreCommandSupport.openExisting(path)
        let pages = store.pages(feed: try StoreCommandSupport.feed(arguments, in: store))
        let page: Page
        if let after {
            page = try pages.after(after, limit: limit)
        } else if let before {
            page = try pages.before(before, limit: limit)
        } else {
            page = try pages.newest(limit: limit)
        }
        if arguments.flag("--json") {
            print(try StoreCommandSupport.json(PageJSON(page)))
        } else {
            print(describe(page, path: path, feedArgument: arguments.value("--feed")))
        }
        return 0
    }
)

private func parseCursor(_ text: String) throws -> Cursor {
    do {
        return try Cursor(text: text)
    } catch let error as CursorTextError {
        throw CommandFailure(error.description)
    }
}

/// The page as the JSON shape: `items`, `first_cursor`, `last_cursor` (null when empty),
/// `has_more_before`, `has_more_after`.
struct PageJSON: Encodable {
    struct Stub: Encodable {
        var id: Int64
        var publishedAt: Int64
        var kind: String
        var width: Double
        var height: Double

        enum CodingKeys: String, CodingKey {
            case id, kind, width, height
            case publishedAt = "published_at"
        }
    }

    var items: [Stub]
    var firstCursor: String?
    var lastCursor: String?
    var hasMoreBefore: Bool
    var hasMoreAfter: Bool

    init(_ page: Page) {
        items = page.items.map {
            Stub(id: $0.id, publishedAt: $0.publishedAt, kind: $0.kind, width: $0.width, height: $0.height)
        }
        firstCursor = page.firstCursor?.text
        lastCursor = page.lastCursor?.text
        hasMoreBefore = page.hasMoreBefore
        hasMoreAfter = page.hasMoreAfter
    }

    enum CodingKeys: String, CodingKey {
        case items
        case firstCursor = "first_cursor"
        case lastCursor = "last_cursor"
        case hasMoreBefore = "has_more_before"
        case hasMoreAfter = "has_more_after"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(items, forKey: .items)
        try container.encode(firstCursor, forKey: .firstCursor)  // null, not absent, when the page is empty
        try container.encode(lastCursor, forKey: .lastCursor)
        try container.encode(hasMoreBefore, forKey: .hasMoreBefore)
        try container.encode(hasMoreAfter, forKey: .hasMoreAfter)
    }
}

/// A table of the page, then its cursors and the commands for the next pages.
private func describe(_ page: Page, path: String, feedArgument: String?) -> String {
    func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
    func size(_ value: Double) -> String { value.rounded() == value ? String(Int64(value)) : String(value) }
    let kindWidth = max(4, page.items.map(\.kind.count).max() ?? 0)
    var lines = ["  # " + pad("id", 12) + pad("published_at", 26) + pad("kind", kindWidth + 2) + "size (pt)"]
    for (index, item) in page.items.enumerated() {
        let number = String(index + 1)
        lines.append(
            String(repeating: " ", count: max(0, 3 - number.count)) + number + " " + pad(String(item.id), 12)
                + pad(Timestamp.iso8601(milliseconds: item.publishedAt), 26) + pad(item.kind, kindWidth + 2)
                + size(item.width) + "×" + size(item.height))
    }
    if page.items.isEmpty { lines.append("  (no items)") }
    let feed = feedArgument.map { " --feed \($0)" } ?? ""
    lines.append("")
    lines.append("has_more_before: \(page.hasMoreBefore)   has_more_after: \(page.hasMoreAfter)")
    if let first = page.firstCursor, page.hasMoreBefore {
        lines.append("newer: feedsim page --db \(path)\(feed) --before \(first.text)")
    }
    if let last = page.lastCursor, page.hasMoreAfter {
        lines.append("older: feedsim page --db \(path)\(feed) --after \(last.text)")
    }
    return lines.joined(separator: "\n")
}
