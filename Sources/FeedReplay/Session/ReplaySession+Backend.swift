import FeedLayout
import FeedModel
import FeedStore

extension ReplaySession {
    /// Replays `trace` against any backend bound to one feed (an HTTP feed API, PostgreSQL): the
    /// same main job as ``run(trace:store:feed:layout:options:insertPreset:keepInserts:)``.
    ///
    /// - Parameters:
    ///   - keepInserts: keep the rows that the trace's `insert` events write; by default they are
    ///     deleted through the backend when the replay ends (a backend that cannot delete keeps
    ///     them: the ids are returned in ``ReplayBackendResult/keptInsertIDs``).
    /// - Throws: ``LayoutError``, ``ReplayError`` for invalid options, and the backend's errors.
    public static func run(
        trace: Trace, backend: any FeedBackend, layout: LayoutConfiguration, options: ReplayOptions,
        insertPreset: Preset, keepInserts: Bool = false
    ) throws -> ReplayBackendResult {
        let replayBackend = try StoreBackend(backend: backend, insertPreset: insertPreset, seed: options.seed)
        let session = try ReplaySession(
            trace: trace, layout: try layout.makeLayout(), layoutDescription: layout.summary, backend: replayBackend,
            options: options, axis: layout.scrollAxis)
        let result = try session.run()
        var kept: [Int64] = []
        var undoError: (any Error)?
        if !keepInserts && !replayBackend.insertedIDs.isEmpty {
            do {
                try backend.delete(ids: replayBackend.insertedIDs)
            } catch {
                kept = replayBackend.insertedIDs
                undoError = error
            }
        }
        return ReplayBackendResult(result: result, keptInsertIDs: kept, undoError: undoError.map { "\($0)" })
    }
}

/// A replay over any backend, and whether its inserts could be undone.
public struct ReplayBackendResult: Sendable {
    public var result: ReplayResult
    /// Ids the trace's inserts wrote that could not be deleted afterwards (empty when undone or kept on purpose).
    public var keptInsertIDs: [Int64]
    /// Why the delete failed, when it did.
    public var undoError: String?
}
