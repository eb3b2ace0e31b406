/// What a backend holds: per feed, item counts per kind and the time range; the schema version.
/// The same shape for every backend (SQLite, PostgreSQL), so `feedsim stats` prints them alike.
public struct StoreStats: Hashable, Sendable, Codable {
    /// Items of one kind in one feed.
    public struct KindCount: Hashable, Sendable, Codable {
        public var kind: String
        public var items: Int

        public init(kind: String, items: Int) {
            self.kind = kind
            self.items = items
        }
    }

    /// One feed's summary.
    public struct FeedSummary: Hashable, Sendable, Codable {
        public var name: String
        public var items: Int
        /// Oldest and newest `published_at` (Unix milliseconds); `nil` for an empty feed.
        public var oldestPublishedAt: Int64?
        public var newestPublishedAt: Int64?
        /// Sorted by kind.
        public var kinds: [KindCount]

        public init(name: String, items: Int, oldestPublishedAt: Int64?, newestPublishedAt: Int64?, kinds: [KindCount]) {
            self.name = name
            self.items = items
            self.oldestPublishedAt = oldestPublishedAt
            self.newestPublishedAt = newestPublishedAt
            self.kinds = kinds
        }

        enum CodingKeys: String, CodingKey {
            case name, items, kinds
            case oldestPublishedAt = "oldest_published_at"
            case newestPublishedAt = "newest_published_at"
        }
    }

    public var schemaVersion: Int
    /// Sorted by name.
    public var feeds: [FeedSummary]
    /// All items in the store's feeds.
    public var totalItems: Int { feeds.reduce(0) { $0 + $1.items } }
    /// Items whose feed does not exist (PostgreSQL, whose schema has no foreign key since version 2:
    /// docs/postgres.md); `nil` where a foreign key rules them out (SQLite), and then not in the JSON.
    public var orphanItems: Int?

    public init(schemaVersion: Int, feeds: [FeedSummary], orphanItems: Int? = nil) {
        self.schemaVersion = schemaVersion
        self.feeds = feeds
        self.orphanItems = orphanItems
    }

    enum CodingKeys: String, CodingKey {
        case feeds
        case schemaVersion = "schema_version"
        case orphanItems = "orphan_items"
    }
}
