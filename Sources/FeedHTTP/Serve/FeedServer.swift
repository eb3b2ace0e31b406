import FeedModel
internal import FeedSimHTTPD
import Foundation
import Synchronization

/// `feedsim serve`: any backend as the HTTP API of ``FeedAPI``, on GNU libmicrohttpd.
///
/// libmicrohttpd parses HTTP (no parsing here) in ``Configuration/threads`` daemons of one worker
/// thread each, each thread with its own ``FeedCatalog`` (backends are one-thread-at-a-time);
/// ``ConnectionAcceptor`` gives each new connection to the daemon with the fewest open ones. A
/// response that the ``ResponsePlanner`` delays is built at once (a snapshot of that moment, as
/// a replay's page is), then its connection is suspended and resumed after the delay by a timer,
/// so a held response never blocks its worker thread. A timeout fault holds, then closes the
/// connection without an answer.
///
/// Bad requests never reach the API half-parsed: libmicrohttpd answers a request line or header
/// longer than ``Configuration/connectionMemoryLimit`` with 414 / 431, closes connections idle
/// for ``Configuration/connectionTimeoutSeconds`` (slowloris-style partial headers), and bodies
/// over ``FeedAPI/maximumBodyBytes`` get 413.
public final class FeedServer: @unchecked Sendable {  // mutable state is behind Mutex and Atomic; `daemon` is set in init only
    public struct Configuration: Sendable {
        /// An IPv4 or IPv6 literal to bind (`127.0.0.1`, `::1`, `0.0.0.0`).
        public var host: String
        /// `0`: the kernel picks a free port (read it from ``FeedServer/port``).
        public var port: UInt16
        /// Worker threads, each with its own backend connection.
        public var threads: Int
        public var connectionTimeoutSeconds: Int
        public var connectionLimit: Int
        /// Bytes per connection for the request line, headers and buffers.
        public var connectionMemoryLimit: Int
        /// The latency and faults injected per request; `nil` answers at once.
        public var planner: ResponsePlanner?
        public var accessLog: AccessLog?

        public init(
            host: String = "127.0.0.1", port: UInt16 = 8080, threads: Int = 4, connectionTimeoutSeconds: Int = 10,
            connectionLimit: Int = 1000, connectionMemoryLimit: Int = 64 * 1024, planner: ResponsePlanner? = nil,
            accessLog: AccessLog? = nil
        ) {
            self.host = host
            self.port = port
            self.threads = threads
            self.connectionTimeoutSeconds = connectionTimeoutSeconds
            self.connectionLimit = connectionLimit
            self.connectionMemoryLimit = connectionMemoryLimit
            self.planner = planner
            self.accessLog = accessLog
        }
    }

    public let configuration: Configuration
    /// The port listened on (the kernel's choice when the configuration asked for 0).
    public private(set) var port: UInt16 = 0
    /// One libmicrohttpd daemon per worker thread; empty once stopped.
    private var daemons: [OpaquePointer] = []
    private let acceptor: ConnectionAcceptor
    private let openCatalog: @Sendable () throws -> any FeedCatalog
    private let catalogs = Mutex<[UInt: CatalogSlot]>([:])
    private let requestCount = Atomic<UInt64>(0)
    private let inFlight = Atomic<Int>(0)
    private let startNs = monotonicNanoseconds()
    private let timers = DispatchQueue(label: "feedsim.serve.timers", attributes: .concurrent)
    /// The suspended connections by request index. Whoever takes one out resumes it (its timer, or
    /// ``stop(grace:)``), so each is resumed once; once stopping, nothing more is suspended.
    private let held = Mutex(HeldConnections())
    private let hurry = Atomic<Bool>(false)

    struct HeldConnections: Sendable {
        var stopping = false
        var byRequest: [UInt64: HeldConnection] = [:]
    }

