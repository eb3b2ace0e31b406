import FeedModel

/// What a COPY seeding or import wrote.
public struct CopySummary: Hashable, Sendable {
    public var items: Int
    /// Unix milliseconds of the oldest and newest written item (`nil` when `items` is 0).
    public var oldestPublishedAt: Int64?
    public var newestPublishedAt: Int64?
}

extension PostgresStore {
    /// How often `progress` is called while seeding, in items.
    public static let progressInterval = 10_000

    static let copySQL = "COPY items (feed_id, published_at, kind, width, height, title, author, payload) FROM STDIN"
    static let copyWithIDSQL =
        "COPY items (id, feed_id, published_at, kind, width, height, title, author, payload) FROM STDIN"

    /// Creates the feed `name` when missing and fills it with `count` items from `next`, through
    /// one `COPY … FROM STDIN` in one transaction: an interrupted or failed run leaves neither the
    /// feed nor any item (<https://www.postgresql.org/docs/current/sql-copy.html>).
    /// - Parameters:
    ///   - next: the item generator (ids, if any, are ignored: the `items.id` sequence assigns them).
    ///   - progress: called with the number of items sent so far, every ``progressInterval`` items
    ///     and at the end (inside the transaction: nothing is durable until it returns).
    /// - Throws: ``PostgresError`` (e.g. a CHECK failing); then nothing was written.
    /// - Complexity: O(count log N), streamed in 256 KiB chunks.
    @discardableResult
    public func seed(
        feedNamed name: String, count: Int, next: () -> NewItem, progress: ((Int) -> Void)? = nil
    ) throws -> CopySummary {
        precondition(count >= 0, "count must be ≥ 0")
        return try connection.transaction {
            let feed = try createFeed(named: name)
            var summary = CopySummary(items: 0)
            let encoder = CopyRowEncoder(feed: feed)
            _ = try connection.copyIn(Self.copySQL) { buffer in
                while summary.items < count && buffer.count < PostgresConnection.copyChunkBytes {
                    let item = next()
                    encoder.append(item, withID: false, to: &buffer)
                    if summary.items == 0 { summary.oldestPublishedAt = item.publishedAt }
                    summary.newestPublishedAt = item.publishedAt
                    summary.items += 1
                    if let progress, summary.items % Self.progressInterval == 0 { progress(summary.items) }
                }
                return summary.items < count
            }
            progress?(summary.items)
            return summary
        }
    }

    /// Creates the feed `name` when missing and writes `items` into it through COPY, in one
    /// transaction: all or nothing. Items with an id keep it (and the id sequence then continues
    /// above the largest id); items without one get the sequence's next ids.
    /// - Throws: ``PostgresStoreError/duplicateID(_:)`` for an id that exists or appears twice
    ///   (checked before anything is written), ``PostgresStoreError/emptyFeedName``, ``PostgresError``.
    @discardableResult
    public func importItems(_ items: [NewItem], feedNamed name: String) throws -> CopySummary {
        var seen = Set<Int64>()
        let explicitIDs = items.compactMap(\.id)
        for id in explicitIDs where !seen.insert(id).inserted { throw PostgresStoreError.duplicateID(id) }
        return try connection.transaction {
            let feed = try createFeed(named: name)
            if !explicitIDs.isEmpty {
                var parameters = PostgresParameters()
                parameters.append(explicitIDs)
                let existing = try connection.execute(
                    prepared: "feedsim_existing_id",
                    sql: "SELECT min(id) FROM items WHERE id = ANY($1::BIGINT[])", parameters)
                if !existing.isNull(0, 0) { throw PostgresStoreError.duplicateID(existing.int64(0, 0)) }
            }
            let encoder = CopyRowEncoder(feed: feed)
            for withID in [true, false] {
                var remaining = items.lazy.filter { ($0.id != nil) == withID }.makeIterator()
                var pending = remaining.next()
                guard pending != nil else { continue }
                _ = try connection.copyIn(withID ? Self.copyWithIDSQL : Self.copySQL) { buffer in
                    while let item = pending, buffer.count < PostgresConnection.copyChunkBytes {
                        encoder.append(item, withID: withID, to: &buffer)
                        pending = remaining.next()
                    }
                    return pending != nil
                }
                if withID {
                    try connection.execute(prepared: "feedsim_advance_sequence", sql: Self.advanceSequenceSQL, .init())
                }
            }
            return CopySummary(
                items: items.count, oldestPublishedAt: items.map(\.publishedAt).min(),
                newestPublishedAt: items.map(\.publishedAt).max())
        }
    }
}

/// Writes items as rows of COPY's text format: tab-separated, newline-terminated, with backslash,
/// tab, newline and carriage return escaped in text columns
/// (<https://www.postgresql.org/docs/current/sql-copy.html#id-1.9.3.55.9.2>).
struct CopyRowEncoder {
    let feedField: [UInt8]

    init(feed: Int64) {
        feedField = Array(String(feed).utf8)
    }

    func append(_ item: NewItem, withID: Bool, to buffer: inout [UInt8]) {
        if withID, let id = item.id {
            buffer.append(contentsOf: String(id).utf8)
            buffer.append(9)
        }
        buffer.append(contentsOf: feedField)
        buffer.append(9)
        buffer.append(contentsOf: String(item.publishedAt).utf8)
        buffer.append(9)
        appendText(item.kind, to: &buffer)
        buffer.append(9)
        buffer.append(contentsOf: item.width.description.utf8)
        buffer.append(9)
        buffer.append(contentsOf: item.height.description.utf8)
        buffer.append(9)
        appendText(item.title, to: &buffer)
        buffer.append(9)
        appendText(item.author, to: &buffer)
        buffer.append(9)
        appendText(item.payload, to: &buffer)
        buffer.append(10)
    }

    private func appendText(_ text: String, to buffer: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in
            for byte in bytes {
                switch byte {
                case 92: buffer.append(92); buffer.append(92)  // \  → \\
                case 9: buffer.append(92); buffer.append(116)  // tab → \t
                case 10: buffer.append(92); buffer.append(110)  // LF → \n
                case 13: buffer.append(92); buffer.append(114)  // CR → \r
                default: buffer.append(byte)
                }
            }
        }
    }
}
