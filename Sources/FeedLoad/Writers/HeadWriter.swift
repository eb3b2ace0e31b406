import FeedModel
import FeedStore
import Foundation

/// A writer of the load test: inserts items at the head of one feed at a steady rate, one
/// `BEGIN IMMEDIATE` transaction per batch, on its own connection, counting busy waits.
///
/// Inside each transaction it reads the feed's newest `published_at` and generates the batch no
/// earlier than one millisecond after it, so every insert lands at the head (IMMEDIATE takes the
/// write lock first, so writers cannot interleave between the read and the insert).
/// `SQLITE_BUSY` waits are counted by the connection's busy handler; a transaction that still
/// fails is rolled back and counted by result code, and the writer goes on.
final class HeadWriter {
    private let connection: RawConnection
    private let feed: FeedID
    private var generator: ItemGenerator
    private let head: RawStatement
    private let insert: RawStatement
    private let clock = ContinuousClock()

    init(path: String, feed: FeedID, preset: Preset, seed: UInt64) throws {
        connection = try RawConnection(path: path)
        self.feed = feed
        generator = ItemGenerator(preset: preset, seed: seed)
        head = try connection.prepare("SELECT coalesce(max(published_at), 0) FROM items WHERE feed_id = ?1")
        insert = try connection.prepare(
            """
            INSERT INTO items (feed_id, published_at, kind, width, height, title, author, payload)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
            """)
    }

    /// Inserts `batch` items at the head in one transaction and records it into `metrics`.
    /// - Returns: the new ids, or `[]` when the transaction failed (its error is counted).
    @discardableResult
    func insertBatch(_ batch: Int, into metrics: inout LoadMetrics) -> [Int64] {
        let waitsBefore = connection.busyWaits
        let start = clock.now
        defer { metrics.busyWaits += connection.busyWaits - waitsBefore }
        do {
            try connection.execute("BEGIN IMMEDIATE")
            do {
                head.bind(feed.rawValue, at: 1)
                let newest = try head.step() ? head.int64(at: 0) : 0
                head.reset()
                var ids: [Int64] = []
                for item in generator.items(count: batch, notBefore: newest < Int64.max ? newest + 1 : Int64.max) {
                    defer { insert.reset() }
                    insert.bind(feed.rawValue, at: 1)
                    insert.bind(item.publishedAt, at: 2)
                    insert.bind(item.kind, at: 3)
                    insert.bind(item.width, at: 4)
                    insert.bind(item.height, at: 5)
                    insert.bind(item.title, at: 6)
                    insert.bind(item.author, at: 7)
                    insert.bind(item.payload, at: 8)
                    _ = try insert.step()
                    ids.append(connection.lastInsertRowID)
                }
                try connection.execute("COMMIT")
                metrics.record(.insert, nanoseconds: start.duration(to: clock.now).nanoseconds)
                metrics.inserted += ids.count
                metrics.insertTransactions += 1
                return ids
            } catch {
                head.reset()
                try? connection.execute("ROLLBACK")
                throw error
            }
        } catch {
            metrics.recordError(error)
            return []
        }
    }

}
