import FeedModel

/// SQLite's ``FeedModel/FeedBackendConnector``: opens connections to one feed of a database file,
/// one per thread, for the load tester.
///
/// Sessions get the store's standard connection (serialized mode, busy timeout); writers and
/// ground-truth readers one in multi-thread mode with a busy handler that counts its waits
/// (``FeedModel/LockWaitCounting``), each used by one thread at a time.
public struct SQLiteConnector: FeedBackendConnector {
    /// The database file.
    public let path: String
    /// The feed every connection is bound to.
    public let feed: FeedID

    public var backendName: String { "sqlite" }

    /// Opens the store once to check it (schema, WAL) and find the feed.
    /// - Throws: ``StoreError/unknownFeed(_:known:)`` when there is no feed `feedName`, the store's
    ///   errors opening the file otherwise.
    public init(path: String, feedName: String) throws {
        let store = try ItemStore(path: path)
        self.path = path
        self.feed = try store.requireFeed(named: feedName)
    }

    public func connect() throws -> any FeedBackend {
        try ItemStore(path: path).pages(feed: feed)
    }

    public func connectWriter() throws -> any FeedBackend {
        try ItemStore(path: path, readOnly: false, options: .loadTester).pages(feed: feed)
    }

    public func groundTruthReader(reuseUnchangedSpans: Bool) throws -> any GroundTruthReader {
        try SQLiteGroundTruth(path: path, feed: feed, reuseUnchangedSpans: reuseUnchangedSpans)
    }
}
