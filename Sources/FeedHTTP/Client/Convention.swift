import FeedModel
import Foundation

/// How an HTTP feed API names its pages, cursors and fields: one of the presets (`feedsim`,
/// `stripe`, `relay`, `link`, `jsonapi`) or a JSON file with the same keys (documented in
/// `docs/http-api.md`).
///
/// Request templates are URLs with placeholders: `{url}` the `--source` URL, `{origin}` its scheme,
/// host and port, `{limit}` the page size, `{cursor}` the API's cursor (percent-encoded), `{ids}`
/// comma-separated ids. Where a cursor is a URL (`cursor_is_url`: a Link header, JSON:API's
/// `links.next`), it is requested as given and the `after` / `before` templates are not used.
///
/// A cursor source is a JSON Pointer into the body (`/next_cursor`), `link:next` / `link:prev`
/// (an RFC 8288 `Link` header's relation), `item:POINTER` (that pointer in the page's last item
/// for `next`, first item for `prev`, and recorded for every item: Stripe's ids, Relay's edge
/// cursors).
public struct Convention: Sendable, Codable, Equatable {
    public var name: String
    public var first: String
    public var after: String?
    public var before: String?
    /// Rows by id; `nil`: rows come from the fields of the items the pages returned.
    public var rows: String?
    /// Pointer to the rows array of a rows response (default `/items`).
    public var rowsItems: String?
    /// `POST` target for inserts (body `{"items": [...]}` in FeedSim's shape); `nil`: no writes.
    public var insert: String?
    /// Pointer to the new ids in an insert's response (default `/ids`).
    public var insertIDs: String?
    /// `DELETE` target taking `{ids}`; `nil`: no deletes.
    public var delete: String?
    /// Pointer to the items array of a page.
    public var items: String
    /// Pointers into one item for `id`, `published_at`, `kind`, `width`, `height`, `title`, `author`, `payload`.
    public var fields: [String: String]
    /// Values for fields an API lacks: `kind` (text), `width`, `height` (points).
    public var defaults: Defaults?
    /// `ms` (Unix milliseconds, default), `s` (Unix seconds) or `iso8601`.
    public var publishedAtUnit: String?
    public var next: String?
    public var prev: String?
    public var cursorIsURL: Bool?
    /// The API's cursors are FeedSim's keyset cursor text (``FeedModel/Cursor/text``), so the cursor
    /// after any item can be computed, not only the ones the API handed out.
    public var keysetCursors: Bool?
    /// Pointers to booleans: more items after the page, before it, or in the requested direction.
    public var hasMoreAfter: String?
    public var hasMoreBefore: String?
    public var hasMore: String?

    public struct Defaults: Sendable, Codable, Equatable {
        public var kind: String?
        public var width: Double?
        public var height: Double?
        public init(kind: String? = nil, width: Double? = nil, height: Double? = nil) {
            self.kind = kind
            self.width = width
            self.height = height
        }
    }

    enum CodingKeys: String, CodingKey {
        case name, first, after, before, rows, insert, delete, items, fields, defaults, next, prev
        case rowsItems = "rows_items"
        case insertIDs = "insert_ids"
        case publishedAtUnit = "published_at_unit"
        case cursorIsURL = "cursor_is_url"
        case keysetCursors = "keyset_cursors"
        case hasMoreAfter = "has_more_after"
        case hasMoreBefore = "has_more_before"
        case hasMore = "has_more"
    }

    /// The presets' names, in the order `--help` lists them.
    public static let presetNames = ["feedsim", "stripe", "relay", "link", "jsonapi"]

    /// The preset named `name`, or `nil`.
    public static func preset(named name: String) -> Convention? {
        switch name {
        case "feedsim": return .feedsim
        case "stripe": return .stripe
        case "relay": return .relay
        case "link": return .link
        case "jsonapi": return .jsonapi
        default: return nil
        }
    }

