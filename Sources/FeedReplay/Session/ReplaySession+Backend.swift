import FeedLayout
import FeedModel
import FeedStore

extension ReplaySession {
    /// Replays `trace` against any backend bound to one feed (an HTTP feed API, PostgreSQL): the
    /// same main job as ``run(trace:store:feed:layout:options:insertPreset:keepInserts:shouldStop:)``.
    ///
    /// The trace's `insert` events live in memory while the replay runs (``StoreBackend``); with
    /// `keepInserts` they are written at the end through ``FeedModel/FeedBackend/insert(_:)``
    /// (an HTTP API: one POST, where its convention has one).
    /// - Throws: ``LayoutError``, ``ReplayError`` for invalid options, ``StoreError/interrupted``
    ///   when `shouldStop` says so, and the backend's errors.
    public static func run(
        trace: Trace, backend: any FeedBackend, layout: LayoutConfiguration, options: ReplayOptions,
        insertPreset: Preset, keepInserts: Bool = false, shouldStop: @escaping () -> Bool = { false }
    ) throws -> ReplayResult {
        let replayBackend = try StoreBackend(backend: backend, insertPreset: insertPreset, seed: options.seed)
        let session = try ReplaySession(
            trace: trace, layout: try layout.makeLayout(), layoutDescription: layout.summary, backend: replayBackend,
            options: options, axis: layout.scrollAxis)
        while try session.advanceFrame() {
            if shouldStop() { throw StoreError.interrupted }
        }
        if keepInserts {
            if shouldStop() { throw StoreError.interrupted }
            try replayBackend.commitInserts()
        }
        return session.result
    }
}
