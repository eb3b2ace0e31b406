import FeedModel
import Foundation

extension FeedAPI {
    /// `GET /v1/feeds/{feed}/items?limit=N[&after=CURSOR | &before=CURSOR]`: a page with each item's row.
    static func page(_ request: APIRequest, backend: any FeedBackend, feed: String) throws -> HTTPResponse {
        do {
            let limitText = try parameter(request, "limit").get()
            var limit = defaultLimit
            if let limitText {
                guard let value = Int(limitText), (1...maximumLimit).contains(value) else {
                    return .error(
                        400, code: "invalid_parameter", "limit must be an integer in 1...\(maximumLimit), got '\(limitText)'",
                        parameter: "limit")
                }
                limit = value
            }
            let after = try cursor(request, "after")
            let before = try cursor(request, "before")
            if after != nil && before != nil {
                return .error(400, code: "invalid_parameter", "give after or before, not both", parameter: "before")
            }
            // The page and its rows from one snapshot (one read transaction), as the load tester's
            // own sessions read a page: no row of the page can vanish between the two reads, and
            // SQLite takes its shared lock (fcntl) once per request, not once per statement.
            let (page, rows) = try backend.read {
                let page: Page
                if let after {
                    page = try backend.after(after, limit: limit)
                } else if let before {
                    page = try backend.before(before, limit: limit)
                } else {
                    page = try backend.newest(limit: limit)
                }
                return (page, try backend.rows(ids: page.items.map(\.id)))
            }
            return HTTPResponse(
                status: 200, headers: [("Content-Type", "application/json; charset=utf-8")],
                body: pageJSON(page, rows: rows.rows))
        } catch let error as HTTPResponseError {
            return error.response
        }
    }

    /// The page as the API's JSON object and a newline, UTF-8 (``JSONBytes``); rows matched to
    /// items by id (an item whose row vanished between the two reads gets empty texts). Keys in
    /// the order `docs/http-api.md` lists them.
    /// - Complexity: O(bytes written).
    static func pageJSON(_ page: Page, rows: [ItemRow]) -> [UInt8] {
        var byID: [Int64: ItemRow] = [:]
        byID.reserveCapacity(rows.count)
        for row in rows { byID[row.id] = row }
        var json = JSONBytes(capacity: 256 + 320 * page.items.count)
        json.raw("{\"items\":[")
        for (index, item) in page.items.enumerated() {
            if index > 0 { json.byte(UInt8(ascii: ",")) }
            let row = byID[item.id]
            json.raw("{\"id\":")
            json.integer(item.id)
            json.raw(",\"published_at\":")
            json.integer(item.publishedAt)
            json.raw(",\"kind\":")
            json.string(item.kind)
            json.raw(",\"width\":")
            json.number(item.width)
            json.raw(",\"height\":")
            json.number(item.height)
            json.raw(",\"title\":")
            json.string(row?.title ?? "")
            json.raw(",\"author\":")
            json.string(row?.author ?? "")
            json.raw(",\"image_url\":\"/v1/images/")
            json.integer(item.id)
            json.raw(".svg\",\"payload\":")
            json.string(row?.payload ?? "{}")
            json.byte(UInt8(ascii: "}"))
        }
        json.raw("],\"next_cursor\":")
        if let next = page.lastCursor?.text { json.string(next) } else { json.raw("null") }
        json.raw(",\"prev_cursor\":")
        if let prev = page.firstCursor?.text { json.string(prev) } else { json.raw("null") }
        json.raw(",\"has_more_after\":")
        json.bool(page.hasMoreAfter)
        json.raw(",\"has_more_before\":")
        json.bool(page.hasMoreBefore)
        json.raw("}\n")
        return json.bytes
    }

    static func cursor(_ request: APIRequest, _ name: String) throws -> Cursor? {
        guard let text = try parameter(request, name).get() else { return nil }
        do {
            return try Cursor(text: text)
        } catch let error as CursorTextError {
            throw HTTPResponseError(.error(400, code: "invalid_parameter", "\(name): \(error.reason)", parameter: name))
        }
    }

