import FeedLayout
import FeedStore

extension ReplaySession {
    /// Replays `trace` against feed `feed` of an open SQLite store with a layout built from
    /// `layout`: the whole main job in one call (used by `feedsim replay`, `demo` and `load`).
    ///
    /// The rows the trace's `insert` events make live in memory while the replay runs (merged into
    /// every page and row batch it reads; ``StoreBackend``), so the store is never written and its
    /// write lock never held meanwhile: a concurrent writer proceeds, the store may be opened
    /// read-only, and a replay killed midway leaves the file as it was. With `keepInserts`, all of
    /// them are written at the end in one transaction: all or nothing.
    ///
    /// - Parameters:
    ///   - insertPreset: the preset upstream `insert` events generate new rows from.
    ///   - keepInserts: keep the rows that `insert` events make; by default they are dropped when the
    ///     replay ends (visible to the replay's own queries only), so the same replay run again gives
    ///     the same report.
    ///   - shouldStop: checked once per frame and before committing; when it returns `true` the
    ///     replay ends with ``StoreError/interrupted`` and nothing is written (SIGINT, SIGTERM).
    ///   - recorder: receives every frame and request (for the HTML report and Perfetto export);
    ///     `nil` records nothing.
    /// - Throws: ``StoreError`` for an unknown feed, ``LayoutError`` for a layout that cannot be
    ///   prepared for the trace's viewport, ``ReplayError`` for invalid options, and SQLite errors.
    public static func run(
        trace: Trace, store: ItemStore, feed: String, layout: LayoutConfiguration, options: ReplayOptions,
        insertPreset: Preset, keepInserts: Bool = false, shouldStop: @escaping () -> Bool = { false },
        recorder: (any ReplayRecorder)? = nil
    ) throws -> ReplayResult {
        let feedID = try store.requireFeed(named: feed)
        let backend = try StoreBackend(store: store, feed: feedID, insertPreset: insertPreset, seed: options.seed)
        let session = try ReplaySession(
            trace: trace, layout: try layout.makeLayout(), layoutDescription: layout.summary, backend: backend,
            options: options, axis: layout.scrollAxis)
        session.recorder = recorder
        while try session.advanceFrame() {
            if shouldStop() { throw StoreError.interrupted }
        }
        if keepInserts {
            if shouldStop() { throw StoreError.interrupted }
            try backend.commitInserts()  // one transaction: all or nothing even if killed meanwhile
        }
        return session.result
    }

    /// Whether `trace` has `insert` events (a replay of it with `keepInserts` writes to the store).
    public static func writes(_ trace: Trace) -> Bool {
        trace.events.contains { if case .insert = $0.kind { return true } else { return false } }
    }
}
