import FeedLayout
import FeedModel
import FeedStore

extension ReplaySession {
    /// Replays `trace` against feed `feed` of an open SQLite store with a layout built from
    /// `layout`: the whole main job in one call (used by `feedsim replay`, `demo` and `load`).
    ///
    /// - Parameters:
    ///   - insertPreset: the preset upstream `insert` events generate new rows from.
    ///   - keepInserts: keep the rows that `insert` events write; by default they are undone when the
    ///     replay ends (they are visible to the replay's own queries only), so the same replay run
    ///     again gives the same report.
    /// - Throws: ``StoreError`` for an unknown feed, ``LayoutError`` for a layout that cannot be
    ///   prepared for the trace's viewport, ``ReplayError`` for invalid options, and SQLite errors.
    public static func run(
        trace: Trace, store: ItemStore, feed: String, layout: LayoutConfiguration, options: ReplayOptions,
        insertPreset: Preset, keepInserts: Bool = false
    ) throws -> ReplayResult {
        let feedID = try store.requireFeed(named: feed)
        return try run(
            trace: trace, backend: store.pages(feed: feedID), layout: layout, options: options,
            insertPreset: insertPreset, keepInserts: keepInserts, discardingWrites: { try store.discardingWrites($0) })
    }

    /// Replays `trace` against one feed of any backend (SQLite, PostgreSQL, …): the same replay as
    /// ``run(trace:store:feed:layout:options:insertPreset:keepInserts:)``, which calls this.
    ///
    /// - Parameters:
    ///   - backend: an open backend bound to the replayed feed, used by this thread only.
    ///   - discardingWrites: runs its argument with the writes it makes through `backend` undone
    ///     afterwards (the backend's own mechanism: a savepoint, a rolled-back transaction); used
    ///     when the trace has `insert` events and `keepInserts` is `false`.
    /// - Throws: ``LayoutError``, ``ReplayError``, and the backend's errors.
    public static func run(
        trace: Trace, backend: any FeedBackend, layout: LayoutConfiguration, options: ReplayOptions,
        insertPreset: Preset, keepInserts: Bool = false,
        discardingWrites: (() throws -> ReplayResult) throws -> ReplayResult
    ) throws -> ReplayResult {
        let replayBackend = try StoreBackend(backend: backend, insertPreset: insertPreset, seed: options.seed)
        let session = try ReplaySession(
            trace: trace, layout: try layout.makeLayout(), layoutDescription: layout.summary, backend: replayBackend,
            options: options, axis: layout.scrollAxis)
        let writes = trace.events.contains { if case .insert = $0.kind { return true } else { return false } }
        if writes && !keepInserts {
            return try discardingWrites { try session.run() }
        }
        return try session.run()
    }
}
