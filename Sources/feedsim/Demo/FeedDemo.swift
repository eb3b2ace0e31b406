import FeedEngine
import FeedLayout
import FeedModel
import FeedReplay
import FeedResources
import FeedStore
import Foundation

/// `feedsim demo`: the main job on embedded defaults, for a newcomer.
///
/// Seeds a temporary database with a photo feed from the `photos` preset and with the real
/// Wikimedia "On this day" feed shipped in `Seeds/wikimedia/` (numbers only: page ids,
/// timestamps, sections as kinds, image sizes; titles come from the `news` preset's generator),
/// then replays real recorded scroll traces shipped in `Seeds/traces/` against them with grid
/// and mosaic layouts and a log-normal backend latency (median 120 ms, σ 0.5).
enum FeedDemo {
    /// One replay of the demo: what it ran and what it reported.
    public struct Run: Sendable {
        public var title: String
        public var trace: String
        public var feed: String
        public var result: ReplayResult
    }

    /// What one demo replay uses.
    struct Plan {
        var title: String
        var trace: String
        var feed: String
        var layout: LayoutConfiguration
    }

    static let plans: [Plan] = [
        Plan(
            title: "13 finger drags on a phone (Flutter's recording), photo grid",
            trace: "flutter-velocity-tracker-drags.jsonl", feed: "photos",
            layout: LayoutConfiguration(kind: .grid, columns: 3, spacing: 2)),
        Plan(
            title: "Hand-recorded flings on a Pixel (AOSP's recording), mosaic",
            trace: "aosp-velocitytracker-flings.jsonl", feed: "photos",
            layout: LayoutConfiguration(kind: .mosaic, spacing: 4, insets: EdgeInsets(all: 4), bigHeight: 260)),
        Plan(
            title: "Mouse-wheel notches in Chrome, Wikimedia 'On this day' feed, 2-column grid",
            trace: "chrome-wheel.jsonl", feed: "wikimedia",
            layout: LayoutConfiguration(kind: .grid, columns: 2, spacing: 8, insets: EdgeInsets(all: 8))),
    ]

    /// Items in the demo's photo feed.
    public static let photoCount = 50_000

    /// Runs the demo in a fresh temporary directory, removed afterwards.
    /// - Parameters:
    ///   - options: replay options (the demo's defaults come from ``defaultOptions``).
    ///   - recorder: called once per replay, in order, before it runs; the recorder it returns (if
    ///     any) receives that replay's frames and requests (`feedsim demo --html`).
    /// - Returns: one ``Run`` per replay, in order.
    /// - Throws: ``FileError`` when a seed file cannot be read (`--seeds DIR` names the
    ///   directory), or the store's error.
    public static func run(
        options: ReplayOptions = defaultOptions, recorder: (Trace) -> (any ReplayRecorder)? = { _ in nil }
    ) throws -> [Run] {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("feedsim-demo-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try ItemStore(path: directory.appendingPathComponent("demo.sqlite").path)
        let seeds = ResourceDirectory.seeds
        // Wikimedia first: its page ids are fixed, the seeder's ids follow the largest id in the store.
        try importWikimedia(store, seeds: seeds)
        try seedPhotos(store)
        let insertPreset = try Preset.named("mixed")
        return try plans.map { plan in
            let file = "traces/\(plan.trace)"
            let trace = try Trace.read(from: String(decoding: try seeds.data(file), as: UTF8.self), file: seeds.path(file))
            let result = try ReplaySession.run(
                trace: trace, backend: store.pages(feed: try store.requireFeed(named: plan.feed)), layout: plan.layout,
                options: options, insertPreset: insertPreset, recorder: recorder(trace))
            return Run(title: plan.title, trace: plan.trace, feed: plan.feed, result: result)
        }
    }

    /// Paging 3's defaults (page size 20, Init 3 pages), UIKit physics and ranges, a log-normal
    /// latency with a 120 ms median, seed 1.
    public static let defaultOptions = ReplayOptions(
        controller: FeedController.Configuration(pageSize: 20), ranges: .uikit, latency: .logNormal(median: 120, sigma: 0.5),
        seed: 1)

    static func seedPhotos(_ store: ItemStore) throws {
        var generator = ItemGenerator(preset: try Preset.named("photos"), seed: 1)
        _ = try Seeder.seed(store, feedNamed: "photos", generator: &generator, count: photoCount)
    }

    /// The Wikimedia items carry numbers only; titles and authors come from the news preset.
    static func importWikimedia(_ store: ItemStore, seeds: ResourceDirectory) throws {
        let file = "wikimedia/onthisday-items.csv"
        let facts = try ItemImporter.parse(try seeds.data(file), format: .csv, file: seeds.path(file))
        var generator = ItemGenerator(preset: try Preset.named("news"), seed: 2)
        let items = facts.map { fact -> NewItem in
            let words = generator.next()
            var item = fact
            item.title = words.title
            item.author = words.author
            return item
        }
        _ = try store.insert(items: items, feedNamed: "wikimedia")
    }
}
