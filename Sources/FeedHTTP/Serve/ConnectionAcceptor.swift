internal import FeedSimHTTPD
import Foundation
import Synchronization

/// `feedsim serve`'s listen socket and the thread that accepts its connections, handing each to
/// the libmicrohttpd daemon (one worker thread each) with the fewest open connections.
///
/// libmicrohttpd's own thread pool lets every worker thread accept from one shared listen socket,
/// so whichever thread wakes first takes the connection, and with a few keep-alive connections the
/// split is luck. With 2 threads and 4 connections (`feedsim bench http`, a small load test), serve
/// used one thread's core only (0.99 cores by `perf stat -p`) in 4 of 17 runs of `wrk -t 2 -c 4`,
/// which then got 5,741–6,704 requests/s against 8,981–10,268 in the others (2 cores, 2026-12-02);
/// `bench http`'s ratio swung with the draw. Least connections (nginx's `least_conn`, HAProxy's
/// `leastconn`) spreads them evenly: serve used 1.60–1.65 cores in every run after.
// @unchecked: `daemons` is set before the thread starts, then read by it only; the sockets are
// closed once it has ended.
final class ConnectionAcceptor: @unchecked Sendable {
    /// Open connections per daemon, counted by libmicrohttpd's start / close notifications.
    final class DaemonLoad: Sendable {
        let open = Atomic<Int>(0)
    }

    let loads: [DaemonLoad]
    /// The port listened on (the kernel's choice when asked for 0).
    let port: UInt16
    private let listener: Int32
    private let wake: (read: Int32, write: Int32)
    private let ended = DispatchSemaphore(value: 0)
    private let stopped = Atomic<Bool>(false)
    private let started = Atomic<Bool>(false)
    private let connectionLimit: Int
    private var daemons: [OpaquePointer] = []

    /// Binds and listens on `address` (backlog 1024, `SO_REUSEADDR`, IPv6 only for an IPv6 address,
    /// as libmicrohttpd sets its own listen socket).
    /// - Throws: ``FeedServerError`` when the socket cannot be bound (the address is in use or not
    ///   the machine's).
    init(address storage: sockaddr_storage, family: Int32, daemons count: Int, connectionLimit: Int) throws {
        let fd = socket(family, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw FeedServerError("cannot open a socket: \(String(cString: strerror(errno)))") }
        var on: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        if family == AF_INET6 {
            setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &on, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = storage
        let length = socklen_t(family == AF_INET6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && listen(fd, 1024) == 0 }
        }
        guard bound else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw FeedServerError(reason)
        }
        var chosen = sockaddr_storage()
        var chosenLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &chosen) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &chosenLength) }
        }
        port = withUnsafeBytes(of: chosen) { bytes in
            // sin_port and sin6_port are both the 2 bytes after the family, in network order.
            UInt16(bigEndian: bytes.loadUnaligned(fromByteOffset: 2, as: UInt16.self))
        }
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else {
            close(fd)
            throw FeedServerError("cannot open a pipe: \(String(cString: strerror(errno)))")
        }
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        listener = fd
        wake = (pipeEnds[0], pipeEnds[1])
        loads = (0..<max(1, count)).map { _ in DaemonLoad() }
        self.connectionLimit = connectionLimit
    }

    /// Starts the accepting thread: each connection goes to `daemons[i]`, `i` chosen by
    /// ``leastLoaded(_:startingAt:)`` over ``loads``; over the connection limit it is closed.
    func start(daemons: [OpaquePointer]) {
        precondition(daemons.count == loads.count, "one load count per daemon")
        precondition(!started.load(ordering: .relaxed), "started once")
        self.daemons = daemons  // before the thread starts, read by it only
        started.store(true, ordering: .releasing)
        let thread = Thread { [self] in
            feedsim_name_this_thread("serve-accept")
            acceptLoop()
            ended.signal()
        }
        thread.start()
    }

    /// Stops accepting and closes the listen socket, once the thread has ended (new connections
    /// are refused from then on); before ``start(daemons:)`` (a daemon that could not start) it
    /// only closes. Idempotent.
    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        if started.load(ordering: .acquiring) {
            var byte: UInt8 = 1
            _ = write(wake.write, &byte, 1)
            ended.wait()
        }
        close(listener)
        close(wake.read)
        close(wake.write)
    }

    /// The daemon a new connection goes to: the one with the fewest open connections; ties go to
    /// the first at or after `start` (round robin), so connections that arrive before the daemons
    /// have counted the last ones still alternate.
    /// - Complexity: O(daemons).
    static func leastLoaded(_ open: [Int], startingAt start: Int) -> Int {
        precondition(!open.isEmpty, "at least one daemon")
        var best = start % open.count
        for step in 1..<max(1, open.count) {
            let index = (start + step) % open.count
            if open[index] < open[best] { best = index }
        }
        return best
    }

    private func acceptLoop() {
        var next = 0
        var fds = [
            pollfd(fd: listener, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            fds[0].revents = 0
            fds[1].revents = 0
            let ready = poll(&fds, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                FileHandle.standardError.write(
                    Data(
                        "feedsim serve: no longer accepting connections: poll: \(String(cString: strerror(errno)))\n"
                            .utf8))
                return
            }
            if fds[1].revents != 0 || stopped.load(ordering: .acquiring) { return }
            var address = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let client = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    accept(listener, $0, &length)
                }
            }
            guard client >= 0 else {
                // Out of descriptors: wait a little rather than spin on a listener that stays readable.
                if errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM { usleep(10_000) }
                continue
            }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
            let open = loads.map { $0.open.load(ordering: .relaxed) }
            guard open.reduce(0, +) < connectionLimit else {
                close(client)
                continue
            }
            let index = Self.leastLoaded(open, startingAt: next)
            next = index + 1
            // libmicrohttpd owns the socket from here and closes it even when it refuses it.
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    MHD_add_connection(daemons[index], client, $0, length)
                }
            }
        }
    }
}

/// libmicrohttpd's connection notifications: `cls` is the daemon's ``ConnectionAcceptor/DaemonLoad``.
let feedSimConnectionNotify: MHD_NotifyConnectionCallback = { cls, _, _, code in
    guard let cls else { return }
    let load = Unmanaged<ConnectionAcceptor.DaemonLoad>.fromOpaque(cls).takeUnretainedValue()
    // MHD_CONNECTION_NOTIFY_STARTED is 0, MHD_CONNECTION_NOTIFY_CLOSED 1 (microhttpd.h).
    if code.rawValue == 0 {
        load.open.wrappingAdd(1, ordering: .relaxed)
    } else {
        load.open.wrappingSubtract(1, ordering: .relaxed)
    }
}
