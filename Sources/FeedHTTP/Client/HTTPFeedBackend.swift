import FeedModel
import Foundation

/// A request to an HTTP feed API that failed; the problem is recorded in the backend's audit too.
public struct HTTPSourceError: Error, CustomStringConvertible, Sendable {
    public var problem: SourceAudit.Problem
    public var url: String
    public var detail: String
    public var description: String { "\(url): \(problem.rawValue): \(detail)" }
}

extension HTTPSourceError: NamedErrorCode {
    /// `http_status`, `timeout`, `malformed_json`, … (the audit's problem names).
    public var codeName: String { "http_" + problem.rawValue.replacingOccurrences(of: "http_", with: "") }
}

/// A write the convention has no request for.
public struct HTTPUnsupportedError: Error, CustomStringConvertible, Sendable {
    public var operation: String
    public var convention: String
    public var description: String {
        "the '\(convention)' convention has no \(operation) request; give a convention file with '\(operation)'"
    }
}

/// An HTTP feed API as a ``FeedModel/FeedBackend`` (`--source URL --convention NAME|FILE`): pages
/// by the API's cursors, rows by id, inserts by POST, over one ``HTTPClient`` (one thread at a time).
///
/// The controller speaks keyset cursors (`(published_at, id)` of a boundary item); the API speaks
/// its own. The backend keeps, for each item a page ended (or began) with, the API's cursor for
/// the next (previous) page, and for every item where the API gives per-item cursors (Stripe's
/// ids, Relay's edges). FeedSim's own API needs no table: its cursors are keyset text.
///
/// Every answer is checked, and what is wrong is counted in ``audit`` with the URL: a status
/// outside 2xx, a timeout, a body that is not JSON and a missing items array fail the request
/// (the controller retries with backoff); an item without its fields, out of feed order, on the
/// wrong side of the cursor or seen already is dropped; a next cursor equal to the one just sent
/// ends that direction (has-more false), so no client asks for the same page forever.
public final class HTTPFeedBackend: FeedBackend {
    public let source: String
    public let convention: Convention
    public let client: HTTPClient
    /// Problems found and request times, so far.
    public internal(set) var audit = SourceAudit()
    /// The independent listing of the data behind the API (`--truth-db`), or `nil`: the ground
    /// truth is then read through the API's own More pages.
    public let truth: (any FeedBackend)?

    private let origin: String
    private let itemsPointer: JSONPointer
    private let fieldPointers: [String: JSONPointer]
    private let iso8601 = ISO8601DateFormatter()
    /// Pages (rows answers) are tried as serve's shape first (``ServePageBody``); internal and
    /// settable so tests can compare that way with the general one on the same bodies.
    var servePages: Bool
    var serveRows: Bool
    /// Bodies read as serve's shape so far (the rest were read as a tree).
    private(set) var serveShapeReads = 0
    private let decoder = JSONDecoder()
    private var afterTokens: [Cursor: String] = [:]
    private var beforeTokens: [Cursor: String] = [:]
    /// Rows of the items the pages brought, when the convention has no rows request; kept for the
    /// session (``sessionEnded()`` empties it, with the cursor tokens and the recent ids).
    private var rowCache: [Int64: ItemRow] = [:]
    /// Ids received recently (the last ``recentLimit``), to tell an item seen twice from one out of order.
    private var recent: Set<Int64> = []
    private var recentOrder: [Int64] = []
    private static let recentLimit = 4096

    /// - Parameters:
    ///   - source: the page URL (`{url}` in templates); for the `feedsim` convention a bare origin
    ///     (`http://127.0.0.1:8080`) means `…/v1/feeds/{feed}/items`.
    ///   - feed: the feed name, for a bare `feedsim` origin.
    /// - Throws: ``ConventionError`` for a malformed URL or convention.
    public init(
        source: String, convention: Convention, client: HTTPClient, feed: String = "home", truth: (any FeedBackend)? = nil
    ) throws {
        try convention.validate()
        guard let url = URLComponents(string: source), let scheme = url.scheme, ["http", "https"].contains(scheme),
            let host = url.host, !host.isEmpty
        else {
            throw ConventionError("--source: expected an http:// or https:// URL, got '\(source)'")
        }
        var resolved = source
        if convention.name == "feedsim", url.path.isEmpty || url.path == "/" {
            // The path goes before a query the origin carries (`http://h:p/?x=1`), not after it.
            var components = url
            components.percentEncodedPath = "/v1/feeds/\(FeedPath.segment(feed))/items"
            resolved = components.string ?? source.trimmingSuffix("/") + "/v1/feeds/\(FeedPath.segment(feed))/items"
        }
        self.source = resolved
        self.convention = convention
        self.client = client
        self.truth = truth
        let hostText = host.contains(":") ? "[\(host)]" : host
        origin = "\(scheme)://\(hostText)" + (url.port.map { ":\($0)" } ?? "")
        itemsPointer = try JSONPointer(convention.items)
        fieldPointers = try convention.fields.mapValues { try JSONPointer($0) }
        servePages = convention.pagesHaveServeShape
        serveRows = convention.rowsHaveServeShape
    }

