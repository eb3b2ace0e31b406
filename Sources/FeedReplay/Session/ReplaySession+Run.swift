import FeedLayout
import FeedModel
import FeedResources

extension ReplaySession {
    /// Replays `trace` against one feed of any backend with a layout built from `layout`: the whole
    /// main job in one call (used by `feedsim replay`, `demo` and the benchmarks). The caller opens
    /// the backend (`feedsim` opens the one `--db` names) and hands it over.
    ///
    /// The rows the trace's `insert` events make live in memory while the replay runs (merged into
    /// every page and row batch it reads; ``StoreBackend``), so the backend is never written and its
    /// write lock never held meanwhile: a concurrent writer proceeds, the backend may be opened
    /// read-only, and a replay killed midway leaves it as it was. With `keepInserts`, all of them
    /// are written at the end in one transaction: all or nothing.
    ///
    /// - Parameters:
    ///   - backend: an open backend bound to the replayed feed, used by this thread only.
    ///   - largestID: the backend's largest item id (any feed), so inserts take the ids after it.
    ///   - insertPreset: the preset upstream `insert` events generate new rows from.
    ///   - keepInserts: keep the rows that `insert` events make; by default they are dropped when the
    ///     replay ends (visible to the replay's own queries only), so the same replay run again gives
    ///     the same report.
    ///   - shouldStop: checked once per frame and before committing; when it returns `true` the
    ///     replay ends with ``ReplayError/interrupted`` and nothing is written (SIGINT, SIGTERM).
    ///   - recorder: receives every frame and request (for the HTML report and Perfetto export);
    ///     `nil` records nothing. It sees every frame: a run of idle frames is handed over at once
    ///     (``ReplayRecorder/recordRepeated(frameIndices:refreshRate:)``), as the timeline takes it.
    /// - Throws: ``LayoutError`` for a layout that cannot be prepared for the trace's viewport,
    ///   ``ReplayError`` for invalid options or an interruption, and the backend's errors.
    public static func run(
        trace: Trace, backend: any FeedBackend, largestID: Int64? = nil, layout: LayoutConfiguration,
        options: ReplayOptions, insertPreset: Preset, keepInserts: Bool = false,
        shouldStop: @escaping () -> Bool = { false }, recorder: (any ReplayRecorder)? = nil
    ) throws -> ReplayResult {
        let store = try StoreBackend(backend: backend, insertPreset: insertPreset, seed: options.seed, largestID: largestID)
        let session = try ReplaySession(
            trace: trace, layout: try layout.makeLayout(), layoutDescription: layout.summary, backend: store,
            options: options, axis: layout.scrollAxis)
        session.recorder = recorder
        // Idle stretches are jumped over (``ReplayOptions/skipsIdleFrames``; the report is the same),
        // so a trace that rests for hours replays in moments.
        while try session.advanceFrame(skippingIdle: options.skipsIdleFrames) {
            if shouldStop() { throw ReplayError.interrupted }
        }
        if keepInserts {
            if shouldStop() { throw ReplayError.interrupted }
            try store.commitInserts()  // one transaction: all or nothing even if killed meanwhile
        }
        return session.result
    }

    /// Whether `trace` has `insert` events (a replay of it with `keepInserts` writes to the backend).
    public static func writes(_ trace: Trace) -> Bool {
        trace.events.contains { if case .insert = $0.kind { return true } else { return false } }
    }
}
