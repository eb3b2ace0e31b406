import FeedModel
import Foundation

/// One request as the API sees it: method, decoded path, a query parameter look-up and the body.
public struct APIRequest {
    public var method: String
    /// The path without the query string, percent-decoded (`/v1/feeds/home/items`).
    public var path: String
    /// A query parameter's value: `.some(nil)` when present but not UTF-8, `nil` when absent.
    public var query: (String) -> String??
    public var body: [UInt8]
    /// The `Content-Type` header, if any.
    public var contentType: String?

    public init(
        method: String, path: String, query: @escaping (String) -> String??, body: [UInt8] = [], contentType: String? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.body = body
        self.contentType = contentType
    }
}

/// The JSON API of `feedsim serve` (documented in `docs/http-api.md` and `docs/openapi.yaml`):
/// routes a request to a catalog's backends and builds the response. No sockets here; the
/// ``FeedServer`` feeds it requests parsed by libmicrohttpd.
///
/// ```
/// GET  /v1/feeds                                        the feeds
/// GET  /v1/feeds/{feed}/items?limit=N[&after=C|&before=C]  a page of items with their rows
/// POST /v1/feeds/{feed}/items                            insert items at the head
/// GET  /v1/items?ids=1,2,3                               rows by id
/// DELETE /v1/items?ids=1,2,3                             delete items
/// GET  /v1/images/{id}.svg                               a placeholder image of the item's size and kind
/// ```
public enum FeedAPI {
    /// Default and largest page size, items.
    public static let defaultLimit = 20
    public static let maximumLimit = 1000
    /// Most ids one rows request may name.
    public static let maximumIDs = 1000
    /// Largest request body accepted, bytes.
    public static let maximumBodyBytes = 1 << 20

    /// The response to `request`, read from and written to `catalog`.
    /// - Throws: only the backend's own errors (a failed query); the server answers those 500.
    public static func respond(to request: APIRequest, catalog: any FeedCatalog) throws -> HTTPResponse {
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        // parts[0] is "" (the path starts with "/").
        guard parts.count >= 3, parts[0].isEmpty, parts[1] == "v1" else { return notFound(request.path) }
        if request.method == "OPTIONS" {
            return HTTPResponse(status: 204, headers: [("Allow", "GET, POST, DELETE, OPTIONS")])
        }
        switch (parts.count, parts[2]) {
        case (3, "feeds"):
            guard request.method == "GET" || request.method == "HEAD" else { return methodNotAllowed("GET") }
            return try feeds(catalog)
        case (5, "feeds") where parts[4] == "items":
            guard let backend = try catalog.backend(feed: parts[3]) else {
                return .error(404, code: "unknown_feed", "no feed named '\(parts[3])'", parameter: "feed")
            }
            switch request.method {
            case "GET", "HEAD": return try page(request, backend: backend, feed: parts[3])
            case "POST": return try insert(request, backend: backend)
            default: return methodNotAllowed("GET, POST")
            }
        case (3, "items"):
            switch request.method {
            case "GET", "HEAD": return try rows(request, catalog: catalog)
            case "DELETE": return try delete(request, catalog: catalog)
            default: return methodNotAllowed("GET, DELETE")
            }
        case (4, "images"):
            guard request.method == "GET" || request.method == "HEAD" else { return methodNotAllowed("GET") }
            return try image(name: parts[3], catalog: catalog)
        default:
            return notFound(request.path)
        }
    }

    static func notFound(_ path: String) -> HTTPResponse {
        .error(404, code: "not_found", "no such resource: \(path)")
    }

    static func methodNotAllowed(_ allow: String) -> HTTPResponse {
        .error(405, code: "method_not_allowed", "allowed methods: \(allow)", headers: [("Allow", allow)])
    }

    static func feeds(_ catalog: any FeedCatalog) throws -> HTTPResponse {
        let names = try catalog.feedNames()
        let list = names.map { name -> String in
            var object = JSONText.Object()
            object.add("name", name)
            object.add("items_url", "/v1/feeds/\(percentEncodedSegment(name))/items")
            return object.json
        }
        var outer = JSONText.Object()
        outer.addRaw("feeds", "[" + list.joined(separator: ",") + "]")
        return .json(200, outer.json + "\n")
    }

    /// A path segment percent-encoded (RFC 3986 unreserved characters kept).
    static func percentEncodedSegment(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    /// The value of query parameter `name`, or a 400 when it is not UTF-8 or empty.
    static func parameter(_ request: APIRequest, _ name: String) -> Result<String?, HTTPResponseError> {
        switch request.query(name) {
        case .none: return .success(nil)
        case .some(.none):
            return .failure(HTTPResponseError(.error(400, code: "invalid_parameter", "\(name) is not UTF-8 text", parameter: name)))
        case .some(.some(let value)): return .success(value)
        }
    }
}

/// A response that ends a request early (a 400 naming the parameter).
struct HTTPResponseError: Error {
    var response: HTTPResponse
    init(_ response: HTTPResponse) { self.response = response }
}