    public var backendName: String { "http" }

    // MARK: - Pages

    public func newest(limit: Int) throws -> Page {
        try fetch(.newest, limit: limit).page
    }

    public func after(_ cursor: Cursor, limit: Int) throws -> Page {
        try fetch(.after(cursor, try token(after: cursor)), limit: limit).page
    }

    public func before(_ cursor: Cursor, limit: Int) throws -> Page {
        try fetch(.before(cursor, try token(before: cursor)), limit: limit).page
    }

    /// What a page request asks for: the newest items, or those after / before a keyset cursor
    /// with the API's cursor for it (`nil` cursor: a token given by hand, `feedsim page --after`).
    public enum PageRequest {
        case newest
        case after(Cursor?, String)
        case before(Cursor?, String)
    }

    /// A page with the API's own cursors for the pages beyond it.
    public struct FetchedPage {
        public var page: Page
        public var url: String
        public var nextToken: String?
        public var prevToken: String?
        /// The API handed back the cursor it was sent (recorded; that direction ends here).
        public var unchangedCursor = false
    }

    func token(after cursor: Cursor) throws -> String {
        if let token = afterTokens[cursor] { return token }
        if convention.keysetCursors == true { return cursor.text }
        audit.record(.noCursor, url: source, "no cursor known for the items after \(cursor.id)")
        throw HTTPSourceError(problem: .noCursor, url: source, detail: "no cursor known for the items after \(cursor.id)")
    }

    func token(before cursor: Cursor) throws -> String {
        if let token = beforeTokens[cursor] { return token }
        if convention.keysetCursors == true { return cursor.text }
        audit.record(.noCursor, url: source, "no cursor known for the items before \(cursor.id)")
        throw HTTPSourceError(problem: .noCursor, url: source, detail: "no cursor known for the items before \(cursor.id)")
    }

    /// Requests one page, checks it and records its cursors.
    /// - Throws: ``HTTPSourceError`` when the request fails or its body cannot be read.
    public func fetch(_ request: PageRequest, limit: Int) throws -> FetchedPage {
        let (url, sent, bound) = try pageURL(request, limit: limit)
        let exchange = try send { try client.get(url) }
        return try readPage(exchange, request: request, sent: sent, bound: bound)
    }

    /// Starts one page request on the calling thread's ``HTTPMultiDriver`` (at once without one);
    /// the answer is read and checked, as ``fetch(_:limit:)`` does, when its owner polls it.
    public func startFetch(_ request: PageRequest, limit: Int) -> DeferredAnswer<FetchedPage> {
        let url: String
        let sent: String?
        let bound: Cursor?
        do { (url, sent, bound) = try pageURL(request, limit: limit) } catch { return DeferredAnswer(.failure(error)) }
        let transfer = client.startGet(url)
        return DeferredAnswer(isDone: { transfer.isDone }, elapsed: { transfer.elapsedMs }) { [self] in
            let exchange = try send { try transfer.exchange() }
            return try readPage(exchange, request: request, sent: sent, bound: bound)
        }
    }

    /// The URL of a page request, the API cursor it sends and the keyset cursor it is bounded by.
    private func pageURL(_ request: PageRequest, limit: Int) throws -> (String, String?, Cursor?) {
        let url: String
        var sent: String?
        var bound: Cursor?
        switch request {
        case .newest:
            url = expand(convention.first, limit: limit)
        case .after(let cursor, let token), .before(let cursor, let token):
            sent = token
            bound = cursor
            let isAfter: Bool
            if case .after = request { isAfter = true } else { isAfter = false }
            if convention.cursorIsURL == true {
                url = URL(string: token, relativeTo: URL(string: source))?.absoluteString ?? token
            } else {
                url = expand((isAfter ? convention.after : convention.before) ?? convention.first, limit: limit, cursor: token)
            }
        }
        return (url, sent, bound)
    }

