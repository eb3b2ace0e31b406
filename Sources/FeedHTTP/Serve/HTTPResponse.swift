import Foundation

/// One HTTP response as the API builds it: status, headers, body. The server adds CORS headers.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    /// Header name and value pairs, in order.
    public var headers: [(String, String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public static func == (lhs: HTTPResponse, rhs: HTTPResponse) -> Bool {
        lhs.status == rhs.status && lhs.body == rhs.body
            && lhs.headers.map { "\($0.0): \($0.1)" } == rhs.headers.map { "\($0.0): \($0.1)" }
    }

    /// A JSON body (`application/json; charset=utf-8`).
    static func json(_ status: Int, _ text: String, headers: [(String, String)] = []) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: [("Content-Type", "application/json; charset=utf-8")] + headers,
            body: Array(text.utf8))
    }

    /// `{"error": {"status": S, "code": C, "message": M, "parameter": P}}`; `parameter` only when one is to blame.
    static func error(_ status: Int, code: String, _ message: String, parameter: String? = nil, headers: [(String, String)] = [])
        -> HTTPResponse
    {
        var object = JSONText.Object()
        object.add("status", status)
        object.add("code", code)
        object.add("message", message)
        if let parameter { object.add("parameter", parameter) }
        var outer = JSONText.Object()
        outer.addRaw("error", object.json)
        return json(status, outer.json + "\n", headers: headers)
    }

    /// The reason phrase of the statuses the API uses, for the access log and tests.
    public static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 201: return "Created"
        case 204: return "No Content"
        case 400: return "Bad Request"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 409: return "Conflict"
        case 413: return "Content Too Large"
        case 415: return "Unsupported Media Type"
        case 429: return "Too Many Requests"
        case 500: return "Internal Server Error"
        case 503: return "Service Unavailable"
        default: return "Status \(status)"
        }
    }
}
