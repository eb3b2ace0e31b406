import FeedLayout
import FeedModel
import FeedReplay
import FeedResources
import FeedStore

extension ReplaySession {
    /// ``run(trace:backend:largestID:layout:options:insertPreset:keepInserts:shouldStop:)`` on feed
    /// `feed` of an open SQLite store: what `feedsim replay` and `demo` hand over.
    /// - Throws: ``StoreError/unknownFeed(_:known:)``, ``StoreError/interrupted`` when `shouldStop`
    ///   stopped it (exit 130), and what the generic run throws.
    static func run(
        trace: Trace, store: ItemStore, feed: String, layout: LayoutConfiguration, options: ReplayOptions,
        insertPreset: Preset, keepInserts: Bool = false, shouldStop: @escaping () -> Bool = { false }
    ) throws -> ReplayResult {
        let feedID = try store.requireFeed(named: feed)
        do {
            return try run(
                trace: trace, backend: store.pages(feed: feedID), largestID: try store.largestItemID(), layout: layout,
                options: options, insertPreset: insertPreset, keepInserts: keepInserts, shouldStop: shouldStop)
        } catch ReplayError.interrupted {
            throw StoreError.interrupted
        }
    }
}
