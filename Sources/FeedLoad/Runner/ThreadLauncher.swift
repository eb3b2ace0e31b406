import Foundation

/// Starts detached POSIX threads and says when one could not be started.
///
/// `Foundation.Thread.start()` gives no sign when `pthread_create` fails (out of memory under
/// `ulimit -v`, or the process's thread limit): the body never runs, and a dispatch group
/// entered for it waits forever. This calls `pthread_create` itself and returns its error.
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

    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Starts `body` on a new detached thread with `stackSize` bytes of stack (8 MiB, as the main
    /// thread, when `nil`).
    /// - Returns: 0, or `pthread_create`'s error code (`EAGAIN`, `ENOMEM`); then `body` never runs.
    static func start(stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) -> Int32 {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        pthread_attr_setstacksize(&attributes, stackSize ?? 8 << 20)
        let box = Unmanaged.passRetained(Body(body))
        var thread = pthread_t()
        let code = pthread_create(
            &thread, &attributes,
            { context in
                guard let context else { return nil }
                Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
                return nil
            }, box.toOpaque())
        if code != 0 { box.release() }
        return code
    }
}