    /// A preset name, or a JSON file of a convention.
    /// - Throws: ``ConventionError`` naming the file and what is wrong.
    public static func load(_ nameOrPath: String) throws -> Convention {
        if let preset = preset(named: nameOrPath) { return preset }
        guard FileManager.default.fileExists(atPath: nameOrPath) else {
            // A path (or a .json name) is a file the user meant; a bare word is a preset they meant.
            if nameOrPath.contains("/") || nameOrPath.hasSuffix(".json") {
                throw ConventionError("--convention \(nameOrPath): no such file")
            }
            throw ConventionError(
                "--convention: '\(nameOrPath)' is neither a preset (\(presetNames.joined(separator: ", "))) nor a file")
        }
        let data: Data
        do {
            data = try InputFile.read(nameOrPath, maximumBytes: 1 << 20)  // a directory, a device, too large: one line
        } catch {
            throw ConventionError("--convention \(error)")
        }
        let convention: Convention
        do {
            convention = try JSONDecoder().decode(Convention.self, from: data)
        } catch let DecodingError.keyNotFound(key, _) {
            throw ConventionError("\(nameOrPath): missing field '\(key.stringValue)'")
        } catch DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty {
            throw ConventionError("\(nameOrPath): not a convention file (expected a JSON object)")
        } catch let DecodingError.typeMismatch(type, context) {
            throw ConventionError(
                "\(nameOrPath): field '\(context.codingPath.map(\.stringValue).joined(separator: "."))' has the wrong type "
                    + "(expected \(type == String.self ? "a string" : type == Bool.self ? "true or false" : "\(type)"))")
        } catch {
            throw conventionFileError(error, data: data, file: nameOrPath)
        }
        do {
            try convention.validate()
        } catch let error as ConventionError {
            throw ConventionError("\(nameOrPath): \(error.message)")
        }
        return convention
    }

    /// A decoding failure as one line: `file:line:column: not JSON: …` for malformed JSON (found by
    /// ``JSONSyntaxCheck``, as the trace readers do), else the field path and what it should hold.
    private static func conventionFileError(_ error: any Error, data: Data, file: String) -> ConventionError {
        let bytes = [UInt8](data)
        if let (position, reason) = JSONSyntaxCheck.firstProblemPosition(in: bytes) {
            return ConventionError("\(file):\(position.line):\(position.column): not JSON: \(reason)")
        }
        func path(_ keys: [any CodingKey]) -> String {
            keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
                .replacingOccurrences(of: ".[", with: "[")
        }
        switch error as? DecodingError {
        case .valueNotFound(let type, let context):
            return ConventionError("\(file): field '\(path(context.codingPath))': expected \(type), found null")
        case .dataCorrupted(let context) where !context.codingPath.isEmpty:
            return ConventionError("\(file): field '\(path(context.codingPath))': \(context.debugDescription)")
        case .dataCorrupted:
            return ConventionError("\(file): not a convention file (expected a JSON object)")
        default:
            return ConventionError("\(file): not a convention file")
        }
    }

    /// Checks pointers, cursor sources and templates.
    /// - Throws: ``ConventionError`` naming the field.
    public func validate() throws {
        for (field, text) in [("items", items), ("rows_items", rowsItems), ("insert_ids", insertIDs),
            ("has_more_after", hasMoreAfter), ("has_more_before", hasMoreBefore), ("has_more", hasMore)]
        {
            if let text { do { _ = try JSONPointer(text) } catch { throw ConventionError("field '\(field)': \(error)") } }
        }
        for (field, text) in fields.sorted(by: { $0.key < $1.key }) {
            do { _ = try JSONPointer(text) } catch { throw ConventionError("field 'fields.\(field)': \(error)") }
        }
        guard fields["id"] != nil else { throw ConventionError("field 'fields.id' is required") }
        for (field, source) in [("next", next), ("prev", prev)] {
            guard let source else { continue }
            if source.hasPrefix("link:") { continue }
            let pointer = source.hasPrefix("item:") ? String(source.dropFirst(5)) : source
            do { _ = try JSONPointer(pointer) } catch { throw ConventionError("field '\(field)': \(error)") }
        }
        if next != nil, cursorIsURL != true, after == nil {
            throw ConventionError("field 'after' is required when cursors are not URLs")
        }
        if !["ms", "s", "iso8601"].contains(publishedAtUnit ?? "ms") {
            throw ConventionError("field 'published_at_unit' must be ms, s or iso8601")
        }
        guard fields["published_at"] != nil else { throw ConventionError("field 'fields.published_at' is required") }
        // Without a pointer and a default every item would lack the field, and be dropped at run time.
        for (field, fallback) in [("kind", defaults?.kind != nil), ("width", defaults?.width != nil), ("height", defaults?.height != nil)]
        where fields[field] == nil && !fallback {
            throw ConventionError("field 'fields.\(field)' is required unless 'defaults.\(field)' gives it")
        }
    }

