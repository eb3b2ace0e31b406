import FeedModel

/// What a COPY seeding or import wrote.
public struct CopySummary: Hashable, Sendable {
    public var items: Int
    /// Unix milliseconds of the oldest and newest written item (`nil` when `items` is 0).
    public var oldestPublishedAt: Int64?
    public var newestPublishedAt: Int64?
}

/// What seeding does with a feed that already has items (as SQLite's `Seeder.Mode`).
public enum PostgresSeedMode: Sendable {
    /// Refuse (``PostgresStoreError/feedNotEmpty(_:items:)``): seeding again would repeat timestamps.
    case intoEmpty
    /// Continue after the newest item: the generator is made with its `published_at`.
    case append
    /// Delete the feed's items and seed afresh, in the same transaction.
    case replace
}

extension PostgresStore {
    /// Seeds the feed `name` (created when missing) by `mode` when it already has items: the check,
    /// any delete and the COPY commit together or not at all.
    /// - Parameter makeGenerator: the item generator, given the newest `published_at` to continue
    ///   after (``PostgresSeedMode/append`` on a non-empty feed) or `nil`.
    /// - Throws: ``PostgresStoreError/feedNotEmpty(_:items:)`` under ``PostgresSeedMode/intoEmpty``;
    ///   as ``seed(feedNamed:count:next:progress:shouldStop:)``. Either way nothing was written.
    @discardableResult
    public func seed(
        feedNamed name: String, mode: PostgresSeedMode, count: Int, makeGenerator: (Int64?) -> () throws -> NewItem,
        progress: ((Int) -> Void)? = nil, shouldStop: () -> Bool = { false }
    ) throws -> CopySummary {
        try connection.transaction {
            let feed = try createFeed(named: name)
            var parameters = PostgresParameters()
            parameters.append(feed)
            let existing = try connection.execute(
                prepared: "feedsim_feed_extent",
                sql: "SELECT count(*), max(published_at) FROM items WHERE feed_id = $1", parameters)
            let items = Int(existing.int64(0, 0))
            var newest: Int64?
            if items > 0 {
                switch mode {
                case .intoEmpty: throw PostgresStoreError.feedNotEmpty(name, items: items)
                case .append: newest = existing.int64(0, 1)
                case .replace:
                    try connection.execute(
                        prepared: "feedsim_delete_feed_items", sql: "DELETE FROM items WHERE feed_id = $1", parameters)
                }
            }
            return try seed(
                feedNamed: name, count: count, next: makeGenerator(newest), progress: progress, shouldStop: shouldStop)
        }
    }

    /// How often `progress` is called while seeding, in items.
    public static let progressInterval = 10_000

    package static let copySQL = "COPY items (feed_id, published_at, kind, width, height, title, author, payload) FROM STDIN"
    static let copyWithIDSQL =
        "COPY items (id, feed_id, published_at, kind, width, height, title, author, payload) FROM STDIN"
    /// COPY's binary format, `WITH BINARY` (the spelling PostgreSQL and CockroachDB both accept):
    /// the server skips parsing numbers from text, about a fifth of its time per row (3.65 s of
    /// server CPU for 300,000 rows as text, 2.97 s binary, measured from `/proc` on the backend).
    static let binarySuffix = " WITH BINARY"

    /// Binary COPY sends text in the server's encoding unconverted, so it is used only when that is UTF-8.
    var copyEncoder: (Int64) -> CopyRowEncoder {
        let binary = connection.serverEncoding.uppercased() == "UTF8"
        return { CopyRowEncoder(feed: $0, binary: binary) }
    }

