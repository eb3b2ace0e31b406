internal import FeedSimCurl
import FeedModel
import Foundation

/// One libcurl multi handle, owned by one thread (a load tester's worker), carrying the requests
/// of every session that thread runs: they share its connection cache (keep-alive, one TLS
/// handshake per connection) and, on HTTP/2, multiplex over one connection (`CURLOPT_PIPEWAIT`,
/// `CURLMOPT_PIPELINING` = `CURLPIPE_MULTIPLEX`, <https://curl.se/libcurl/c/CURLMOPT_PIPELINING.html>).
///
/// ``HTTPClient/startGet(_:)`` adds its transfer here when the calling thread has a driver
/// (``current``); the thread moves every transfer on with ``perform()`` between its other work and
/// waits in ``wait(microseconds:)`` when it has nothing else to do. A finished transfer is removed
/// from the multi handle on this thread, then marked done, after which its owner may read it on
/// any thread.
///
/// The handle is driven by libcurl's multi_socket API over an epoll set
/// (`curl_multi_socket_action`, <https://curl.se/libcurl/c/curl_multi_socket_action.html>):
/// ``perform()`` is one `epoll_wait` that returns at once and hands libcurl only the sockets that
/// are ready, where `curl_multi_perform` visited every transfer and `curl_multi_poll` rebuilt its
/// descriptor list on each call (callgrind under `feedsim load --source`, 2026-12-01: driving the
/// handle went from about 172k to 118k instructions per page request, and one syscall per
/// ``perform()`` instead of a poll and a recv per transfer).
public final class HTTPMultiDriver: WorkerIO {
    private let multi: UnsafeMutableRawPointer
    private var transfers: [UnsafeMutableRawPointer: HTTPTransfer] = [:]
    private let thread = pthread_self()
    /// The epoll set and libcurl's timer (written by the callbacks in the shim).
    private let events: UnsafeMutablePointer<feedsim_curl_epoll>

    /// Creates a driver and installs it as the calling thread's ``current``.
    public init() {
        _ = HTTPClient.globalSetUp
        guard let multi = curl_multi_init() else { preconditionFailure("libcurl could not create a multi handle") }
        let epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epollFD >= 0 else { preconditionFailure("epoll_create1 failed: \(String(cString: strerror(errno)))") }
        self.multi = multi
        events = .allocate(capacity: 1)
        events.initialize(to: feedsim_curl_epoll(epoll_fd: epollFD, timer_due_ns: -1))
        feedsim_curl_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        feedsim_curl_epoll_install(multi, events)
        Self.install(self)
    }

    deinit {
        cancelAll()
        curl_multi_cleanup(multi)
        close(events.pointee.epoll_fd)
        events.deallocate()
    }

    /// The thread's installed driver, retained; released when the thread ends or at ``uninstall()``.
    /// A pthread key, not `Thread.current.threadDictionary`: every request looks its driver up, and
    /// the dictionary's lookup was 3 % of a load worker's CPU (`perf` under `feedsim bench http`).
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let created = pthread_key_create(&key) { pointer in
            if let pointer { Unmanaged<HTTPMultiDriver>.fromOpaque(pointer).release() }
        }
        precondition(created == 0, "pthread_key_create failed")
        return key
    }()

    private static func install(_ driver: HTTPMultiDriver?) {
        if let old = pthread_getspecific(key) { Unmanaged<HTTPMultiDriver>.fromOpaque(old).release() }
        pthread_setspecific(key, driver.map { Unmanaged.passRetained($0).toOpaque() })
    }

    /// The calling thread's driver, if one was created on it and is still installed.
    public static var current: HTTPMultiDriver? {
        pthread_getspecific(key).map { Unmanaged<HTTPMultiDriver>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Removes the calling thread's driver (it ends when the last reference goes).
    public static func uninstall() {
        install(nil)
    }

    public var inFlight: Int { transfers.count }

    func add(_ transfer: HTTPTransfer) {
        precondition(pthread_equal(thread, pthread_self()) != 0, "a multi handle is driven by its own thread")
        transfers[transfer.handle] = transfer
        let code = curl_multi_add_handle(multi, transfer.handle)
        if code != CURLM_OK {
            transfers[transfer.handle] = nil
            transfer.complete(code: CURLE_FAILED_INIT)
            return
        }
        perform()
    }

    public func perform() {
        guard !transfers.isEmpty else { return }
        drive(timeoutMs: 0)
    }

    /// One `epoll_wait` of up to `timeoutMs` (cut to libcurl's timer), the ready sockets handed to
    /// libcurl, then the finished transfers marked done.
    private func drive(timeoutMs: Int32) {
        feedsim_curl_epoll_drive(multi, events, timeoutMs)
        var handle: UnsafeMutableRawPointer?
        var result = CURLE_OK
        while feedsim_curl_multi_next_done(multi, &handle, &result) != 0 {
            guard let done = handle else { continue }
            curl_multi_remove_handle(multi, done)
            transfers.removeValue(forKey: done)?.complete(code: result)
        }
    }

    /// Waits in `epoll_wait` for whole milliseconds (it returns at once on socket activity, or
    /// when libcurl's timer is due); a wait under 1 ms sleeps, then moves the transfers on.
    public func wait(microseconds: Int) {
        guard !transfers.isEmpty, microseconds >= 1000 else {
            if microseconds > 0 { usleep(UInt32(microseconds)) }
            perform()
            return
        }
        drive(timeoutMs: Int32(min(microseconds / 1000, 1000)))
    }

    public func cancelAll() {
        for (handle, transfer) in transfers {
            curl_multi_remove_handle(multi, handle)
            transfer.complete(code: CURLE_ABORTED_BY_CALLBACK)
        }
        transfers.removeAll()
    }
}
