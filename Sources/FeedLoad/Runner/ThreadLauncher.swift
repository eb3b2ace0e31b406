import FeedModel
import Foundation

/// Starts the load tester's detached threads (``FeedModel/DetachedThread``) and says which one
/// could not be started.
enum ThreadLauncher {
    /// A thread that could not be started: which one, and `pthread_create`'s error text.
    struct StartFailure: Error, CustomStringConvertible, Sendable {
        var role: String
        var index: Int
        var count: Int
        var code: Int32
        var description: String {
            "could not start \(role) thread \(index + 1) of \(count): \(String(cString: strerror(code)))"
                + " (lower --\(role == "writer" ? "writers" : "workers") or raise the memory limit)"
        }
    }

    /// Starts `body` on a new detached thread with `stackSize` bytes of stack (8 MiB, as the main
    /// thread, when `nil`).
    /// - Returns: 0, or `pthread_create`'s error code (`EAGAIN`, `ENOMEM`); then `body` never runs.
    static func start(stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) -> Int32 {
        DetachedThread.start(stackSize: stackSize, body)
    }
}