    /// Checks a page's answer and records its cursors.
    func readPage(_ exchange: HTTPExchange, request: PageRequest, sent: String?, bound: Cursor?) throws -> FetchedPage {
        let url = exchange.url
        let body = try pageBody(exchange)
        // Each element's fields as the loop reaches it (no array of them in between).
        let count: Int
        let fieldsAt: (Int) -> ItemFields
        var isTree = false
        switch body {
        case .tree(_, let rawItems):
            (count, fieldsAt, isTree) = (rawItems.count, { [unowned self] in treeFields(rawItems[$0]) }, true)
        case .serve(let page):
            (count, fieldsAt) = (page.items.count, { [unowned self] in serveFields(page.items[$0]) })
        }
        var items: [Item] = []
        items.reserveCapacity(count)
        var kept: [Int] = []
        // An id seen twice on the page: the kept items looked through for a page of up to 64 (the
        // usual), a set beyond. And one seen on an earlier page only matters on the wrong side of
        // the cursor, so that (a comparison) is asked before the set of recent ids (a hash). A load
        // worker's instructions per page request went from 412.7k to 397.4k (callgrind, `load
        // --source` pagination sessions against serve, 8 s and 16 s runs differenced, 2026-12-02).
        var pageIDs = Set<Int64>()
        let smallPage = count <= 64
        let keepsRows = convention.rows == nil
        var cache = rowCache  // moved out while the loop adds to it (see remember(_:))
        rowCache = [:]
        defer { rowCache = cache }
        for index in 0..<count {
            guard let (item, row) = makeItem(fieldsAt(index), index: index, url: url) else { continue }
            let onPage = smallPage ? items.contains { $0.id == item.id } : pageIDs.contains(item.id)
            if onPage || (bound != nil && !onCorrectSide(item, of: request) && recent.contains(item.id)) {
                audit.record(.duplicateItem, url: url, "item \(item.id) (items[\(index)]) was received already")
                continue
            }
            if let previous = items.last, !(previous.cursor < item.cursor) {
                audit.record(.outOfOrder, url: url, "item \(item.id) (items[\(index)]) is not older than item \(previous.id)")
                continue
            }
            if !onCorrectSide(item, of: request) {
                audit.record(
                    .outOfOrder, url: url, "item \(item.id) (items[\(index)]) is on the wrong side of the request's cursor")
                continue
            }
            if !smallPage { pageIDs.insert(item.id) }
            items.append(item)
            if isTree { kept.append(index) }
            if keepsRows { cache[item.id] = row }
        }
        remember(items)
        // Item cursors come from the page's own first and last elements, as a client reading the
        // API naively would take them (so a page ending with the item just sent is a cursor
        // handed back unchanged).
        var next = cursorToken(convention.next, body: body, exchange: exchange, last: true)
        var prev = cursorToken(convention.prev, body: body, exchange: exchange, last: false)
        if case .tree(_, let rawItems) = body { recordItemTokens(items: items, raw: kept.map { rawItems[$0] }) }
        let directionHasMore = flag(convention.hasMore, body, url)
        var hasMoreAfter: Bool
        var hasMoreBefore: Bool
        switch request {
        case .newest:
            hasMoreAfter = flag(convention.hasMoreAfter, body, url) ?? directionHasMore ?? (next != nil && !items.isEmpty)
            hasMoreBefore = flag(convention.hasMoreBefore, body, url) ?? false
        case .after:
            hasMoreAfter = flag(convention.hasMoreAfter, body, url) ?? directionHasMore ?? (next != nil && !items.isEmpty)
            hasMoreBefore = flag(convention.hasMoreBefore, body, url) ?? true
        case .before:
            hasMoreBefore = flag(convention.hasMoreBefore, body, url) ?? directionHasMore ?? (prev != nil && !items.isEmpty)
            hasMoreAfter = flag(convention.hasMoreAfter, body, url) ?? true
        }
        // A cursor handed back unchanged would fetch the same page again, forever.
        var unchanged = false
        if let sent {
            if case .after = request, next == sent, hasMoreAfter {
                audit.record(.cursorUnchanged, url: url, "the next cursor is the one just sent ('\(sent)')")
                hasMoreAfter = false
                next = nil
                unchanged = true
            }
            if case .before = request, prev == sent, hasMoreBefore {
                audit.record(.cursorUnchanged, url: url, "the previous cursor is the one just sent ('\(sent)')")
                hasMoreBefore = false
                prev = nil
                unchanged = true
            }
        }
        let page = Page(items: items, hasMoreBefore: hasMoreBefore, hasMoreAfter: hasMoreAfter)
        if let last = page.lastCursor, let next { afterTokens[last] = next }
        if let first = page.firstCursor, let prev { beforeTokens[first] = prev }
        return FetchedPage(page: page, url: url, nextToken: next, prevToken: prev, unchangedCursor: unchanged)
    }

