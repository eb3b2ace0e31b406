import FeedModel
import Synchronization

/// The connections a session needs: its backend (page and row queries) and its ground-truth reader.
final class SessionConnections: @unchecked Sendable {  // used by one session at a time, handed over under the pool's lock
    let backend: any FeedBackend
    /// `backend`'s optional protocols, cast once for every session that takes these connections.
    let faces: BackendFaces
    let truth: any GroundTruthReader

    init(connector: any FeedBackendConnector, reuseUnchangedSpans: Bool) throws {
        backend = try connector.connect()
        faces = BackendFaces(backend)
        truth = try connector.groundTruthReader(reuseUnchangedSpans: reuseUnchangedSpans)
    }
}

/// Connections kept between sessions, as an app server keeps a pool: a session takes one when it
/// starts and owns it until it ends, so no connection is ever used by two sessions at once, and
/// opening (schema check, WAL pragma) is not paid per session.
public final class ConnectionPool: Sendable {
    /// Opens the connections: sessions', writers' and ground-truth readers'.
    public let connector: any FeedBackendConnector
    private let reuseUnchangedSpans: Bool
    private let idle = Mutex<[SessionConnections]>([])

    /// - Parameters:
    ///   - connector: opens connections to the feed under load.
    ///   - reuseUnchangedSpans: see ``LoadConfiguration/reuseUnchangedSpans``.
    public init(connector: any FeedBackendConnector, reuseUnchangedSpans: Bool = true) {
        self.connector = connector
        self.reuseUnchangedSpans = reuseUnchangedSpans
    }

    /// An idle pair of connections, or new ones opened on the calling thread.
    func take() throws -> SessionConnections {
        if let connections = idle.withLock({ $0.popLast() }) { return connections }
        return try SessionConnections(connector: connector, reuseUnchangedSpans: reuseUnchangedSpans)
    }

    /// Gives connections back when their session has ended; a backend with session state
    /// (``FeedModel/SessionScopedBackend``) forgets it first.
    func give(_ connections: SessionConnections) {
        connections.faces.sessionScoped?.sessionEnded()
        idle.withLock { $0.append(connections) }
    }
}
