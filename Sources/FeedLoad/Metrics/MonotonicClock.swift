import Foundation

/// Wall time for timing queries and steps: `clock_gettime(CLOCK_MONOTONIC)` in nanoseconds, a
/// plain integer read (no `Duration` arithmetic on 128-bit attoseconds per sample). Monotonic:
/// never stepped back (NTP may only adjust its rate slightly), so the difference of two reads is a
/// latency.
package enum MonotonicClock {
    /// Nanoseconds since an unspecified start (the boot, on Linux).
    @inline(__always)
    package static func now() -> UInt64 {
        var time = timespec()
        guard clock_gettime(CLOCK_MONOTONIC, &time) == 0 else { return 0 }
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    /// Nanoseconds from `start` (a ``now()`` reading) to now; 0 if the clock read failed.
    @inline(__always)
    package static func since(_ start: UInt64) -> UInt64 {
        let end = now()
        return end >= start ? end - start : 0
    }
}
