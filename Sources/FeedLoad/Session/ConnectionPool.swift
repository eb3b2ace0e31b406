import FeedStore
import Synchronization

/// The connections a session needs: its item store (page and row queries) and its ground-truth reader.
final class SessionConnections: @unchecked Sendable {  // used by one session at a time, handed over under the pool's lock
    let store: ItemStore
    let truth: GroundTruth

    init(path: String, feed: FeedID, reuseUnchangedSpans: Bool) throws {
        store = try ItemStore(path: path)
        truth = try GroundTruth(path: path, feed: feed, reuseUnchangedSpans: reuseUnchangedSpans)
    }
}

/// Connections kept between sessions, as an app server keeps a pool: a session takes one when it
/// starts and owns it until it ends, so no connection is ever used by two sessions at once, and
/// opening (schema check, WAL pragma) is not paid per session.
public final class ConnectionPool: Sendable {
    let path: String
    private let feed: FeedID
    private let reuseUnchangedSpans: Bool
    private let idle = Mutex<[SessionConnections]>([])

    /// - Parameters:
    ///   - path: the database file each session's connections open.
    ///   - feed: the feed the ground truth reads.
    ///   - reuseUnchangedSpans: see ``LoadConfiguration/reuseUnchangedSpans``.
    public init(path: String, feed: FeedID, reuseUnchangedSpans: Bool = true) {
        self.path = path
        self.feed = feed
        self.reuseUnchangedSpans = reuseUnchangedSpans
    }

    /// An idle pair of connections, or new ones opened on the calling thread.
    func take() throws -> SessionConnections {
        if let connections = idle.withLock({ $0.popLast() }) { return connections }
        return try SessionConnections(path: path, feed: feed, reuseUnchangedSpans: reuseUnchangedSpans)
    }

    /// Gives connections back when their session has ended.
    func give(_ connections: SessionConnections) {
        idle.withLock { $0.append(connections) }
    }
}
