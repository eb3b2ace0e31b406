import FeedModel
import FeedPostgres
import Foundation
import Synchronization

extension PostgresBenchmark {
    /// Pages served to `clients` concurrent sessions, each on its own thread and connection, each
    /// running `after` pages of `pageSize` from cursors drawn at random (seeded per client) for
    /// `seconds` of wall time: the figure set beside `pgbench` running the same statement
    /// (``pgbenchScript(pageSize:)``) at the same client count.
    /// - Returns: pages per second over all clients.
    /// - Throws: ``PostgresStoreError/resource(path:reason:)`` with the first client's error.
    public static func pagesPerSecond(
        conninfo: String, settings: [(String, String)] = [], migrator: PostgresMigrator, feed name: String,
        clients: Int, seconds: Double, pageSize: Int, newestPublishedAt: Int64, oldestPublishedAt: Int64, maxID: Int64
    ) throws -> Double {
        precondition(clients >= 1 && seconds > 0)
        let tally = ClientTally()
        let done = DispatchGroup()
        let start = ContinuousClock.now
        let deadline = start + .milliseconds(Int64(seconds * 1000))
        for client in 0..<clients {
            done.enter()
            let thread = Thread {
                defer { done.leave() }
                do {
                    let store = try PostgresStore(conninfo: conninfo, settings: settings, migrator: migrator)
                    let backend = store.backend(feed: try store.requireFeed(named: name))
                    var random = SplitMix64(seed: 1_000 + UInt64(client))
                    let span = UInt64(max(1, newestPublishedAt - oldestPublishedAt + 1))
                    var served = 0
                    while ContinuousClock.now < deadline {
                        let cursor = Cursor(
                            publishedAt: oldestPublishedAt + Int64(random.next() % span),
                            id: Int64(random.next() % UInt64(max(1, maxID))) + 1)
                        _ = try backend.after(cursor, limit: pageSize)
                        served += 1
                    }
                    tally.pages.withLock { $0 += served }
                } catch {
                    tally.failure.withLock { if $0 == nil { $0 = "\(error)" } }
                }
            }
            thread.start()
        }
        done.wait()
        if let message = tally.failure.withLock({ $0 }) {
            throw PostgresStoreError.resource(path: "bench store", reason: "a client failed: \(message)")
        }
        return Double(tally.pages.withLock { $0 }) / time(since: start)
    }

    /// A `pgbench` custom script (`pgbench -f FILE -M prepared`) running the same keyset page
    /// statement as ``PostgresFeedBackend/after(_:limit:)`` from a random cursor, one page per
    /// transaction — `:feed`, `:lo`, `:hi` and `:maxid` are passed with `-D`.
    public static func pgbenchScript(pageSize: Int) -> String {
        let statement = KeysetDirection.after.sql(rows: pageSize + 1)
            .replacingOccurrences(of: "$1", with: ":feed").replacingOccurrences(of: "$2", with: ":pa")
            .replacingOccurrences(of: "$3", with: ":id")
        return """
            \\set pa random(:lo, :hi)
            \\set id random(1, :maxid)
            \(statement.split(separator: "\n").joined(separator: " "));

            """
    }

    static func time(since start: ContinuousClock.Instant) -> Double { BenchmarkLoop.seconds(since: start) }
}

/// What the client threads of ``PostgresBenchmark/pagesPerSecond`` add up, shared between them.
private final class ClientTally: Sendable {
    let pages = Mutex<Int>(0)
    let failure = Mutex<String?>(nil)
}
