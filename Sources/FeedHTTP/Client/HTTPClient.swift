internal import FeedSimCurl
import Foundation

/// What came back for one request.
public struct HTTPExchange: Sendable {
    public var url: String
    public var status: Int
    /// Response headers, names lowercased, values in arrival order.
    public var headers: [String: [String]]
    public var body: [UInt8]
    /// Wall time of the request from its start to the last byte, milliseconds (monotonic clock).
    public var elapsedMs: Double
    /// `"1.1"`, `"2"`, `"3"`.
    public var httpVersion: String

    /// The first value of header `name` (any case).
    public func header(_ name: String) -> String? { headers[name.lowercased()]?.first }
}

/// A request that got no HTTP answer: timed out, refused, reset.
public struct HTTPTransportError: Error, CustomStringConvertible, Sendable {
    public var url: String
    /// libcurl's error text.
    public var reason: String
    public var timedOut: Bool
    public var elapsedMs: Double
    public var description: String { "\(url): \(reason)" }
}

/// A blocking HTTP client on one libcurl easy handle, used by one thread at a time.
///
/// Reusing the handle keeps its connections open between requests (libcurl's connection cache),
/// so a walk of pages costs one TCP (and TLS) handshake. HTTP/2 is used when an `https` server
/// offers it in ALPN (`CURL_HTTP_VERSION_2TLS`); plain `http` speaks HTTP/1.1 with keep-alive.
public final class HTTPClient {
    /// Extra request headers (`Authorization: Bearer …`).
    public let headers: [String]
    /// Whole-request timeout, milliseconds.
    public let timeoutMs: Int
    private let handle: UnsafeMutableRawPointer
    private var headerList: UnsafeMutablePointer<curl_slist>?

    /// - Parameters:
    ///   - headers: `Name: value` lines sent with every request.
    ///   - timeoutMs: the most a request may take, connection included (default 10 s).
    /// - Throws: ``HTTPClientError`` when libcurl cannot create a handle or rejects a header.
    public init(headers: [String] = [], timeoutMs: Int = 10_000) throws {
        _ = HTTPClient.globalInit
        guard let handle = curl_easy_init() else { throw HTTPClientError("libcurl could not create a handle") }
        self.handle = handle
        self.headers = headers
        self.timeoutMs = timeoutMs
        for line in headers + ["Accept: application/json"] {
            guard line.contains(":"), !line.contains("\n"), !line.contains("\r") else {
                curl_slist_free_all(headerList)
                curl_easy_cleanup(handle)
                throw HTTPClientError("--header '\(line)': expected 'Name: value' on one line")
            }
            headerList = curl_slist_append(headerList, line)
        }
    }

    deinit {
        curl_slist_free_all(headerList)
        curl_easy_cleanup(handle)
    }

    /// libcurl's process-wide set-up, once (thread-safe since 7.84 where the build supports it).
    private static let globalInit: Void = {
        curl_global_init(Int(CURL_GLOBAL_DEFAULT))
    }()

    /// `GET url`. - Throws: ``HTTPTransportError`` when no HTTP answer arrives.
    public func get(_ url: String) throws -> HTTPExchange {
        try perform(method: "GET", url: url, body: nil, contentType: nil)
    }

    /// `POST url` with a body. - Throws: ``HTTPTransportError``.
    public func post(_ url: String, body: [UInt8], contentType: String = "application/json") throws -> HTTPExchange {
        try perform(method: "POST", url: url, body: body, contentType: contentType)
    }

    /// `DELETE url`. - Throws: ``HTTPTransportError``.
    public func delete(_ url: String) throws -> HTTPExchange {
        try perform(method: "DELETE", url: url, body: nil, contentType: nil)
    }

    /// Collects the body and headers libcurl hands over.
    final class Sink {
        var body: [UInt8] = []
        var headers: [String: [String]] = [:]
    }

