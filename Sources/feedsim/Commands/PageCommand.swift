import FeedHTTP
import FeedModel
import FeedPostgres
import FeedStore
import Foundation

let pageCommand = Command(
    name: "page",
    summary: "Print one page of a feed by keyset cursor.",
    usage: "page --db PATH|URI | --source URL [--convention C] [--cacert FILE | --insecure] [--feed NAME] [--after CURSOR | --before CURSOR] [--limit N] "
        + "[--json] [--walk [--max-pages N]]",
    options: [
        OptionSpec("--db", "PATH|URI", accepts: .path, help: "SQLite database file or postgresql:// URI."),
        OptionSpec("--feed", .value, "NAME", help: "Feed (default: home, or the only feed)."),
        OptionSpec("--after", .value, "CURSOR", help: "Older items after this cursor (load more)."),
        OptionSpec("--before", .value, "CURSOR", help: "Newer items before this cursor (refresh)."),
        OptionSpec("--limit", "N", accepts: .integer(1...10_000), default: "20", help: "Items per page."),
        OptionSpec("--json", .flag, help: "Print the page as one JSON object."),
        OptionSpec(
            "--walk", .flag,
            help: "With --source: follow More to the end, checking every page; prints the items' count and the problems."),
        OptionSpec(
            "--max-pages", "N", accepts: .integer(1...10_000_000), default: "100000", help: "With --walk: stop after N pages."),
    ] + SourceOptions.specs,
    run: { arguments in
        if arguments.value("--after") != nil && arguments.value("--before") != nil {
            throw UsageError("give --after or --before, not both")
        }
        try arguments.expectNoPositionals()
        // A page limit of a walk that is not asked for was accepted and did nothing.
        if arguments.value("--max-pages") != nil, !arguments.flag("--walk") {
            throw UsageError("--max-pages bounds a --walk; add --walk or drop --max-pages", showsUsage: false)
        }
        let limit = try arguments.int("--limit") ?? 20
        if let http = try SourceOptions.backend(arguments, feed: arguments.value("--feed") ?? "home") {
            return try sourcePage(http, arguments: arguments, limit: limit)
        }
        if arguments.flag("--walk") { throw UsageError("--walk needs --source") }
        let path = try arguments.required("--db")
        let after = try arguments.value("--after").map(parseCursor)
        let before = try arguments.value("--before").map(parseCursor)
        let pages = try FeedDatabase.open(path, for: .readOnly).backend(feedArgument: arguments.value("--feed"))
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
            // The hint re-runs the command for the next page: the same database (its password
            // masked, never echoed), feed and page size.
            print(describe(
                page, path: PostgresStore.redacted(path), feedArgument: arguments.value("--feed"),
                limit: arguments.value("--limit") == nil ? nil : limit))
        }
        return 0
    }
)

/// `page --source`: one page by the API's own cursors, or a checked walk of every page.
private func sourcePage(_ http: HTTPFeedBackend, arguments: ParsedArguments, limit: Int) throws -> Int32 {
    if arguments.flag("--walk") {
        let maxPages = try arguments.int("--max-pages") ?? 100_000
        let walk = try http.walk(pageSize: limit, maxPages: maxPages, start: arguments.value("--after"))
        let audit = http.audit
        // Not one page: nothing to report on (as without --walk, where the first failure is exit 1).
        if walk.pages == 0, let first = audit.examples.first {
            throw CommandFailure("\(first.url): \(first.problem.rawValue): \(first.detail) (no page was served)")
        }
        if arguments.flag("--json") {
            print(try StoreCommandSupport.json(WalkJSON(walk: walk, audit: audit, source: http.source)))
        } else {
            print("walked \(walk.items.count) items in \(walk.pages) pages (\(walk.ending)), \(walk.failedRequests) failed requests")
            print(SourceOptions.auditText(http))
        }
        return audit.problemCount == 0 ? 0 : 2
    }
    let request: HTTPFeedBackend.PageRequest
    if let token = arguments.value("--after") {
        request = .after(nil, token)
    } else if let token = arguments.value("--before") {
        request = .before(nil, token)
    } else {
        request = .newest
    }
    let fetched: HTTPFeedBackend.FetchedPage
    do {
        fetched = try http.fetch(request, limit: limit)
    } catch let error as HTTPSourceError {
        throw CommandFailure(error.description)
    }
    if arguments.flag("--json") {
        print(try StoreCommandSupport.json(SourcePageJSON(page: PageJSON(fetched.page), next: fetched.nextToken, prev: fetched.prevToken)))
    } else {
        print(describe(fetched.page, path: http.source, feedArgument: nil, commandPrefix: nil))
        // The next command to run, as `page --db` prints it (headers left out: they may hold a secret).
        let command =
            "feedsim page --source \(shellQuoted(arguments.value("--source") ?? http.source))"
            + (arguments.value("--convention").map { " --convention \(shellQuoted($0))" } ?? "") + " --limit \(limit)"
        if let next = fetched.nextToken, fetched.page.hasMoreAfter { print("older: \(command) --after \(shellQuoted(next))") }
        if let prev = fetched.prevToken, fetched.page.hasMoreBefore { print("newer: \(command) --before \(shellQuoted(prev))") }
    }
    if http.audit.problemCount > 0 { printError(SourceOptions.auditText(http)) }
    return http.audit.problemCount == 0 ? 0 : 2
}

