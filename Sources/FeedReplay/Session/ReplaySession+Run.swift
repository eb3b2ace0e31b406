import FeedLayout
import FeedModel
import FeedResources

extension ReplaySession {
    /// Replays `trace` against one feed of any backend with a layout built from `layout`: the
    /// whole main job in one call (used by `feedsim replay`, `demo` and the benchmarks). The caller
    /// opens the backend (`feedsim` opens the one `--db` names) and hands it over.
    ///
    /// - Parameters:
    ///   - backend: an open backend bound to the replayed feed, used by this thread only.
    ///   - insertPreset: the preset upstream `insert` events generate new rows from.
    ///   - keepInserts: keep the rows that `insert` events write; by default they are deleted again
    ///     through ``FeedModel/FeedBackend/delete(ids:)`` when the replay ends, also when it fails,
    ///     so the same replay run again gives the same report (a backend that assigns ids as
    ///     `max(id) + 1`, as SQLite's rowids do, assigns the same ones again).
    /// - Throws: ``LayoutError`` for a layout that cannot be prepared for the trace's viewport,
    ///   ``ReplayError`` for invalid options, and the backend's errors.
    public static func run(
        trace: Trace, backend: any FeedBackend, layout: LayoutConfiguration, options: ReplayOptions,
        insertPreset: Preset, keepInserts: Bool = false
    ) throws -> ReplayResult {
        let store = try StoreBackend(backend: backend, insertPreset: insertPreset, seed: options.seed)
        let session = try ReplaySession(
            trace: trace, layout: try layout.makeLayout(), layoutDescription: layout.summary, backend: store,
            options: options, axis: layout.scrollAxis)
        if keepInserts { return try session.run() }
        let result: ReplayResult
        do {
            result = try session.run()
        } catch {
            if !store.insertedIDs.isEmpty { _ = try? backend.delete(ids: store.insertedIDs) }
            throw error
        }
        if !store.insertedIDs.isEmpty { try backend.delete(ids: store.insertedIDs) }
        return result
    }
}