    private func onCorrectSide(_ item: Item, of request: PageRequest) -> Bool {
        switch request {
        case .newest: return true
        case .after(let cursor, _): return cursor.map { $0 < item.cursor } ?? true
        case .before(let cursor, _): return cursor.map { item.cursor < $0 } ?? true
        }
    }

    private func remember(_ items: [Item]) {
        // Moved out while they change: a stored property changed in a loop is checked for
        // exclusive access at every change (swift_beginAccess, about 180 instructions each, 2 per
        // item; callgrind under `feedsim load --source`, 2026-12-02).
        var (recent, order) = (self.recent, recentOrder)
        (self.recent, recentOrder) = ([], [])
        defer { (self.recent, recentOrder) = (recent, order) }
        for item in items where recent.insert(item.id).inserted {
            order.append(item.id)
        }
        if order.count > Self.recentLimit * 2 {
            let drop = order.count - Self.recentLimit
            for id in order[..<drop] { recent.remove(id) }
            order.removeFirst(drop)
        }
    }

    /// Per-item cursors (`item:POINTER`) recorded for every item of the page, in both directions.
    private func recordItemTokens(items: [Item], raw: [Any]) {
        for (source, isNext) in [(convention.next, true), (convention.prev, false)] {
            guard let source, source.hasPrefix("item:"), let pointer = pointer(String(source.dropFirst(5))) else {
                continue
            }
            for (item, element) in zip(items, raw) {
                guard let token = scalarText(pointer.resolve(element)) else { continue }
                if isNext { afterTokens[item.cursor] = token } else { beforeTokens[item.cursor] = token }
            }
        }
    }

    /// A page body as read: a `JSONSerialization` tree with its items array (any convention), or
    /// serve's shape decoded into typed fields (``ServePageBody``, when ``Convention/pagesHaveServeShape``).
    private enum PageBody {
        case tree(Any, items: [Any])
        case serve(ServePageBody)
    }

    /// Serve's shape when the convention has it and the body decodes strictly as it; otherwise the
    /// general tree (which reports what is wrong with the body).
    /// - Throws: ``HTTPSourceError`` (malformed JSON, no items array).
    private func pageBody(_ exchange: HTTPExchange) throws -> PageBody {
        if servePages, let page = try? ServePageBody.scan(exchange.body, rowFields: convention.rows == nil) {
            serveShapeReads += 1
            return .serve(page)
        }
        let document = try json(exchange)
        guard let rawItems = itemsPointer.resolve(document) as? [Any] else {
            throw fail(.missingField, exchange.url, "no items array at \(itemsPointer)")
        }
        return .tree(document, items: rawItems)
    }