    private func perform(method: String, url: String, body: [UInt8]?, contentType: String?) throws -> HTTPExchange {
        let sink = Sink()
        var extra = headerList
        var ownedList: UnsafeMutablePointer<curl_slist>?
        if let contentType {
            // The shared list plus Content-Type, for this request only.
            for line in headers + ["Accept: application/json", "Content-Type: \(contentType)"] {
                ownedList = curl_slist_append(ownedList, line)
            }
            extra = ownedList
        }
        defer { curl_slist_free_all(ownedList) }
        curl_easy_reset(handle)  // options only: the connection cache survives a reset
        feedsim_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        feedsim_curl_setopt_long(handle, CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_2TLS)
        feedsim_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, timeoutMs)
        feedsim_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, min(timeoutMs, 5000))
        feedsim_curl_setopt_long(handle, CURLOPT_TCP_NODELAY, 1)
        feedsim_curl_setopt_pointer(handle, CURLOPT_USERAGENT, "feedsim/1")
        feedsim_curl_setopt_pointer(handle, CURLOPT_ACCEPT_ENCODING, "")  // every encoding libcurl decodes
        feedsim_curl_setopt_pointer(handle, CURLOPT_HTTPHEADER, extra)
        let context = Unmanaged.passUnretained(sink).toOpaque()
        feedsim_curl_setopt_write_function(handle, CURLOPT_WRITEFUNCTION, feedSimCurlWrite)
        feedsim_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, context)
        feedsim_curl_setopt_write_function(handle, CURLOPT_HEADERFUNCTION, feedSimCurlHeader)
        feedsim_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, context)
        let code: CURLcode = url.withCString { urlText in
            feedsim_curl_setopt_pointer(handle, CURLOPT_URL, urlText)
            if method != "GET" { feedsim_curl_setopt_pointer(handle, CURLOPT_CUSTOMREQUEST, method) }
            if let body {
                return body.withUnsafeBytes { bytes in
                    feedsim_curl_setopt_long(handle, CURLOPT_POSTFIELDSIZE, bytes.count)
                    feedsim_curl_setopt_pointer(handle, CURLOPT_POSTFIELDS, bytes.baseAddress)
                    return withExtendedLifetime(sink) { curl_easy_perform(handle) }
                }
            }
            return withExtendedLifetime(sink) { curl_easy_perform(handle) }
        }
        var seconds = 0.0
        feedsim_curl_getinfo_double(handle, CURLINFO_TOTAL_TIME, &seconds)
        guard code == CURLE_OK else {
            throw HTTPTransportError(
                url: url, reason: String(cString: curl_easy_strerror(code)), timedOut: code == CURLE_OPERATION_TIMEDOUT,
                elapsedMs: seconds * 1000)
        }
        var status = 0
        feedsim_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        var version = 0
        feedsim_curl_getinfo_long(handle, CURLINFO_HTTP_VERSION, &version)
        let versionText: String
        switch version {
        case CURL_HTTP_VERSION_2_0: versionText = "2"
        case CURL_HTTP_VERSION_3: versionText = "3"
        case CURL_HTTP_VERSION_1_0: versionText = "1.0"
        default: versionText = "1.1"
        }
        return HTTPExchange(
            url: url, status: status, headers: sink.headers, body: sink.body, elapsedMs: seconds * 1000,
            httpVersion: versionText)
    }
}

/// libcurl could not be set up.
public struct HTTPClientError: Error, CustomStringConvertible {
    public var message: String
    init(_ message: String) { self.message = message }
    public var description: String { message }
}

private let feedSimCurlWrite: feedsim_curl_write_callback = { data, size, count, context in
    guard let data, let context else { return 0 }
    let sink = Unmanaged<HTTPClient.Sink>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    data.withMemoryRebound(to: UInt8.self, capacity: length) {
        sink.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: length))
    }
    return length
}

/// One header line per call (`Name: value\r\n`); a new status line (after a redirect or a
/// `100 Continue`) starts the set again.
private let feedSimCurlHeader: feedsim_curl_write_callback = { data, size, count, context in
    guard let data, let context else { return 0 }
    let sink = Unmanaged<HTTPClient.Sink>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    let line = data.withMemoryRebound(to: UInt8.self, capacity: length) {
        String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
    }
    if line.hasPrefix("HTTP/") {
        sink.headers = [:]
    } else if let colon = line.firstIndex(of: ":") {
        let name = line[..<colon].lowercased()
        let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
        sink.headers[name, default: []].append(value)
    }
    return length
}