    /// `ids=1,2,3`: 1 to ``maximumIDs`` integers.
    static func ids(_ request: APIRequest) throws -> [Int64] {
        guard let text = try parameter(request, "ids").get() else {
            throw HTTPResponseError(.error(400, code: "missing_parameter", "ids is required", parameter: "ids"))
        }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        let ids = parts.compactMap { Int64($0) }
        guard ids.count == parts.count, (1...maximumIDs).contains(ids.count) else {
            throw HTTPResponseError(
                .error(
                    400, code: "invalid_parameter", "ids must be 1...\(maximumIDs) comma-separated integers",
                    parameter: "ids"))
        }
        return ids
    }

    /// `GET /v1/items?ids=…`: rows in the requested order, and the ids not found.
    static func rows(_ request: APIRequest, catalog: any FeedCatalog) throws -> HTTPResponse {
        do {
            let ids = try ids(request)
            guard let backend = try anyBackend(catalog) else {
                return .json(200, "{\"items\":[],\"missing\":[" + ids.map(String.init).joined(separator: ",") + "]}\n")
            }
            let batch = try backend.rows(ids: ids)
            let items = batch.rows.map { row -> String in
                var object = JSONText.Object()
                object.add("id", row.id)
                object.add("title", row.title)
                object.add("author", row.author)
                object.add("payload", row.payload)
                return object.json
            }
            return .json(
                200,
                "{\"items\":[" + items.joined(separator: ",") + "],\"missing\":["
                    + batch.missing.map(String.init).joined(separator: ",") + "]}\n")
        } catch let error as HTTPResponseError {
            return error.response
        }
    }

    /// `DELETE /v1/items?ids=…`: `{"deleted": N}`.
    static func delete(_ request: APIRequest, catalog: any FeedCatalog) throws -> HTTPResponse {
        do {
            let ids = try ids(request)
            let deleted = try anyBackend(catalog)?.delete(ids: ids) ?? 0
            return .json(200, "{\"deleted\":\(deleted)}\n")
        } catch let error as HTTPResponseError {
            return error.response
        }
    }

    /// Rows and deletes are by id across feeds: any feed's backend answers them.
    static func anyBackend(_ catalog: any FeedCatalog) throws -> (any FeedBackend)? {
        guard let name = try catalog.feedNames().first else { return nil }
        return try catalog.backend(feed: name)
    }

    /// `POST /v1/feeds/{feed}/items` with `{"items": [...]}` or one item object: `201 {"ids": [...]}`.
    static func insert(_ request: APIRequest, backend: any FeedBackend) throws -> HTTPResponse {
        if let type = request.contentType, !type.lowercased().hasPrefix("application/json") {
            return .error(415, code: "unsupported_media_type", "send application/json, not \(type)")
        }
        let items: [NewItem]
        do {
            items = try NewItemJSON.parse(request.body)
        } catch let error as NewItemJSON.Failure {
            return .error(400, code: "invalid_body", error.message, parameter: error.field)
        }
        let given = items.compactMap(\.id)
        if Set(given).count != given.count {
            return .error(400, code: "invalid_body", "the same id is given twice", parameter: "id")
        }
        if !given.isEmpty, let taken = try backend.rows(ids: given).rows.first {
            return .error(409, code: "id_exists", "an item with id \(taken.id) exists already", parameter: "id")
        }
        let ids = try backend.insert(items)
        return .json(201, "{\"ids\":[" + ids.map(String.init).joined(separator: ",") + "]}\n")
    }

    /// `GET /v1/images/{id}.svg`.
    static func image(name: String, catalog: any FeedCatalog) throws -> HTTPResponse {
        guard name.hasSuffix(".svg"), let id = Int64(name.dropLast(4)) else {
            return .error(400, code: "invalid_parameter", "expected {id}.svg with an integer id, got '\(name)'", parameter: "id")
        }
        guard let item = try catalog.stub(id: id) else {
            return .error(404, code: "unknown_item", "no item with id \(id)", parameter: "id")
        }
        return HTTPResponse(
            status: 200, headers: [("Content-Type", "image/svg+xml"), ("Cache-Control", "public, max-age=86400")],
            body: Array(PlaceholderImage.svg(for: item).utf8))
    }
}