    /// `body` as `Data` without copying it, for the length of `read`.
    private static func withData<T>(_ body: [UInt8], _ read: (Data) throws -> T) rethrows -> T {
        try body.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress, bytes.count > 0 else { return try read(Data()) }
            return try read(Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: bytes.count, deallocator: .none))
        }
    }

    private func cursorToken(_ source: String?, body: PageBody, exchange: HTTPExchange, last: Bool) -> String? {
        guard let source else { return nil }
        if source.hasPrefix("link:") {
            return LinkHeader.target(relation: String(source.dropFirst(5)), in: exchange.headers["link"] ?? [])
        }
        let document: Any
        let items: [Any]
        switch body {
        case .serve(let page):
            // The serve shape's only cursor pointers (``Convention/pagesHaveServeShape``).
            let text = source == "/next_cursor" ? page.nextCursor : source == "/prev_cursor" ? page.prevCursor : nil
            return text.flatMap { $0.isEmpty ? nil : $0 }
        case .tree(let tree, let rawItems):
            document = tree
            items = rawItems
        }
        if source.hasPrefix("item:") {
            guard let element = last ? items.last : items.first, let pointer = pointer(String(source.dropFirst(5))) else {
                return nil
            }
            return scalarText(pointer.resolve(element))
        }
        guard let pointer = pointer(source) else { return nil }
        return scalarText(pointer.resolve(document))
    }

    private var pointers: [String: JSONPointer?] = [:]

    /// The convention's cursor and flag pointers, parsed once (validated at init).
    private func pointer(_ text: String) -> JSONPointer? {
        if let parsed = pointers[text] { return parsed }
        let parsed = try? JSONPointer(text)
        pointers[text] = parsed
        return parsed
    }

    private func scalarText(_ value: Any?) -> String? {
        switch value {
        case let text as String: return text.isEmpty ? nil : text
        case let number as NSNumber where !NewItemJSON.isBool(number): return number.stringValue
        default: return nil
        }
    }

    private func flag(_ pointer: String?, _ body: PageBody, _ url: String) -> Bool? {
        guard let pointer else { return nil }
        let document: Any
        switch body {
        case .serve(let page):
            // Both decoded as booleans, present (``ServePageBody``).
            return pointer == "/has_more_after" ? page.hasMoreAfter : pointer == "/has_more_before" ? page.hasMoreBefore : nil
        case .tree(let tree, _):
            document = tree
        }
        guard let parsed = self.pointer(pointer) else { return nil }
        guard let value = parsed.resolve(document) else {
            audit.record(.missingField, url: url, "no boolean at \(pointer)")
            return nil
        }
        if let number = value as? NSNumber, NewItemJSON.isBool(number) { return number.boolValue }
        if let bool = value as? Bool { return bool }
        audit.record(.missingField, url: url, "\(pointer) is not a boolean")
        return nil
    }

    /// One item's fields, converted from whichever way the body was read; `nil` where unusable.
    private struct ItemFields {
        var id: Int64?
        var publishedAt: Int64?
        /// Non-empty text, or `nil`.
        var kind: String?
        var width: Double?
        var height: Double?
        var title: String
        var author: String
        var payload: String
    }

    /// An element of a tree's items array, read through the convention's field pointers.
    private func treeFields(_ raw: Any) -> ItemFields {
        func value(_ field: String) -> Any? { fieldPointers[field]?.resolve(raw) }
        let payload: String
        switch value("payload") {
        case let text as String: payload = text
        case let object? where object is [String: Any] || object is [Any]:
            payload = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
                .map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        default: payload = "{}"
        }
        return ItemFields(
            id: itemID(value("id")), publishedAt: timestamp(value("published_at")),
            kind: (value("kind") as? String).flatMap { $0.isEmpty ? nil : $0 }, width: number(value("width")),
            height: number(value("height")), title: value("title") as? String ?? "",
            author: value("author") as? String ?? "", payload: payload)
    }

    /// An item of serve's shape, converted by the rules ``treeFields(_:)`` applies.
    private func serveFields(_ item: ServeItemBody) -> ItemFields {
        ItemFields(
            id: Self.itemID(number: item.id),
            publishedAt: item.publishedAt.rounded() == item.publishedAt ? Int64(exactly: item.publishedAt) : nil,
            kind: item.kind.isEmpty ? nil : item.kind, width: item.width, height: item.height, title: item.title,
            author: item.author, payload: item.payload)
    }

    /// One item's stub and row; `nil` (recorded) when a field is missing and has no default.
    private func makeItem(_ fields: ItemFields, index: Int, url: String) -> (Item, ItemRow)? {
        func missing(_ field: String) -> (Item, ItemRow)? {
            audit.record(.missingField, url: url, "items[\(index)] has no usable '\(field)' at \(fieldPointers[field]?.text ?? "?")")
            return nil
        }
        guard let id = fields.id else { return missing("id") }
        guard let publishedAt = fields.publishedAt else { return missing("published_at") }
        let defaults = convention.defaults
        guard let kind = fields.kind ?? defaults?.kind else { return missing("kind") }
        guard let width = fields.width ?? defaults?.width else { return missing("width") }
        guard let height = fields.height ?? defaults?.height else { return missing("height") }
        let item = Item(id: id, publishedAt: publishedAt, kind: kind, width: width, height: height)
        return (item, ItemRow(id: id, title: fields.title, author: fields.author, payload: fields.payload))
    }

    /// An integer id, or a string: digits as the integer, other text as its 63-bit FNV-1a hash.
    private func itemID(_ value: Any?) -> Int64? {
        switch value {
        case let number as NSNumber where !NewItemJSON.isBool(number): return Self.itemID(number: number.doubleValue)
        case let text as String: return Self.itemID(text: text)
        default: return nil
        }
    }

    /// A JSON number as an id: whole and within Int64.
    private static func itemID(number: Double) -> Int64? {
        guard number.rounded() == number else { return nil }
        return Int64(exactly: number)
    }

    /// A JSON string as an id: digits as the integer, other text as its 63-bit FNV-1a hash; empty: none.
    private static func itemID(text: String) -> Int64? {
        guard !text.isEmpty else { return nil }
        if let id = Int64(text) { return id }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return Int64(bitPattern: hash >> 1)
    }

    private func timestamp(_ value: Any?) -> Int64? {
        switch convention.publishedAtUnit ?? "ms" {
        case "iso8601":
            guard let text = value as? String else { return nil }
            if let date = iso8601.date(from: text) { return Int64((date.timeIntervalSince1970 * 1000).rounded()) }
            return nil
        case "s":
            guard let seconds = number(value) else { return nil }
            return Int64(exactly: (seconds * 1000).rounded())
        default:
            guard let ms = number(value), ms.rounded() == ms else { return nil }
            return Int64(exactly: ms)
        }
    }

    private func number(_ value: Any?) -> Double? {
        guard let number = value as? NSNumber, !NewItemJSON.isBool(number), number.doubleValue.isFinite else { return nil }
        return number.doubleValue
    }

    // MARK: - Requests

    /// Runs one request, timing it and turning transport failures and non-2xx statuses into errors.
    private func send(_ body: () throws -> HTTPExchange) throws -> HTTPExchange {
        let exchange: HTTPExchange
        do {
            exchange = try body()
        } catch let error as HTTPTransportError {
            audit.recordRequest(ms: error.elapsedMs, version: nil)
            throw fail(error.timedOut ? .timeout : .transport, error.url, error.reason)
        }
        audit.recordRequest(ms: exchange.elapsedMs, version: exchange.httpVersion)
        guard (200...299).contains(exchange.status) else {
            let retry = exchange.header("retry-after").map { " (Retry-After: \($0))" } ?? ""
            throw fail(.httpStatus, exchange.url, "status \(exchange.status)\(retry)")
        }
        return exchange
    }

    private func json(_ exchange: HTTPExchange) throws -> Any {
        do {
            return try Self.withData(exchange.body) { try JSONSerialization.jsonObject(with: $0, options: [.fragmentsAllowed]) }
        } catch {
            throw fail(.malformedJSON, exchange.url, "the body (\(exchange.body.count) bytes) is not JSON")
        }
    }

    private func fail(_ problem: SourceAudit.Problem, _ url: String, _ detail: String) -> HTTPSourceError {
        audit.record(problem, url: url, detail)
        return HTTPSourceError(problem: problem, url: url, detail: detail)
    }

    /// A template with its placeholders filled; `{cursor}` percent-encoded. A placeholder whose
    /// value is not given stays as written. Templates are split once into text and placeholders
    /// (``templateParts(_:)``), so a request costs appends, not a search per placeholder.
    func expand(_ template: String, limit: Int? = nil, cursor: String? = nil, ids: [Int64]? = nil) -> String {
        var text = ""
        text.reserveCapacity(source.utf8.count + 64)
        for part in templateParts(template) {
            switch part {
            case .text(let literal): text += literal
            case .url: text += source
            case .origin: text += origin
            case .limit: text += limit.map(String.init) ?? "{limit}"
            case .cursor: text += cursor.map(FeedPath.queryValue) ?? "{cursor}"
            case .ids:
                guard let ids else {
                    text += "{ids}"
                    continue
                }
                for (index, id) in ids.enumerated() {
                    if index > 0 { text += "," }
                    text += String(id)
                }
            }
        }
        return text
    }

    /// A piece of a request template.
    enum TemplatePart: Equatable {
        case text(String)
        case url, origin, limit, cursor, ids
    }

    private var compiledTemplates: [String: [TemplatePart]] = [:]

    /// `template` split at its placeholders, once per template. `{url}?` becomes `{url}&` when the
    /// source URL has a query already.
    func templateParts(_ template: String) -> [TemplatePart] {
        if let parts = compiledTemplates[template] { return parts }
        let names: [(String, TemplatePart)] = [
            ("{url}", .url), ("{origin}", .origin), ("{limit}", .limit), ("{cursor}", .cursor), ("{ids}", .ids),
        ]
        let sourceHasQuery = source.contains("?")
        var parts: [TemplatePart] = []
        var literal = Substring()
        var rest = Substring(template)
        while !rest.isEmpty {
            if rest.first == "{", let (name, part) = names.first(where: { rest.hasPrefix($0.0) }) {
                if !literal.isEmpty { parts.append(.text(String(literal))) }
                literal = Substring()
                parts.append(part)
                rest = rest.dropFirst(name.count)
                if part == .url, sourceHasQuery, rest.first == "?" {
                    literal = "&"
                    rest = rest.dropFirst()
                }
            } else {
                let next = rest.dropFirst().firstIndex(of: "{") ?? rest.endIndex
                literal += rest[..<next]
                rest = rest[next...]
            }
        }
        if !literal.isEmpty { parts.append(.text(String(literal))) }
        compiledTemplates[template] = parts
        return parts
    }

    // MARK: - Rows and writes

    public func rows(ids: [Int64]) throws -> RowBatch {
        guard let template = convention.rows else { return cachedRows(ids) }
        var found: [Int64: ItemRow] = [:]
        for chunk in Self.chunks(ids) {
            let url = expand(template, ids: chunk)
            try readRows(try send { try client.get(url) }, into: &found)
        }
        return batch(ids, found)
    }

    /// Starts the row requests of `ids` (100 ids a request) on the calling thread's
    /// ``HTTPMultiDriver``; read as ``rows(ids:)`` reads them when the owner polls the answer.
    public func startRows(ids: [Int64]) -> DeferredAnswer<RowBatch> {
        guard let template = convention.rows else { return DeferredAnswer(.success(cachedRows(ids))) }
        let transfers = Self.chunks(ids).map { client.startGet(expand(template, ids: $0)) }
        return DeferredAnswer(
            isDone: { transfers.allSatisfy(\.isDone) }, elapsed: { transfers.map(\.elapsedMs).max() }
        ) { [self] in
            var found: [Int64: ItemRow] = [:]
            var firstError: (any Error)?
            for transfer in transfers {
                do { try readRows(try send { try transfer.exchange() }, into: &found) } catch {
                    firstError = firstError ?? error
                }
            }
            if let firstError { throw firstError }
            return batch(ids, found)
        }
    }

    private static func chunks(_ ids: [Int64]) -> [[Int64]] {
        stride(from: 0, to: ids.count, by: 100).map { Array(ids[$0..<min(ids.count, $0 + 100)]) }
    }

    private func cachedRows(_ ids: [Int64]) -> RowBatch {
        var rows: [ItemRow] = []
        rows.reserveCapacity(ids.count)
        var missing: [Int64] = []
        let cache = rowCache  // read once (see remember(_:)); a copy of the reference, not of the rows
        for id in ids {
            if let row = cache[id] { rows.append(row) } else { missing.append(id) }
        }
        return RowBatch(rows: rows, missing: missing)
    }

    func readRows(_ exchange: HTTPExchange, into found: inout [Int64: ItemRow]) throws {
        if serveRows, let body = try? Self.withData(exchange.body, { try decoder.decode(ServeRowsBody.self, from: $0) }) {
            serveShapeReads += 1
            for (index, row) in body.items.enumerated() {
                guard let id = Self.itemID(number: row.id) else {
                    audit.record(.missingField, url: exchange.url, "rows[\(index)] has no usable 'id'")
                    continue
                }
                found[id] = ItemRow(id: id, title: row.title, author: row.author, payload: row.payload)
            }
            return
        }
        let rowsPointer = try JSONPointer(convention.rowsItems ?? "/items")
        guard let list = rowsPointer.resolve(try json(exchange)) as? [Any] else {
            throw fail(.missingField, exchange.url, "no rows array at \(rowsPointer)")
        }
        for (index, raw) in list.enumerated() {
            guard let id = itemID(fieldPointers["id"]?.resolve(raw)) else {
                audit.record(.missingField, url: exchange.url, "rows[\(index)] has no usable 'id'")
                continue
            }
            func text(_ field: String) -> String { fieldPointers[field]?.resolve(raw) as? String ?? "" }
            found[id] = ItemRow(id: id, title: text("title"), author: text("author"), payload: text("payload"))
        }
    }

    private func batch(_ ids: [Int64], _ found: [Int64: ItemRow]) -> RowBatch {
        var rows: [ItemRow] = []
        var missing: [Int64] = []
        for id in ids {
            if let row = found[id] { rows.append(row) } else { missing.append(id) }
        }
        return RowBatch(rows: rows, missing: missing)
    }

    /// POSTs `{"items": [...]}` to the convention's insert URL.
    /// - Throws: ``HTTPUnsupportedError`` when the convention has no insert request; ``HTTPSourceError``.
    @discardableResult
    public func insert(_ items: [NewItem]) throws -> [Int64] {
        guard let template = convention.insert else {
            throw HTTPUnsupportedError(operation: "insert", convention: convention.name)
        }
        guard !items.isEmpty else { return [] }
        let url = expand(template)
        let body = NewItemJSON.encode(items)
        let exchange = try send { try client.post(url, body: Array(body.utf8)) }
        let pointer = try JSONPointer(convention.insertIDs ?? "/ids")
        guard let ids = (pointer.resolve(try json(exchange)) as? [Any])?.compactMap({ itemID($0) }), ids.count == items.count
        else {
            throw fail(.missingField, url, "no array of \(items.count) ids at \(pointer)")
        }
        return ids
    }

    /// Reads the newest item, then POSTs what `makeItems` returns. Two requests, not one
    /// transaction: two writers of this process would otherwise both read the same newest item
    /// and the later one's items would land below the earlier one's, inside what sessions have
    /// loaded already. Backends sharing a ``headLock`` (a load's writers) take turns.
    /// - Throws: ``HTTPSourceError``, ``HTTPUnsupportedError``.
    @discardableResult
    public func insertAtHead(_ makeItems: (_ newestPublishedAt: Int64?) -> [NewItem]) throws -> [Int64] {
        guard let headLock else { return try insert(makeItems(try newest(limit: 1).items.first?.publishedAt)) }
        return try headLock.withLock { try insert(makeItems(try newest(limit: 1).items.first?.publishedAt)) }
    }

    /// Shared by the writers of one load (``HTTPSourceConnector``), so their reads of the newest
    /// item and their inserts do not interleave; `nil` for a backend on its own.
    public var headLock: NSLock?

    /// - Throws: ``HTTPUnsupportedError``: no API convention here updates rows.
    @discardableResult
    public func update(_ rows: [ItemRow]) throws -> Int {
        throw HTTPUnsupportedError(operation: "update", convention: convention.name)
    }

    /// `DELETE` with the ids. - Throws: ``HTTPUnsupportedError`` when the convention has none.
    @discardableResult
    public func delete(ids: [Int64]) throws -> Int {
        guard let template = convention.delete else {
            throw HTTPUnsupportedError(operation: "delete", convention: convention.name)
        }
        var deleted = 0
        var start = 0
        while start < ids.count {
            let chunk = Array(ids[start..<min(ids.count, start + 100)])
            start += chunk.count
            let exchange = try send { try client.delete(expand(template, ids: chunk)) }
            let count = (try? JSONSerialization.jsonObject(with: Data(exchange.body))) .flatMap { ($0 as? [String: Any])?["deleted"] as? Int }
            deleted += count ?? chunk.count
        }
        return deleted
    }

    /// From ``truth`` when given; otherwise through the API's own More pages (not independent of
    /// the API under test: it finds gaps between a session's pages, not items the API never serves).
    public func groundTruth(after cursor: Cursor, limit: Int) throws -> [Item] {
        if let truth { return try truth.groundTruth(after: cursor, limit: limit) }
        var items: [Item] = []
        var current = cursor
        while items.count < limit {
            let page = try after(current, limit: min(100, limit - items.count))
            items += page.items
            guard page.hasMoreAfter, let last = page.lastCursor, last != current else { break }
            current = last
        }
        return items
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}

