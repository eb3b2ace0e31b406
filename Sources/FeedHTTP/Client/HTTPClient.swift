internal import FeedSimCurl
import Foundation
import Synchronization

/// What came back for one request.
public struct HTTPExchange: Sendable {
    public var url: String
    public var status: Int
    public var body: [UInt8]
    /// Wall time of the request from its start to the last byte, milliseconds (monotonic clock).
    public var elapsedMs: Double
    /// `"1.1"`, `"2"`, `"3"`.
    public var httpVersion: String
    /// The final response's header lines as received (`Name: value\r\n` each), parsed only when
    /// ``headers`` is read: a page walk reads none of serve's headers, and building a dictionary
    /// of Strings for every answer was about a tenth of a load worker's CPU (`feedsim bench http`).
    private var headerLines: [UInt8]
    private var givenHeaders: [String: [String]]?

    /// Response headers, names lowercased, values in arrival order.
    /// - Complexity: O(header bytes) on each read.
    public var headers: [String: [String]] {
        get { givenHeaders ?? Self.parse(headerLines) }
        set { givenHeaders = newValue }
    }

    public init(url: String, status: Int, headers: [String: [String]], body: [UInt8], elapsedMs: Double, httpVersion: String) {
        self.init(url: url, status: status, headerLines: [], body: body, elapsedMs: elapsedMs, httpVersion: httpVersion)
        givenHeaders = headers
    }

    init(url: String, status: Int, headerLines: [UInt8], body: [UInt8], elapsedMs: Double, httpVersion: String) {
        self.url = url
        self.status = status
        self.headerLines = headerLines
        self.body = body
        self.elapsedMs = elapsedMs
        self.httpVersion = httpVersion
    }

    /// The first value of header `name` (any case).
    public func header(_ name: String) -> String? { headers[name.lowercased()]?.first }

    /// `Name: value` lines (CRLF or LF ends) as a dictionary: names lowercased, values trimmed of
    /// spaces and tabs, repeated names in order; a line without a colon is skipped.
    static func parse(_ lines: [UInt8]) -> [String: [String]] {
        var headers: [String: [String]] = [:]
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }
        for line in lines.split(separator: 0x0A) {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { continue }
            var first = colon + 1
            var last = line.endIndex
            while first < last, isSpace(line[first]) { first += 1 }
            while last > first, isSpace(line[last - 1]) { last -= 1 }
            let name = String(decoding: line[..<colon].lazy.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
            headers[name, default: []].append(String(decoding: line[first..<last], as: UTF8.self))
        }
        return headers
    }
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
/// offers it in ALPN (`CURL_HTTP_VERSION_2TLS`, <https://curl.se/libcurl/c/CURLOPT_HTTP_VERSION.html>);
/// plain `http` speaks HTTP/1.1 with keep-alive (h2c needs prior knowledge, which FeedSim does not
/// assume of a user's server). The version each answer came over is ``HTTPExchange/httpVersion``.
public final class HTTPClient {
    /// How an `https` server's certificate is checked; curl's own option names (`--cacert FILE`,
    /// `--insecure`). The default checks it against the system's certificate authorities.
    public struct TLSOptions: Sendable, Equatable {
        /// A PEM file of certificate authorities to trust instead of the system's (`CURLOPT_CAINFO`):
        /// a self-signed server's own certificate, for one.
        public var caFile: String?
        /// Do not check the certificate or its host name at all (`CURLOPT_SSL_VERIFYPEER` and
        /// `CURLOPT_SSL_VERIFYHOST` 0): the connection is encrypted but not authenticated.
        public var insecure: Bool

        public init(caFile: String? = nil, insecure: Bool = false) {
            self.caFile = caFile
            self.insecure = insecure
        }
    }

    /// Extra request headers (`Authorization: Bearer …`).
    public let headers: [String]
    /// Whole-request timeout, milliseconds.
    public let timeoutMs: Int
    public let tls: TLSOptions
    private let handle: UnsafeMutableRawPointer
    private var headerList: UnsafeMutablePointer<curl_slist>?