    /// Starts listening.
    /// - Parameter openCatalog: opens a catalog (one connection) for a worker thread; called once
    ///   per worker thread, on that thread, at its first request.
    /// - Throws: ``FeedServerError`` when the address is not an IP literal or cannot be bound.
    public init(configuration: Configuration, openCatalog: @escaping @Sendable () throws -> any FeedCatalog) throws {
        self.configuration = configuration
        self.openCatalog = openCatalog
        var storage = sockaddr_storage()
        let family = try Self.address(configuration.host, port: configuration.port, into: &storage)
        let threads = max(1, configuration.threads)
        do {
            acceptor = try ConnectionAcceptor(
                address: storage, family: family, daemons: threads, connectionLimit: max(1, configuration.connectionLimit))
        } catch let error as FeedServerError {
            throw FeedServerError("cannot listen on \(configuration.host):\(configuration.port): \(error.message)")
        }
        port = acceptor.port
        var settings = feedsim_mhd_settings(
            flags: MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_AUTO.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue,
            connection_timeout_seconds: UInt32(max(1, configuration.connectionTimeoutSeconds)),
            // Each daemon's share of the limit, a hard one (the acceptor's check of the total reads
            // counts the daemons update after they take a connection over, so a burst could pass it).
            connection_limit: UInt32((max(1, configuration.connectionLimit) + threads - 1) / threads),
            connection_memory_limit: max(8192, configuration.connectionMemoryLimit))
        for load in acceptor.loads {
            guard
                let daemon = feedsim_mhd_start(
                    &settings, feedSimAccessHandler, feedSimRequestCompleted, Unmanaged.passUnretained(self).toOpaque(),
                    feedSimConnectionNotify, Unmanaged.passUnretained(load).toOpaque())
            else {
                // Every stored property is set, so the throw runs `deinit`, which closes the listener
                // and stops the daemons started so far (stopping them here too would stop them twice).
                throw FeedServerError(
                    "cannot start libmicrohttpd's worker thread \(daemons.count + 1) of \(threads) (out of file descriptors or threads?)")
            }
            daemons.append(daemon)
        }
        acceptor.start(daemons: daemons)
    }

    deinit {
        stop(grace: 0)  // held connections are resumed first, as in a stop; nothing if stopped already
        acceptor.stop()  // after an init that threw before any daemon started
    }

    /// Stops accepting connections, waits up to `grace` seconds for requests in flight (held ones
    /// included) to finish, then stops the worker threads. Idempotent.
    ///
    /// From the start, a request that arrives on a connection kept alive is answered at once (not
    /// held) with `Connection: close`. Held requests still waiting when the grace ends (or at
    /// ``stopNow()``) are answered then: libmicrohttpd aborts the process when it is stopped with a
    /// suspended connection ("MHD_stop_daemon() called while we have suspended connections").
    public func stop(grace: Double = 30) {
        guard !daemons.isEmpty else { return }
        held.withLock { $0.stopping = true }
        acceptor.stop()
        wait(until: monotonicNanoseconds() + UInt64(max(0, grace) * 1e9))
        let remaining = held.withLock { registry in
            defer { registry.byRequest.removeAll() }
            return Array(registry.byRequest.values)
        }
        for connection in remaining { MHD_resume_connection(connection.pointer) }
        if !remaining.isEmpty {  // their answers go out (not cut short by ``stopNow()``: that is what it asked for)
            wait(until: monotonicNanoseconds() + 2_000_000_000, evenInAHurry: true)
        }
        for daemon in daemons { MHD_stop_daemon(daemon) }
        catalogs.withLock { $0.removeAll() }  // their threads have ended (``workerCPUSeconds``)
        daemons = []
    }

    /// Cuts ``stop(grace:)``'s waiting short (a second Ctrl-C): held requests are answered now.
    public func stopNow() {
        hurry.store(true, ordering: .releasing)
    }

    /// Waits until nothing is in flight, `deadline` (monotonic nanoseconds) or, unless
    /// `evenInAHurry`, ``stopNow()``.
    private func wait(until deadline: UInt64, evenInAHurry: Bool = false) {
        while inFlight.load(ordering: .acquiring) > 0 && monotonicNanoseconds() < deadline
            && (evenInAHurry || !hurry.load(ordering: .acquiring))
        {
            usleep(2000)
        }
    }

    /// Open connections per worker thread (daemon), in daemon order: how ``ConnectionAcceptor``
    /// spread the clients. A connection counts from when its daemon has taken it over until it closes.
    public var openConnectionsPerWorker: [Int] {
        acceptor.loads.map { $0.open.load(ordering: .relaxed) }
    }