    static let standardFields = [
        "id": "/id", "published_at": "/published_at", "kind": "/kind", "width": "/width", "height": "/height",
        "title": "/title", "author": "/author", "payload": "/payload",
    ]

    /// `feedsim serve`'s own API: `{url}` is `…/v1/feeds/{feed}/items`.
    public static let feedsim = Convention(
        name: "feedsim", first: "{url}?limit={limit}", after: "{url}?limit={limit}&after={cursor}",
        before: "{url}?limit={limit}&before={cursor}", rows: "{origin}/v1/items?ids={ids}", rowsItems: "/items",
        insert: "{url}", insertIDs: "/ids", delete: "{origin}/v1/items?ids={ids}", items: "/items", fields: standardFields,
        defaults: nil, publishedAtUnit: "ms", next: "/next_cursor", prev: "/prev_cursor", cursorIsURL: false,
        keysetCursors: true,
        hasMoreAfter: "/has_more_after", hasMoreBefore: "/has_more_before", hasMore: nil)

    /// Stripe's list API (<https://docs.stripe.com/api/pagination>): `data`, `has_more` in the
    /// requested direction, `starting_after` / `ending_before` an object id; `created` in Unix seconds.
    public static let stripe = Convention(
        name: "stripe", first: "{url}?limit={limit}", after: "{url}?limit={limit}&starting_after={cursor}",
        before: "{url}?limit={limit}&ending_before={cursor}", rows: nil, rowsItems: nil, insert: nil, insertIDs: nil,
        delete: nil, items: "/data",
        fields: standardFields.merging(["published_at": "/created", "kind": "/object"]) { $1 },
        defaults: Defaults(kind: "item", width: 390, height: 390), publishedAtUnit: "s", next: "item:/id",
        prev: "item:/id", cursorIsURL: false, keysetCursors: nil, hasMoreAfter: nil, hasMoreBefore: nil, hasMore: "/has_more")

    /// Relay's cursor connections (<https://relay.dev/graphql/connections.htm>) served over GET:
    /// `edges[].node`, `edges[].cursor`, `pageInfo`; `first`/`after` forward, `last`/`before` backward.
    public static let relay = Convention(
        name: "relay", first: "{url}?first={limit}", after: "{url}?first={limit}&after={cursor}",
        before: "{url}?last={limit}&before={cursor}", rows: nil, rowsItems: nil, insert: nil, insertIDs: nil, delete: nil,
        items: "/edges", fields: standardFields.mapValues { "/node" + $0 },
        defaults: Defaults(kind: "item", width: 390, height: 390), publishedAtUnit: "ms", next: "item:/cursor",
        prev: "item:/cursor", cursorIsURL: false, keysetCursors: nil, hasMoreAfter: "/pageInfo/hasNextPage",
        hasMoreBefore: "/pageInfo/hasPreviousPage", hasMore: nil)

    /// RFC 8288 `Link` headers (`rel="next"`, `rel="prev"`, as GitHub's REST API): the body is the items array.
    public static let link = Convention(
        name: "link", first: "{url}?per_page={limit}", after: nil, before: nil, rows: nil, rowsItems: nil, insert: nil,
        insertIDs: nil, delete: nil, items: "", fields: standardFields,
        defaults: Defaults(kind: "item", width: 390, height: 390), publishedAtUnit: "ms", next: "link:next",
        prev: "link:prev", cursorIsURL: true, keysetCursors: nil, hasMoreAfter: nil, hasMoreBefore: nil, hasMore: nil)

    /// JSON:API (<https://jsonapi.org/format/#fetching-pagination>): `data[]` of resource objects
    /// (`id`, `attributes`), `links.next` / `links.prev` URLs.
    public static let jsonapi = Convention(
        name: "jsonapi", first: "{url}?page%5Bsize%5D={limit}", after: nil, before: nil, rows: nil, rowsItems: nil,
        insert: nil, insertIDs: nil, delete: nil, items: "/data",
        fields: standardFields.mapValues { "/attributes" + $0 }.merging(["id": "/id", "kind": "/type"]) { $1 },
        defaults: Defaults(kind: "item", width: 390, height: 390), publishedAtUnit: "ms", next: "/links/next",
        prev: "/links/prev", cursorIsURL: true, keysetCursors: nil, hasMoreAfter: nil, hasMoreBefore: nil, hasMore: nil)
}

/// A convention that cannot be used.
public struct ConventionError: Error, CustomStringConvertible, Sendable {
    public var message: String
    init(_ message: String) { self.message = message }
    public var description: String { message }
}