/// `text` as one shell word: as it is when it holds only characters no shell treats specially,
/// else in single quotes (a quote inside written `'\''`, POSIX sh).
func shellQuoted(_ text: String) -> String {
    let plain = !text.isEmpty && text.unicodeScalars.allSatisfy {
        CharacterSet.alphanumerics.contains($0) && $0.isASCII || "-_./:=@%+,".unicodeScalars.contains($0)
    }
    return plain ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}

/// A page from an API with the API's cursors (`next_cursor`, `prev_cursor`) beside the keyset ones.
struct SourcePageJSON: Encodable {
    var page: PageJSON
    var next: String?
    var prev: String?

    enum CodingKeys: String, CodingKey { case page, next = "next_cursor", prev = "prev_cursor" }

    func encode(to encoder: any Encoder) throws {
        try page.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(next, forKey: .next)
        try container.encode(prev, forKey: .prev)
    }
}

/// `page --walk --json`: counts, ending, problems, request times.
struct WalkJSON: Encodable {
    var source: String
    var items: Int
    var pages: Int
    var failedRequests: Int
    var ending: String
    var requests: Int
    var requestMsP50: Double
    var requestMsP99: Double
    var problems: [String: Int]
    var examples: [SourceAudit.Example]

    init(walk: SourceWalk, audit: SourceAudit, source: String) {
        self.source = source
        items = walk.items.count
        pages = walk.pages
        failedRequests = walk.failedRequests
        ending = walk.ending
        requests = audit.requestMs.count
        requestMsP50 = audit.percentile(50)
        requestMsP99 = audit.percentile(99)
        problems = Dictionary(uniqueKeysWithValues: audit.counts.map { ($0.key.rawValue, $0.value) })
        examples = audit.examples
    }

    enum CodingKeys: String, CodingKey {
        case source, items, pages, ending, requests, problems, examples
        case failedRequests = "failed_requests"
        case requestMsP50 = "request_ms_p50"
        case requestMsP99 = "request_ms_p99"
    }
}

private func parseCursor(_ text: String) throws -> Cursor {
    do {
        return try Cursor(text: text)
    } catch let error as CursorTextError {
        throw CommandFailure(error.description)
    }
}

/// The page as the issue's JSON shape: `items`, `first_cursor`, `last_cursor` (null when empty),
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
private func describe(
    _ page: Page, path: String, feedArgument: String?, limit: Int? = nil, commandPrefix: String? = "feedsim page --db"
) -> String {
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
    let feed = (feedArgument.map { " --feed \($0)" } ?? "") + (limit.map { " --limit \($0)" } ?? "")
    lines.append("")
    lines.append("has_more_before: \(page.hasMoreBefore)   has_more_after: \(page.hasMoreAfter)")
    guard let commandPrefix else { return lines.joined(separator: "\n") }
    if let first = page.firstCursor, page.hasMoreBefore {
        lines.append("newer: \(commandPrefix) \(path)\(feed) --before \(first.text)")
    }
    if let last = page.lastCursor, page.hasMoreAfter {
        lines.append("older: \(commandPrefix) \(path)\(feed) --after \(last.text)")
    }
    return lines.joined(separator: "\n")
}
