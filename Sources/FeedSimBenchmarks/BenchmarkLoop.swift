import FeedModel
import Foundation

/// The measuring pieces `bench store` (SQLite and PostgreSQL) and `bench load` share: a timer on
/// the monotonic clock and the whole-feed walk through a backend's API (the raw loops walk with
/// their own C calls).
enum BenchmarkLoop {
    /// Follows `after` pages of `limit` from the newest to the end of the feed.
    /// - Returns: pages and items read.
    /// - Complexity: one page query per page, O(items).
    static func walk(_ pages: some PageSource, limit: Int) throws -> (pages: Int, items: Int) {
        var page = try pages.newest(limit: limit)
        var count = 1
        var items = page.items.count
        while page.hasMoreAfter, let last = page.lastCursor {
            page = try pages.after(last, limit: limit)
            count += 1
            items += page.items.count
        }
        return (count, items)
    }

    /// Seconds `body` takes on the monotonic clock (benchmarks only; the simulator never reads a clock).
    static func time(_ body: () throws -> Void) rethrows -> Double {
        let start = ContinuousClock.now
        try body()
        return seconds(since: start)
    }

    /// Wall seconds since `start`.
    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}
