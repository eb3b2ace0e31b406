import FeedLayout
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
    ///   - recorder: receives every frame and request (for the HTML report and Perfetto export);
    ///     `nil` records nothing.
    /// - Throws: ``StoreError`` for an unknown feed, ``LayoutError`` for a layout that cannot be
    ///   prepared for the trace's viewport, ``ReplayError`` for invalid options, and SQLite errors.
    public static func run(
        trace: Trace, store: ItemStore, feed: String, layout: LayoutConfiguration, options: ReplayOptions,
        insertPreset: Preset, keepInserts: Bool = false, recorder: (any ReplayRecorder)? = nil
    ) throws -> ReplayResult {
        let feedID = try store.requireFeed(named: feed)
        let backend = try StoreBackend(store: store, feed: feedID, insertPreset: insertPreset, seed: options.seed)
        let session = try ReplaySession(
            trace: trace, layout: try layout.makeLayout(), layoutDescription: layout.summary, backend: backend,
            options: options, axis: layout.scrollAxis)
        session.recorder = recorder
        let writes = trace.events.contains { if case .insert = $0.kind { return true } else { return false } }
        if writes && !keepInserts {
            return try store.discardingWrites { try session.run() }
        }
        return try session.run()
    }
}