    /// - Parameters:
    ///   - headers: `Name: value` lines sent with every request.
    ///   - timeoutMs: the most a request may take, connection included (default 10 s).
    ///   - tls: how an `https` server's certificate is checked.
    /// - Throws: ``HTTPClientError`` when libcurl cannot create a handle, rejects a header, or the
    ///   `--cacert` file cannot be read.
    public init(headers: [String] = [], timeoutMs: Int = 10_000, tls: TLSOptions = TLSOptions()) throws {
        _ = HTTPClient.globalSetUp
        if let caFile = tls.caFile, !FileManager.default.isReadableFile(atPath: caFile) {
            throw HTTPClientError("--cacert \(caFile): no such readable file")
        }
        // Checked before anything is allocated: once every stored property is set, a throw runs
        // `deinit`, which frees the handle and the list (freeing them here too was a double free).
        for line in headers where !Self.isHeaderLine(line) {
            throw HTTPClientError("--header '\(line)': expected 'Name: value' on one line")
        }
        guard let handle = curl_easy_init() else { throw HTTPClientError("libcurl could not create a handle") }
        self.handle = handle
        self.headers = headers
        self.timeoutMs = timeoutMs
        self.tls = tls
        for line in headers + ["Accept: application/json"] {
            headerList = curl_slist_append(headerList, line)
        }
    }

    /// Whether `line` can be sent as one request header: `Name: value`, a colon and no line break.
    /// The name before the colon is an RFC 9110 token: not empty, no space or control character.
    public static func isHeaderLine(_ line: String) -> Bool {
        guard let colon = line.firstIndex(of: ":"), !line.contains("\n"), !line.contains("\r") else { return false }
        let name = line[..<colon]
        return !name.isEmpty
            && name.unicodeScalars.allSatisfy {
                $0.value > 0x20 && $0.value < 0x7F && !"()<>@,;\\\"/[]?={}".unicodeScalars.contains($0)
            }
    }

    deinit {
        curl_slist_free_all(headerList)
        curl_easy_cleanup(handle)
        for handle in spare { curl_easy_cleanup(handle) }
    }

    /// libcurl's process-wide set-up, once (thread-safe since 7.84 where the build supports it).
    static let globalSetUp: Void = {
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
        /// The header lines of the last response started (``HTTPExchange/headers`` parses them).
        var headerLines: [UInt8] = []
    }

    private func perform(method: String, url: String, body: [UInt8]?, contentType: String?) throws -> HTTPExchange {
        let transfer = HTTPTransfer(client: self, handle: handle, url: url)
        configure(transfer, method: method, body: body, contentType: contentType)
        let code = withExtendedLifetime(transfer) { curl_easy_perform(handle) }
        return try transfer.exchange(code: code)
    }

    /// Starts `GET url` on the calling thread's multi handle (``HTTPMultiDriver/current``), or runs
    /// it at once when the thread has none; the transfer tells when it is done.
    public func startGet(_ url: String) -> HTTPTransfer {
        let (handle, fresh) = takeSpareHandle()
        let transfer = HTTPTransfer(client: self, handle: handle, url: url)
        if fresh {
            configure(transfer, method: "GET", body: nil, contentType: nil)
        } else {
            aim(transfer)
        }
        if let driver = HTTPMultiDriver.current {
            driver.add(transfer)
        } else {
            transfer.complete(code: curl_easy_perform(transfer.handle))
        }
        return transfer
    }

    /// Easy handles of finished asynchronous transfers, kept for the next one: a multi handle keeps
    /// the connections, so a session with a page and a row batch on the wire at once needs two
    /// easy handles but no second connection set-up.
    private var spare: [UnsafeMutableRawPointer] = []
    /// Guards ``spare``: a transfer given up by its owner is released on the thread driving it.
    private let spareLock = NSLock()