    /// Creates the feed `name` when missing and fills it with `count` items from `next`, through
    /// one `COPY … FROM STDIN` in one transaction: an interrupted or failed run leaves neither the
    /// feed nor any item (<https://www.postgresql.org/docs/current/sql-copy.html>). Before COMMIT the
    /// feed's row is key-share locked (``keepFeed(_:)``): a feed deleted meanwhile rolls the seed back.
    /// - Parameters:
    ///   - next: the item generator (ids, if any, are ignored: the `items.id` sequence assigns them).
    ///   - progress: called with the number of items sent so far, every ``progressInterval`` items
    ///     and at the end (inside the transaction: nothing is durable until it returns).
    ///   - shouldStop: checked every ``progressInterval`` items; `true` ends the COPY with an error
    ///     and rolls back (SIGINT, SIGTERM).
    /// - Throws: ``PostgresStoreError/interrupted``, ``PostgresStoreError/missingFeed(id:)``,
    ///   ``PostgresError`` (e.g. a CHECK failing); then nothing was written.
    /// - Complexity: O(count log N), streamed in 256 KiB chunks.
    @discardableResult
    public func seed(
        feedNamed name: String, count: Int, next: () throws -> NewItem, progress: ((Int) -> Void)? = nil,
        shouldStop: () -> Bool = { false }
    ) throws -> CopySummary {
        precondition(count >= 0, "count must be ≥ 0")
        return try connection.transaction {
            let feed = try createFeed(named: name)
            var summary = CopySummary(items: 0)
            let encoder = copyEncoder(feed)
            var started = false
            _ = try connection.copyIn(Self.copySQL + encoder.sqlSuffix) { buffer in
                if !started {
                    encoder.appendHeader(to: &buffer)
                    started = true
                }
                while summary.items < count && buffer.count < PostgresConnection.copyChunkBytes {
                    let item = try next()
                    encoder.append(item, withID: false, to: &buffer)
                    if summary.items == 0 { summary.oldestPublishedAt = item.publishedAt }
                    summary.newestPublishedAt = item.publishedAt
                    summary.items += 1
                    if summary.items % Self.progressInterval == 0 {
                        progress?(summary.items)
                        if shouldStop() { throw PostgresStoreError.interrupted }
                    }
                }
                if summary.items < count { return true }
                encoder.appendTrailer(to: &buffer)
                return false
            }
            progress?(summary.items)
            if shouldStop() { throw PostgresStoreError.interrupted }  // before COMMIT: still nothing written
            try keepFeed(feed)
            return summary
        }
    }

    /// Creates the feed `name` when missing and writes `items` into it through COPY, in one
    /// transaction: all or nothing. Items with an id keep it (and the id sequence then continues
    /// above the largest id); items without one get the sequence's next ids.
    /// - Parameter shouldStop: checked before the COPY and before COMMIT (SIGINT, SIGTERM).
    /// - Throws: ``PostgresStoreError/duplicateID(_:)`` for an id that exists or appears twice
    ///   (checked before anything is written), ``PostgresStoreError/emptyFeedName``,
    ///   ``PostgresStoreError/interrupted``, ``PostgresError``.
    @discardableResult
    public func importItems(
        _ items: [NewItem], feedNamed name: String, shouldStop: () -> Bool = { false }
    ) throws -> CopySummary {
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
            let encoder = copyEncoder(feed)
            for withID in [true, false] {
                var remaining = items.lazy.filter { ($0.id != nil) == withID }.makeIterator()
                var pending = remaining.next()
                guard pending != nil else { continue }
                var started = false
                _ = try connection.copyIn((withID ? Self.copyWithIDSQL : Self.copySQL) + encoder.sqlSuffix) { buffer in
                    if !started {
                        encoder.appendHeader(to: &buffer)
                        started = true
                    }
                    while let item = pending, buffer.count < PostgresConnection.copyChunkBytes {
                        encoder.append(item, withID: withID, to: &buffer)
                        pending = remaining.next()
                    }
                    if pending != nil { return true }
                    encoder.appendTrailer(to: &buffer)
                    return false
                }
                if withID {
                    try connection.execute(prepared: "feedsim_advance_sequence", sql: Self.advanceSequenceSQL, .init())
                }
            }
            if shouldStop() { throw PostgresStoreError.interrupted }  // before COMMIT: still nothing written
            try keepFeed(feed)
            return CopySummary(
                items: items.count, oldestPublishedAt: items.map(\.publishedAt).min(),
                newestPublishedAt: items.map(\.publishedAt).max())
        }
    }
}