    /// Requests received so far.
    public var requestsReceived: UInt64 { requestCount.load(ordering: .relaxed) }

    /// On-CPU seconds (user + system) of the worker threads that have answered API requests so
    /// far, read from each thread's CPU clock (`pthread_getcpuclockid`, `clock_gettime`): the
    /// server's share of a machine it shares with its clients (`feedsim bench http`).
    public var workerCPUSeconds: Double {
        catalogs.withLock { slots in
            slots.values.reduce(0.0) { total, slot in
                var clock = clockid_t()
                var time = timespec()
                guard pthread_getcpuclockid(slot.thread, &clock) == 0, clock_gettime(clock, &time) == 0 else { return total }
                return total + Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
            }
        }
    }

    // MARK: - Requests

    /// One request's state across libmicrohttpd's calls of the handler (kept in its `con_cls`).
    final class RequestState {
        let index: UInt64
        let arrivalNs: UInt64
        var body: [UInt8] = []
        var bodyTooLarge = false
        var prepared: HTTPResponse?
        var closeWithoutAnswer = false
        var held = false
        var status: Int?
        var bytes = 0
        var method = ""
        var target = ""
        var version = ""
        var client = "-"

        init(index: UInt64, arrivalNs: UInt64) {
            self.index = index
            self.arrivalNs = arrivalNs
        }
    }

    /// A connection pointer handed to the timer that resumes it (libmicrohttpd allows
    /// `MHD_resume_connection` from any thread).
    struct HeldConnection: @unchecked Sendable {  // an opaque C handle, used once by the timer
        var pointer: OpaquePointer
    }