    /// A spare handle (`fresh` false: it carries a GET's options already), or a new one.
    private func takeSpareHandle() -> (handle: UnsafeMutableRawPointer, fresh: Bool) {
        if let handle = spareLock.withLock({ spare.popLast() }) { return (handle, false) }
        guard let handle = curl_easy_init() else { preconditionFailure("libcurl could not create an easy handle") }
        return (handle, true)
    }

    /// Points a spare handle at `transfer`: its URL and sink. Spare handles only ever run GETs
    /// with this client's options, which stay set between transfers (libcurl keeps options until
    /// `curl_easy_reset`), so the reset and the dozen options ``configure(_:method:body:contentType:)``
    /// sets are not paid again for every page request.
    private func aim(_ transfer: HTTPTransfer) {
        let handle = transfer.handle
        let context = Unmanaged.passUnretained(transfer.sink).toOpaque()
        feedsim_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, context)
        feedsim_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, context)
        url(transfer.url) { feedsim_curl_setopt_pointer(handle, CURLOPT_URL, $0) }
        Self.setPipeWait(handle, url: transfer.url)
    }

    /// On a multi handle, an `https` request waits for a connection that may multiplex (HTTP/2 is
    /// negotiated over TLS: ``CURL_HTTP_VERSION_2TLS``) rather than open another
    /// (`CURLOPT_PIPEWAIT`). A plain `http` request is HTTP/1.1, where no connection multiplexes:
    /// with the option set, libcurl 7.88 queued it behind a busy connection to the same host (a
    /// page the server answered at once waited 2 s for a held one; `HTTPMultiDriverTests`).
    private static func setPipeWait(_ handle: UnsafeMutableRawPointer, url: String) {
        let secure = url.utf8.prefix(6).map { $0 | 0x20 }.elementsEqual("https:".utf8)
        feedsim_curl_setopt_long(handle, CURLOPT_PIPEWAIT, secure ? 1 : 0)
    }

    /// A finished transfer's easy handle, back to the spares (the sync handle is never given back).
    func giveBack(_ handle: UnsafeMutableRawPointer) {
        guard handle != self.handle else { return }
        spareLock.withLock { spare.append(handle) }
    }

    private func configure(_ transfer: HTTPTransfer, method: String, body: [UInt8]?, contentType: String?) {
        let handle = transfer.handle
        var extra = headerList
        if let contentType {
            // The shared list plus Content-Type, for this request only.
            for line in headers + ["Accept: application/json", "Content-Type: \(contentType)"] {
                transfer.ownedList = curl_slist_append(transfer.ownedList, line)
            }
            extra = transfer.ownedList
        }
        curl_easy_reset(handle)  // options only: the connection cache survives a reset
        feedsim_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        feedsim_curl_setopt_long(handle, CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_2TLS)
        Self.setPipeWait(handle, url: transfer.url)
        feedsim_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, timeoutMs)
        feedsim_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, min(timeoutMs, 5000))
        feedsim_curl_setopt_long(handle, CURLOPT_TCP_NODELAY, 1)
        feedsim_curl_setopt_pointer(handle, CURLOPT_USERAGENT, "feedsim/1")
        feedsim_curl_setopt_pointer(handle, CURLOPT_ACCEPT_ENCODING, "")  // every encoding libcurl decodes
        feedsim_curl_setopt_pointer(handle, CURLOPT_HTTPHEADER, extra)
        if let caFile = tls.caFile { feedsim_curl_setopt_pointer(handle, CURLOPT_CAINFO, caFile) }
        if tls.insecure {
            feedsim_curl_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 0)
            feedsim_curl_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 0)
        }
        let context = Unmanaged.passUnretained(transfer.sink).toOpaque()
        feedsim_curl_setopt_write_function(handle, CURLOPT_WRITEFUNCTION, feedSimCurlWrite)
        feedsim_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, context)
        feedsim_curl_setopt_write_function(handle, CURLOPT_HEADERFUNCTION, feedSimCurlHeader)
        feedsim_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, context)
        // libcurl copies string options (CURLOPT_URL, CUSTOMREQUEST) and COPYPOSTFIELDS.
        url(transfer.url) { feedsim_curl_setopt_pointer(handle, CURLOPT_URL, $0) }
        if method != "GET" { feedsim_curl_setopt_pointer(handle, CURLOPT_CUSTOMREQUEST, method) }
        if let body {
            body.withUnsafeBytes { bytes in
                feedsim_curl_setopt_long(handle, CURLOPT_POSTFIELDSIZE, bytes.count)
                feedsim_curl_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, bytes.baseAddress)
            }
        }
    }

    private func url(_ text: String, _ body: (UnsafePointer<CChar>) -> Void) {
        text.withCString(body)
    }
}

