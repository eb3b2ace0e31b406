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
/// waits in ``wait(milliseconds:)`` (`curl_multi_poll`) when it has nothing else to do. A finished
/// transfer is removed from the multi handle on this thread, then marked done, after which its
/// owner may read it on any thread.
public final class HTTPMultiDriver: WorkerIO {
    private let multi: UnsafeMutableRawPointer
    private var transfers: [UnsafeMutableRawPointer: HTTPTransfer] = [:]
    private let thread = pthread_self()

    /// Creates a driver and installs it as the calling thread's ``current``.
    public init() {
        _ = HTTPClient.globalSetUp
        guard let multi = curl_multi_init() else { preconditionFailure("libcurl could not create a multi handle") }
        self.multi = multi
        feedsim_curl_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        Thread.current.threadDictionary[Self.key] = self
    }

    deinit {
        cancelAll()
        curl_multi_cleanup(multi)
    }

    private static let key = "FeedHTTP.HTTPMultiDriver"

    /// The calling thread's driver, if one was created on it and is still installed.
    public static var current: HTTPMultiDriver? {
        Thread.current.threadDictionary[key] as? HTTPMultiDriver
    }

    /// Removes the calling thread's driver (it ends when the last reference goes).
    public static func uninstall() {
        Thread.current.threadDictionary.removeObject(forKey: key)
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
        var running: Int32 = 0
        curl_multi_perform(multi, &running)
        var handle: UnsafeMutableRawPointer?
        var result = CURLE_OK
        while feedsim_curl_multi_next_done(multi, &handle, &result) != 0 {
            guard let done = handle else { continue }
            curl_multi_remove_handle(multi, done)
            transfers.removeValue(forKey: done)?.complete(code: result)
        }
    }

    /// `curl_multi_poll` for whole milliseconds (it returns at once on socket activity); a wait
    /// under 1 ms sleeps, then moves the transfers on.
    public func wait(microseconds: Int) {
        guard !transfers.isEmpty, microseconds >= 1000 else {
            if microseconds > 0 { usleep(UInt32(microseconds)) }
            perform()
            return
        }
        var ready: Int32 = 0
        curl_multi_poll(multi, nil, 0, Int32(min(microseconds / 1000, 1000)), &ready)
        perform()
    }

    public func cancelAll() {
        for (handle, transfer) in transfers {
            curl_multi_remove_handle(multi, handle)
            transfer.complete(code: CURLE_ABORTED_BY_CALLBACK)
        }
        transfers.removeAll()
    }
}