    func handle(
        connection: OpaquePointer, url: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?, version: UnsafePointer<CChar>?,
        upload: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>, context: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        guard let opaque = context.pointee else {
            let state = RequestState(
                index: requestCount.wrappingAdd(1, ordering: .relaxed).oldValue, arrivalNs: monotonicNanoseconds())
            state.method = method.map { String(cString: $0) } ?? "-"
            if configuration.accessLog != nil {  // what only the access log line reads
                state.version = version.map { String(cString: $0) } ?? "-"
                state.client = Self.clientAddress(connection)
            }
            inFlight.wrappingAdd(1, ordering: .relaxed)
            context.pointee = Unmanaged.passRetained(state).toOpaque()
            return .YES
        }
        let state = Unmanaged<RequestState>.fromOpaque(opaque).takeUnretainedValue()
        if uploadSize.pointee > 0 {
            if state.body.count + uploadSize.pointee > FeedAPI.maximumBodyBytes {
                state.bodyTooLarge = true
            } else if let upload {
                upload.withMemoryRebound(to: UInt8.self, capacity: uploadSize.pointee) {
                    state.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: uploadSize.pointee))
                }
            }
            uploadSize.pointee = 0
            return .YES
        }
        if state.held {
            return send(state, connection)  // resumed after its delay
        }
        let plan = prepare(state, connection: connection, url: url)
        var holdMs = plan.delayMs
        if case .timeout(let ms) = plan.fault { holdMs = ms }
        guard holdMs > 0 else { return send(state, connection) }
        // Registered and suspended under the lock ``stop(grace:)`` sweeps with, so a connection is
        // either suspended before the sweep (and resumed by it) or never held.
        let index = state.index
        let suspended = held.withLock { registry -> Bool in
            guard !registry.stopping else { return false }
            registry.byRequest[index] = HeldConnection(pointer: connection)
            MHD_suspend_connection(connection)
            return true
        }
        guard suspended else { return send(state, connection) }  // stopping: answered at once
        state.held = true
        timers.asyncAfter(deadline: .now() + .microseconds(Int(holdMs * 1000))) { [self] in
            if let connection = held.withLock({ $0.byRequest.removeValue(forKey: index) }) {
                MHD_resume_connection(connection.pointer)
            }
        }
        return .YES
    }

    /// Builds the response (or decides to close) now, and returns the plan that says when to send it.
    private func prepare(_ state: RequestState, connection: OpaquePointer, url: UnsafePointer<CChar>?) -> ResponsePlan {
        let arguments = Self.queryArguments(connection)
        let path = url.flatMap { String(validatingCString: $0) }
        if configuration.accessLog != nil {
            state.target = (url.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: strlen($0)), as: UTF8.self) } ?? "")
                + Self.queryText(arguments)
        }
        let isPreflight = state.method == "OPTIONS"
        let plan =
            isPreflight
            ? .immediate : (configuration.planner?(state.index, Double(state.arrivalNs - startNs) / 1e6) ?? .immediate)
        switch plan.fault {
        case .timeout:
            state.closeWithoutAnswer = true
            return plan
        case .serverError:
            state.prepared = .error(500, code: "injected_error", "injected server error (--faults error=...)")
            return plan
        case .outage:
            state.prepared = .error(503, code: "injected_outage", "injected outage (--faults outage=...)")
            return plan
        case .rateLimited(let seconds):
            state.prepared = .error(
                429, code: "injected_rate_limit", "injected rate limit (--faults rate-limit=...)",
                headers: [("Retry-After", String(seconds))])
            return plan
        case .none:
            break
        }
        guard let path else {
            state.prepared = .error(400, code: "invalid_path", "the path is not UTF-8 text")
            return plan
        }
        if state.bodyTooLarge {
            state.prepared = .error(413, code: "body_too_large", "the body is over \(FeedAPI.maximumBodyBytes) bytes")
            return plan
        }
        // A parameter given twice (`limit=2&limit=3`): which one is meant? The first was used, silently.
        var names = Set<String>()
        if let repeated = arguments.first(where: { !names.insert($0.0).inserted }) {
            state.prepared = .error(400, code: "invalid_parameter", "\(repeated.0) is given twice", parameter: repeated.0)
            return plan
        }
        let contentType = MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Type").map { String(cString: $0) }
        let request = APIRequest(
            method: state.method, path: path,
            query: { name in
                guard let entry = arguments.first(where: { $0.0 == name }) else { return nil }
                return .some(entry.1)
            }, body: state.body, contentType: contentType)
        do {
            let catalog = try catalogForThisThread()
            state.prepared = try FeedAPI.respond(to: request, catalog: catalog)
        } catch {
            state.prepared = .error(500, code: "backend_error", "the backend failed: \(error)")
            // The operator sees it too, not only the client (a corrupt database answered 500s silently).
            FileHandle.standardError.write(Data("feedsim serve: \(state.method) \(path): the backend failed: \(error)\n".utf8))
        }
        return plan
    }

    private func send(_ state: RequestState, _ connection: OpaquePointer) -> MHD_Result {
        if state.closeWithoutAnswer { return .NO }
        let answer = state.prepared ?? .error(500, code: "internal", "no response prepared")
        let response: OpaquePointer? = answer.body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(
                bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let response else { return .NO }
        defer { MHD_destroy_response(response) }
        for (name, value) in answer.headers + Self.corsHeaders {
            MHD_add_response_header(response, name, value)
        }
        // While stopping, a kept-alive client is told to go (and its next connection is refused).
        if held.withLock({ $0.stopping }) { MHD_add_response_header(response, "Connection", "close") }
        state.status = answer.status
        state.bytes = answer.body.count
        return MHD_queue_response(connection, UInt32(answer.status), response)
    }

    /// CORS (Fetch standard): any origin may call the API and read the headers a client needs.
    static let corsHeaders: [(String, String)] = [
        ("Access-Control-Allow-Origin", "*"),
        ("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS"),
        ("Access-Control-Allow-Headers", "Content-Type, Authorization"),
        ("Access-Control-Expose-Headers", "Retry-After, Link"),
        ("Access-Control-Max-Age", "600"),
    ]

    func completed(_ context: UnsafeMutablePointer<UnsafeMutableRawPointer?>?) {
        guard let context, let opaque = context.pointee else { return }
        let state = Unmanaged<RequestState>.fromOpaque(opaque).takeRetainedValue()
        context.pointee = nil
        configuration.accessLog?.write(
            client: state.client, method: state.method, target: state.target, version: state.version,
            status: state.status, bytes: state.bytes, ms: Double(monotonicNanoseconds() - state.arrivalNs) / 1e6)
        inFlight.wrappingSubtract(1, ordering: .releasing)
    }

    // MARK: - Per-thread catalogs

    /// One worker thread's catalog, used by that thread only.
    final class CatalogSlot: @unchecked Sendable {  // touched only by the thread whose id keys it
        let catalog: any FeedCatalog
        /// The worker thread (its CPU clock is read by ``workerCPUSeconds``; libmicrohttpd's
        /// worker threads live until their daemons stop, and the slots with them).
        let thread: pthread_t
        init(_ catalog: any FeedCatalog, thread: pthread_t) {
            self.catalog = catalog
            self.thread = thread
        }
    }

    private func catalogForThisThread() throws -> any FeedCatalog {
        let key = UInt(pthread_self())
        if let slot = catalogs.withLock({ $0[key] }) { return slot.catalog }
        let slot = CatalogSlot(try openCatalog(), thread: pthread_self())
        catalogs.withLock { $0[key] = slot }
        return slot.catalog
    }

    // MARK: - C helpers

    /// The query arguments libmicrohttpd parsed and percent-decoded, in order; a value that is not
    /// UTF-8 is `nil`. Read with their lengths (`MHD_get_connection_values_n`), so a decoded NUL
    /// (`?limit=2%00`) stays in the value, which then fails its check, instead of ending it.
    static func queryArguments(_ connection: OpaquePointer) -> [(String, String?)] {
        final class Box { var pairs: [(String, String?)] = [] }
        let box = Box()
        _ = withExtendedLifetime(box) {
            MHD_get_connection_values_n(
                connection, .GET_ARGUMENT_KIND,
                { context, _, key, keySize, value, valueSize in
                    let box = Unmanaged<Box>.fromOpaque(context!).takeUnretainedValue()
                    func bytes(_ text: UnsafePointer<CChar>, _ count: Int) -> UnsafeBufferPointer<UInt8> {
                        UnsafeBufferPointer(start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), count: count)
                    }
                    let name = key.map { String(decoding: bytes($0, keySize), as: UTF8.self) } ?? ""
                    let text = value.map { String(validating: bytes($0, valueSize), as: UTF8.self) } ?? ""
                    box.pairs.append((name, text))
                    return .YES
                }, Unmanaged.passUnretained(box).toOpaque())
        }
        return box.pairs
    }

    static func queryText(_ arguments: [(String, String?)]) -> String {
        guard !arguments.isEmpty else { return "" }
        return "?" + arguments.map { "\($0.0)=\($0.1 ?? "<not UTF-8>")" }.joined(separator: "&")
    }

    static func clientAddress(_ connection: OpaquePointer) -> String {
        guard let address = feedsim_mhd_client_address(connection) else { return "-" }
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        let length = socklen_t(address.pointee.sa_family == AF_INET6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
        guard getnameinfo(address, length, &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST) == 0 else { return "-" }
        return String(cString: host)
    }

    /// Fills `storage` with `host:port`. - Returns: the address family.
    static func address(_ host: String, port: UInt16, into storage: inout sockaddr_storage) throws -> Int32 {
        var v4 = sockaddr_in()
        if inet_pton(AF_INET, host, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
            withUnsafeMutableBytes(of: &storage) { target in withUnsafeBytes(of: v4) { target.copyMemory(from: $0) } }
            return AF_INET
        }
        var v6 = sockaddr_in6()
        if inet_pton(AF_INET6, host, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = port.bigEndian
            withUnsafeMutableBytes(of: &storage) { target in withUnsafeBytes(of: v6) { target.copyMemory(from: $0) } }
            return AF_INET6
        }
        throw FeedServerError("--listen: '\(host)' is not an IPv4 or IPv6 address")
    }
}

/// The server cannot start.
public struct FeedServerError: Error, CustomStringConvertible {
    public var message: String
    init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// CLOCK_MONOTONIC in nanoseconds.
func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

private let feedSimAccessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, version, upload, uploadSize, context in
    guard let cls, let connection, let uploadSize, let context else { return .NO }
    let server = Unmanaged<FeedServer>.fromOpaque(cls).takeUnretainedValue()
    return server.handle(
        connection: connection, url: url, method: method, version: version, upload: upload, uploadSize: uploadSize,
        context: context)
}

private let feedSimRequestCompleted: MHD_RequestCompletedCallback = { cls, _, context, _ in
    guard let cls else { return }
    Unmanaged<FeedServer>.fromOpaque(cls).takeUnretainedValue().completed(context)
}