/// One request on an easy handle: started, then completed by the thread that drives it (the
/// caller's, or a worker's ``HTTPMultiDriver``), then read by its owner (``exchange(code:)``).
public final class HTTPTransfer: @unchecked Sendable {  // the sink and handle are the driving thread's until `state` says done (under its lock), then the owner's
    let client: HTTPClient
    let handle: UnsafeMutableRawPointer
    public let url: String
    let sink = HTTPClient.Sink()
    var ownedList: UnsafeMutablePointer<curl_slist>?
    private let state = Mutex<Int32?>(nil)
    private var read = false

    init(client: HTTPClient, handle: UnsafeMutableRawPointer, url: String) {
        self.client = client
        self.handle = handle
        self.url = url
    }

    deinit {
        curl_slist_free_all(ownedList)
        if !read { client.giveBack(handle) }
    }

    /// Whether the transfer has finished (answered, failed or abandoned); safe from any thread.
    public var isDone: Bool { state.withLock { $0 != nil } }

    /// Called once by the driving thread.
    func complete(code: CURLcode) {
        state.withLock { $0 = Int32(bitPattern: code.rawValue) }
    }

    /// The request's time on the wire, ms, once done.
    public var elapsedMs: Double {
        var seconds = 0.0
        feedsim_curl_getinfo_double(handle, CURLINFO_TOTAL_TIME, &seconds)
        return seconds * 1000
    }

    /// The answer of a finished transfer. - Throws: ``HTTPTransportError`` when no HTTP answer arrived.
    public func exchange() throws -> HTTPExchange {
        guard let raw = state.withLock({ $0 }) else { preconditionFailure("exchange() before the transfer finished") }
        return try exchange(code: CURLcode(rawValue: UInt32(bitPattern: raw)))
    }

    func exchange(code: CURLcode) throws -> HTTPExchange {
        defer {
            if !read {
                read = true
                client.giveBack(handle)
            }
        }
        let elapsed = elapsedMs
        guard code == CURLE_OK else {
            throw HTTPTransportError(
                url: url, reason: String(cString: curl_easy_strerror(code)), timedOut: code == CURLE_OPERATION_TIMEDOUT,
                elapsedMs: elapsed)
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
            url: url, status: status, headerLines: sink.headerLines, body: sink.body, elapsedMs: elapsed,
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

/// One header line per call (`Name: value\r\n`), kept as bytes; a new status line (after a
/// redirect or a `100 Continue`) starts the set again.
private let feedSimCurlHeader: feedsim_curl_write_callback = { data, size, count, context in
    guard let data, let context else { return 0 }
    let sink = Unmanaged<HTTPClient.Sink>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    data.withMemoryRebound(to: UInt8.self, capacity: length) { start in
        let bytes = UnsafeBufferPointer(start: start, count: length)
        if bytes.starts(with: "HTTP/".utf8) {
            sink.headerLines.removeAll(keepingCapacity: true)
            return
        }
        sink.headerLines.append(contentsOf: bytes)
    }
    return length
}