/// Writes items as rows of COPY's binary format (big-endian lengths and numbers, text as UTF-8
/// bytes; <https://www.postgresql.org/docs/current/sql-copy.html#id-1.9.3.55.9.4>), or of its text
/// format (tab-separated, newline-terminated, backslash, tab, newline and carriage return escaped).
struct CopyRowEncoder {
    let feed: Int64
    let binary: Bool
    private let feedField: [UInt8]

    init(feed: Int64, binary: Bool) {
        self.feed = feed
        self.binary = binary
        feedField = Array(String(feed).utf8)
    }

    /// What follows `FROM STDIN` in the COPY statement.
    var sqlSuffix: String { binary ? PostgresStore.binarySuffix : "" }

    /// The binary format's 11-byte signature, flags and header-extension length (nothing for text).
    func appendHeader(to buffer: inout [UInt8]) {
        guard binary else { return }
        buffer.append(contentsOf: [0x50, 0x47, 0x43, 0x4F, 0x50, 0x59, 0x0A, 0xFF, 0x0D, 0x0A, 0x00])  // PGCOPY\n\377\r\n\0
        appendInt32(0, to: &buffer)
        appendInt32(0, to: &buffer)
    }

    /// The binary format's trailer: a field count of -1 (nothing for text).
    func appendTrailer(to buffer: inout [UInt8]) {
        guard binary else { return }
        buffer.append(0xFF)
        buffer.append(0xFF)
    }

    func append(_ item: NewItem, withID: Bool, to buffer: inout [UInt8]) {
        binary ? appendBinary(item, withID: withID, to: &buffer) : appendText(item, withID: withID, to: &buffer)
    }

    private func appendBinary(_ item: NewItem, withID: Bool, to buffer: inout [UInt8]) {
        let id = withID ? item.id : nil
        let fields: UInt16 = id == nil ? 8 : 9
        buffer.append(UInt8(fields >> 8))
        buffer.append(UInt8(fields & 0xFF))
        if let id { appendField(UInt64(bitPattern: id), to: &buffer) }
        appendField(UInt64(bitPattern: feed), to: &buffer)
        appendField(UInt64(bitPattern: item.publishedAt), to: &buffer)
        appendField(item.kind, to: &buffer)
        appendField(item.width.bitPattern, to: &buffer)
        appendField(item.height.bitPattern, to: &buffer)
        appendField(item.title, to: &buffer)
        appendField(item.author, to: &buffer)
        appendField(item.payload, to: &buffer)
    }

    private func appendInt32(_ value: UInt32, to buffer: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { buffer.append(contentsOf: $0) }
    }

    /// An 8-byte field (bigint, or a double's IEEE 754 bits), big-endian, after its length.
    private func appendField(_ value: UInt64, to buffer: inout [UInt8]) {
        appendInt32(8, to: &buffer)
        withUnsafeBytes(of: value.bigEndian) { buffer.append(contentsOf: $0) }
    }

    private func appendField(_ text: String, to buffer: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in
            appendInt32(UInt32(bytes.count), to: &buffer)
            buffer.append(contentsOf: bytes)
        }
    }

    private func appendText(_ item: NewItem, withID: Bool, to buffer: inout [UInt8]) {
        if withID, let id = item.id {
            buffer.append(contentsOf: String(id).utf8)
            buffer.append(9)
        }
        buffer.append(contentsOf: feedField)
        buffer.append(9)
        buffer.append(contentsOf: String(item.publishedAt).utf8)
        buffer.append(9)
        appendEscaped(item.kind, to: &buffer)
        buffer.append(9)
        buffer.append(contentsOf: item.width.description.utf8)
        buffer.append(9)
        buffer.append(contentsOf: item.height.description.utf8)
        buffer.append(9)
        appendEscaped(item.title, to: &buffer)
        buffer.append(9)
        appendEscaped(item.author, to: &buffer)
        buffer.append(9)
        appendEscaped(item.payload, to: &buffer)
        buffer.append(10)
    }

    private func appendEscaped(_ text: String, to buffer: inout [UInt8]) {
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
