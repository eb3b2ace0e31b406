import FeedModel
import FeedResources
/// What a seeding run wrote.
public struct SeedSummary: Hashable, Sendable {
    public var items: Int
    /// Ids of the first and last inserted item (`nil` when `items` is 0).
    public var firstID: Int64?
    public var lastID: Int64?
    /// Unix milliseconds of the oldest and newest inserted item.
    public var oldestPublishedAt: Int64?
    public var newestPublishedAt: Int64?
}

/// Seeds a feed from an ``ItemGenerator``: one transaction, one prepared INSERT reused
/// (bind, step, reset per item), so a million items take seconds and an interrupted run
/// writes nothing.
public enum Seeder {
    /// How often `progress` is called, in items.
    public static let progressInterval = 10_000

    /// Inserts `count` generated items into `feed`.
    /// - Parameters:
    ///   - progress: called with the number of items written so far, every ``progressInterval``
    ///     items and at the end (inside the transaction: nothing is durable until it returns).
    /// - Throws: ``SQLiteError``; then nothing was written.
    /// - Complexity: O(count log N).
    @discardableResult
    public static func seed(
        _ store: ItemStore, feed: FeedID, generator: inout ItemGenerator, count: Int,
        progress: ((Int) -> Void)? = nil
    ) throws -> SeedSummary {
        try store.writeTransaction {
            try seedWithoutTransaction(store, feed: feed, generator: &generator, count: count, progress: progress)
        }
    }

    /// As ``seed(_:feed:generator:count:progress:)``, creating the feed `name` when missing inside
    /// the same transaction (an interrupted run leaves neither feed nor items).
    ///
    /// - Parameter shouldStop: checked every 1,000 items and before the commit; when it returns
    ///   `true` the transaction rolls back and ``StoreError/interrupted`` is thrown (SIGINT, SIGTERM).
    @discardableResult
    public static func seed(
        _ store: ItemStore, feedNamed name: String, generator: inout ItemGenerator, count: Int,
        progress: ((Int) -> Void)? = nil, shouldStop: (() -> Bool)? = nil
    ) throws -> SeedSummary {
        try store.writeTransaction {
            let feed = try store.createFeed(named: name)
            return try seedWithoutTransaction(
                store, feed: feed, generator: &generator, count: count, progress: progress, shouldStop: shouldStop)
        }
    }

    /// What to do when the feed already has items.
    public enum Mode: String, Sendable, CaseIterable {
        /// Refuse (``StoreError/feedNotEmpty(_:items:)``): seeding again would repeat timestamps.
        case intoEmpty
        /// Continue after the newest item: the generator starts at its `published_at`.
        case append
        /// Delete the feed's items and seed afresh, in the same transaction.
        case replace
    }

    /// Seeds the feed `name` (created when missing) with `count` items of `preset`, by `mode` when
    /// it already has items. One transaction: the check, any delete, and the inserts commit together
    /// or not at all.
    /// - Parameters:
    ///   - start: Unix milliseconds the generator starts at (for ``Mode/append`` on a non-empty
    ///     feed, the newest item's `published_at` instead).
    ///   - shouldStop: as in ``seed(_:feedNamed:generator:count:progress:shouldStop:)``.
    /// - Throws: ``StoreError/feedNotEmpty(_:items:)`` under ``Mode/intoEmpty``; ``SQLiteError``.
    ///   Either way nothing was written.
    @discardableResult
    public static func seed(
        _ store: ItemStore, feedNamed name: String, mode: Mode, preset: Preset, seed: UInt64, start: Int64,
        count: Int, progress: ((Int) -> Void)? = nil, shouldStop: (() -> Bool)? = nil
    ) throws -> SeedSummary {
        try store.writeTransaction {
            let feed = try store.createFeed(named: name)
            let existing = try store.itemCount(feed: feed)
            var begin = start
            if existing > 0 {
                switch mode {
                case .intoEmpty:
                    throw StoreError.feedNotEmpty(name, items: existing)
                case .append:
                    begin = try store.newestPublishedAt(feed: feed) ?? start
                case .replace:
                    try store.deleteAll(feed: feed)
                }
            }
            var generator = ItemGenerator(preset: preset, seed: seed, start: begin)
            return try seedWithoutTransaction(
                store, feed: feed, generator: &generator, count: count, progress: progress, shouldStop: shouldStop)
        }
    }

    private static func seedWithoutTransaction(
        _ store: ItemStore, feed: FeedID, generator: inout ItemGenerator, count: Int, progress: ((Int) -> Void)?,
        shouldStop: (() -> Bool)? = nil
    ) throws -> SeedSummary {
        precondition(count >= 0, "count must be ≥ 0")
        let statement = try store.connection.cachedStatement(ItemStore.insertSQL)
        var summary = SeedSummary(items: 0)
        for index in 0..<count {
            if let shouldStop, index % 1_000 == 0, shouldStop() { throw StoreError.interrupted }
            let item = generator.next()
            if let (field, rule) = item.boundsViolation {
                throw GeneratedItemOutOfBounds(item: index + 1, field: field, rule: rule)
            }
            let id = try store.insertOne(item, feed: feed, using: statement)
            if index == 0 {
                summary.firstID = id
                summary.oldestPublishedAt = item.publishedAt
            }
            summary.lastID = id
            summary.newestPublishedAt = item.publishedAt
            summary.items += 1
            if let progress, summary.items % progressInterval == 0 { progress(summary.items) }
        }
        progress?(summary.items)
        if let shouldStop, shouldStop() { throw StoreError.interrupted }
        return summary
    }
}
