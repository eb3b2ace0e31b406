/// An answer that arrives later: a page or a row batch whose request is on the wire while the
/// caller goes on (a load session keeps scrolling; its worker thread runs other sessions).
///
/// The request is driven by the I/O of the thread that started it (``WorkerIO``); ``poll()`` is
/// called by the answer's owner, on whichever thread runs it now, and returns `nil` until the
/// answer is there. Reading it (parsing a body, checking the page) happens in ``poll()``, on the
/// owner's thread, so the backend that started the request is only ever touched by its owner.
///
/// ``poll()``, ``map(_:)`` and ``recordingFailure(_:)`` are `@inlinable` so that they are
/// specialized for the answer's type where they are used: unspecialized, every poll looked up the
/// runtime metadata of `Result<Value, any Error>?` (`swift_getGenericMetadata`), a sixth of a load
/// worker's instructions per HTTP page (callgrind under `feedsim load --source`, 2026-12-01).
public final class DeferredAnswer<Value> {
    @usableFromInline let isDone: () -> Bool
    @usableFromInline let finish: () throws -> Value
    @usableFromInline var result: Result<Value, any Error>?
    /// How long the request took on the wire, milliseconds, once it is answered (`nil` before, or
    /// when the backend does not time it).
    public var elapsedMs: Double? { answeredElapsedMs }
    @usableFromInline var answeredElapsedMs: Double?
    @usableFromInline let elapsed: () -> Double?

    /// - Parameters:
    ///   - isDone: whether the request has finished (safe from any thread).
    ///   - elapsed: the request's own time once done, ms.
    ///   - finish: reads the finished request into the value, or throws its error; called once.
    public init(isDone: @escaping () -> Bool, elapsed: @escaping () -> Double? = { nil }, finish: @escaping () throws -> Value) {
        self.isDone = isDone
        self.finish = finish
        self.elapsed = elapsed
    }

    /// An answer that is there already.
    public init(_ result: Result<Value, any Error>, elapsedMs: Double? = nil) {
        self.result = result
        answeredElapsedMs = elapsedMs
        isDone = { true }
        finish = { try result.get() }
        elapsed = { elapsedMs }
    }

    /// The answer once it has arrived, else `nil`.
    @inlinable
    public func poll() -> Result<Value, any Error>? {
        if let result { return result }
        guard isDone() else { return nil }
        answeredElapsedMs = elapsed()
        let value = Result { try finish() }
        result = value
        return value
    }
}

/// A backend that can start page and row requests without waiting for them (an HTTP feed API on
/// the load tester's worker threads). Requests are started on the calling thread's ``WorkerIO``;
/// with none installed they run at once and the answer is there already.
public protocol DeferredFeedSource: AnyObject {
    func startNewest(limit: Int) -> DeferredAnswer<Page>
    func startAfter(_ cursor: Cursor, limit: Int) -> DeferredAnswer<Page>
    func startBefore(_ cursor: Cursor, limit: Int) -> DeferredAnswer<Page>
    func startRows(ids: [Int64]) -> DeferredAnswer<RowBatch>
}

/// The I/O a load tester's worker thread drives between session steps: for an HTTP feed API, one
/// libcurl multi handle carrying the requests of every session the worker runs.
public protocol WorkerIO: AnyObject {
    /// Moves every started request on, without blocking.
    func perform()
    /// Waits up to `microseconds` for any request to make progress, then moves them on.
    func wait(microseconds: Int)
    /// Abandons every request still on the wire (the run ended); their answers fail.
    func cancelAll()
    /// Requests on the wire now.
    var inFlight: Int { get }
}

/// A connector whose backends start requests on their worker's ``WorkerIO``.
public protocol WorkerIOProviding: Sendable {
    /// Creates the calling thread's I/O and installs it as that thread's, for the backends used on it.
    func makeWorkerIO() -> any WorkerIO
}

extension DeferredAnswer {
    /// This answer read through `transform` (on the owner's thread, when polled).
    @inlinable
    public func map<T>(_ transform: @escaping (Value) throws -> T) -> DeferredAnswer<T> {
        DeferredAnswer<T>(isDone: { self.poll() != nil }, elapsed: { self.elapsedMs }) {
            guard let result = self.poll() else { preconditionFailure("read before the answer arrived") }
            return try transform(try result.get())
        }
    }
}

extension DeferredAnswer {
    /// This answer, telling `record` its error when it fails.
    @inlinable
    public func recordingFailure(_ record: @escaping (any Error) -> Void) -> DeferredAnswer<Value> {
        DeferredAnswer(isDone: { self.poll() != nil }, elapsed: { self.elapsedMs }) {
            guard let result = self.poll() else { preconditionFailure("read before the answer arrived") }
            do { return try result.get() } catch {
                record(error)
                throw error
            }
        }
    }
}