/// Percent-encoding for path segments and query values (RFC 3986 unreserved characters kept).
enum FeedPath {
    static let unreserved: CharacterSet = {
        var set = CharacterSet()
        set.insert(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return set
    }()

    static func segment(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text }
    /// The UTF-8 bytes outside the unreserved set as `%XX` (upper-case hex, as Foundation's
    /// `addingPercentEncoding` writes them); once per page request, so without Foundation's strings.
    static func queryValue(_ text: String) -> String {
        func isUnreserved(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                return true
            default: return false
            }
        }
        if text.utf8.allSatisfy(isUnreserved) { return text }
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count * 3)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                bytes.append(byte)
            } else {
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension HTTPFeedBackend: DeferredFeedSource {
    public func startNewest(limit: Int) -> DeferredAnswer<Page> {
        startFetch(.newest, limit: limit).map(\.page)
    }

    public func startAfter(_ cursor: Cursor, limit: Int) -> DeferredAnswer<Page> {
        do { return startFetch(.after(cursor, try token(after: cursor)), limit: limit).map(\.page) } catch {
            return DeferredAnswer(.failure(error))
        }
    }

    public func startBefore(_ cursor: Cursor, limit: Int) -> DeferredAnswer<Page> {
        do { return startFetch(.before(cursor, try token(before: cursor)), limit: limit).map(\.page) } catch {
            return DeferredAnswer(.failure(error))
        }
    }
}

extension HTTPFeedBackend: SessionScopedBackend {
    /// Empties the rows read from pages, the cursor tokens and the recent ids (the audit is the
    /// run's and stays). The load tester pools backends between sessions, and a pooled backend used
    /// to keep every row and token any of its sessions had seen, so a long `load --source` against an
    /// API without a rows request grew with every item it walked.
    public func sessionEnded() {
        rowCache.removeAll(keepingCapacity: true)
        afterTokens.removeAll(keepingCapacity: true)
        beforeTokens.removeAll(keepingCapacity: true)
        recent.removeAll(keepingCapacity: true)
        recentOrder.removeAll(keepingCapacity: true)
    }
}
