import Foundation

/// The calling thread's on-CPU time (`clock_gettime(CLOCK_THREAD_CPUTIME_ID)`, user + system):
/// time the thread ran, not time it waited for a core or for a lock. Set beside wall time, it
/// tells on a shared machine whether threads that do not scale were slowed down (more CPU per
/// page: contention inside the process) or not given a core (same CPU per page, less of it).
package enum ThreadCPUClock {
    /// Nanoseconds the calling thread has run since it started.
    package static func now() -> UInt64 {
        var time = timespec()
        guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time) == 0 else { return 0 }
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
