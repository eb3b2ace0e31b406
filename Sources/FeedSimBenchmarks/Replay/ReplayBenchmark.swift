import FeedEngine
import FeedLayout
import FeedModel
import FeedReplay
import FeedResources
import FeedStore
import FeedLoad
import Foundation

/// `feedsim bench replay`: how fast the whole simulator replays a long session against a large
/// SQLite feed, what it costs over the store alone, and whether its memory stays flat when the
/// feed is paged 10× deeper with page dropping on.
///
/// One run:
/// 1. seeds ``Configuration/items`` items of a preset (`photos`) into a temporary SQLite file,
///    and a tenth of that into a second file (for the feed-size comparison);
/// 2. synthesizes a ``Configuration/durationS``-second trace of the ``SynthModel/flinger`` model
///    (flings of 2,000–4,500 pt/s every ~250 ms, 10 % back up: it pages deepest of the models),
///    replays it ``Configuration/repetitions`` times through ``ReplaySession`` on the large file
///    with page dropping on, and keeps the fastest wall time: simulated frames per second and the
///    real-time factor (simulated ms ÷ wall ms; target ≥ ``realTimeTarget``);
/// 3. the baseline: the store calls that replay made (page queries, row fetches, ground-truth
///    checks), recorded in order and issued back to back on the same store without the simulator,
///    once after each replay (rounds alternate); the ratio replay ÷ store is the simulator's
///    overhead over the store it drives;
/// 4. memory: a replay per ``MemoryCase`` (dropping on and off; a trace 10× shorter, a feed 10×
///    smaller), each measured by `probe`: give it a fresh process per case (VmHWM is process-wide
///    and freed memory stays with the allocator, so cases in one process would not be comparable).
public enum ReplayBenchmark {
    /// The real-time factor asked for on a quiet machine (issue #13: "≥ 4,000×"; issue #5 asked 1,000×).
    public static let realTimeTarget = 4000.0
    /// Most the replay may take over its store calls alone (issue #13: "replay ÷ its store calls alone ≤ 2.5").
    public static let storeRatioTarget = 2.5

    /// What to run. Defaults are the issue's: 1,000,000 `photos` items, a 10-minute flinger trace,
    /// log-normal latency (median 120 ms, σ 0.5), page dropping at 600 items, a 3-column grid.
    public struct Configuration: Sendable {
        /// Items in the large feed, ≥ 1,000 (the small feed holds a tenth).
        public var items: Int
        public var preset: String
        public var model: SynthModel
        /// Trace length, seconds (the shallow memory cases use a tenth of it).
        public var durationS: Double
        /// Seeds the items, the trace and the replay's random draws.
        public var seed: UInt64
        public var latency: LatencyModel
        /// Page dropping limit for the timed replay and the "dropping on" memory cases.
        public var maxLoadedItems: Int
        public var pageSize: Int
        public var layout: LayoutConfiguration
        /// Timed replays (and baseline runs); the fastest counts.
        public var repetitions: Int

        public init(
            items: Int = 1_000_000, preset: String = "photos", model: SynthModel = .flinger, durationS: Double = 600,
            seed: UInt64 = 1, latency: LatencyModel = .logNormal(median: 120, sigma: 0.5), maxLoadedItems: Int = 600,
            pageSize: Int = 20, layout: LayoutConfiguration = LayoutConfiguration(kind: .grid, columns: 3),
            repetitions: Int = 3
        ) {
            self.items = items
            self.preset = preset
            self.model = model
            self.durationS = durationS
            self.seed = seed
            self.latency = latency
            self.maxLoadedItems = maxLoadedItems
            self.pageSize = pageSize
            self.layout = layout
            self.repetitions = repetitions
        }

        /// The replay options: defaults of `feedsim replay` with this page size, latency, seed and
        /// dropping limit (`nil`: dropping off).
        public func options(maxLoadedItems: Int?) -> ReplayOptions {
            ReplayOptions(
                controller: FeedController.Configuration(pageSize: pageSize, maxLoadedItems: maxLoadedItems),
                latency: latency, seed: seed)
        }

        /// The synthetic trace of `durationS` seconds (a shorter one is a prefix of a longer one:
        /// the synthesizer draws the same gestures and stops earlier).
        public func trace(durationS: Double) -> Trace {
            TraceSynthesizer(model: model, duration: durationS, seed: seed).generate()
        }

        /// One line for the output's header.
        public var summary: String {
            "\(items) items (preset \(preset)), \(model.rawValue) trace of \(TraceNumberFormat.format(durationS)) s "
                + "(seed \(seed)), latency \(latency.description), page size \(pageSize), \(layout.summary)"
        }
    }

    /// Runs the benchmark in a temporary directory (removed afterwards).
    /// - Parameters:
    ///   - probe: measures one memory case on the given database file, ideally in a child process
    ///     (`feedsim bench replay --child`); ``probeMemory(_:databasePath:configuration:)`` in-process.
    ///   - progress: a line per step, for stderr.
    /// - Throws: ``SQLiteError``, ``StoreError``, ``LayoutError``, ``ReplayError``; whatever `probe` throws.
    public static func run(
        _ configuration: Configuration, probe: (MemoryCase, String) throws -> MemoryProbe,
        progress: (String) -> Void = { _ in }
    ) throws -> Report {
        precondition(configuration.items >= 1000 && configuration.repetitions >= 1 && configuration.durationS > 0)
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("feedsim-bench-replay-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let largePath = directory.appendingPathComponent("large.sqlite").path
        let smallPath = directory.appendingPathComponent("small.sqlite").path
        let preset = try Preset.named(configuration.preset)

        progress("seeding \(configuration.items) items (preset \(configuration.preset))")
        let store = try seed(path: largePath, count: configuration.items, preset: preset, seed: configuration.seed)
        progress("seeding \(configuration.items / 10) items for the small feed")
        _ = try seed(path: smallPath, count: configuration.items / 10, preset: preset, seed: configuration.seed)

        let trace = configuration.trace(durationS: configuration.durationS)
        // Rounds alternate a replay and its store calls alone, so that a slow spell of a shared
        // machine falls on both sides of the ratio, not on whichever ran then (with all replays
        // first, a slow spell during the store rounds alone once read as "met": 2.50× at 196.5 ms
        // over 78.6 ms, against 3.35–3.64× over 51–53 ms in the runs beside it).
        var best = Double.infinity
        var storeBest = Double.infinity
        var storeWork = StoreWork()
        var recorded: (result: ReplayResult, backend: RecordingBackend)?
        var insideReplay = (replaySeconds: Double.infinity, callSeconds: 0.0)
        for round in 1...configuration.repetitions {
            progress("replay \(round) of \(configuration.repetitions)")
            var outcome: (ReplayResult, RecordingBackend)?
            let seconds = try time {
                outcome = try replay(
                    trace: trace, store: store, configuration: configuration,
                    maxLoadedItems: configuration.maxLoadedItems, keepsLog: round == 1)
            }
            best = min(best, seconds)
            if recorded == nil { recorded = outcome }
            guard let log = recorded?.backend.log else { preconditionFailure("the first replay keeps its log") }
            progress("store calls alone, \(round) of \(configuration.repetitions)")
            let direct = try StoreBackend(
                backend: store.pages(feed: try store.requireFeed(named: "home")), insertPreset: preset,
                seed: configuration.seed)
            storeBest = min(storeBest, try time { storeWork = try replayCalls(log, on: direct) })
            // Then a replay whose store calls are timed one by one (its wall time no target's figure):
            // what the calls cost inside a replay, between frames of simulation. The fastest counts.
            progress("replay with its store calls timed, \(round) of \(configuration.repetitions)")
            let timedSession = try makeSession(
                trace: trace, store: store, configuration: configuration,
                maxLoadedItems: configuration.maxLoadedItems, keepsLog: false, timesCalls: true)
            let timedSeconds = try time { _ = try timedSession.session.run() }
            if timedSeconds < insideReplay.replaySeconds {
                insideReplay = (timedSeconds, Double(timedSession.backend.callNanoseconds) / 1e9)
            }
        }
        guard let (result, backend) = recorded else { preconditionFailure("at least one repetition") }
        let speed = Speed(report: result.report, backend: backend, wallSeconds: best)
        let baseline = Baseline(
            work: storeWork, wallSeconds: storeBest, replayWallSeconds: best, frames: speed.frames,
            insideReplay: insideReplay)

        var probes: [MemoryProbe] = []
        for memoryCase in MemoryCase.standard(configuration) {
            progress("memory: \(memoryCase.name)")
            probes.append(try probe(memoryCase, memoryCase.smallFeed ? smallPath : largePath))
        }
        return Report(
            configuration: configuration.summary, items: configuration.items,
            maxLoadedItems: configuration.maxLoadedItems, speed: speed, baseline: baseline, memory: probes,
            comparisons: MemoryComparison.standard(probes))
    }

    /// One replay of `trace` on `store`'s `home` feed through a ``RecordingBackend``.
    static func replay(
        trace: Trace, store: ItemStore, configuration: Configuration, maxLoadedItems: Int?, keepsLog: Bool
    ) throws -> (ReplayResult, RecordingBackend) {
        let session = try makeSession(
            trace: trace, store: store, configuration: configuration, maxLoadedItems: maxLoadedItems,
            keepsLog: keepsLog)
        return (try session.session.run(), session.backend)
    }

    /// A session on `store`'s `home` feed with a recording backend, ready to run.
    static func makeSession(
        trace: Trace, store: ItemStore, configuration: Configuration, maxLoadedItems: Int?, keepsLog: Bool,
        timesCalls: Bool = false
    ) throws -> (session: ReplaySession, backend: RecordingBackend) {
        let feed = try store.requireFeed(named: "home")
        let inner = try StoreBackend(
            backend: store.pages(feed: feed), insertPreset: try Preset.named(configuration.preset), seed: configuration.seed)
        let backend = RecordingBackend(wrapping: inner, keepsLog: keepsLog, timesCalls: timesCalls)
        let session = try ReplaySession(
            trace: trace, layout: try configuration.layout.makeLayout(),
            layoutDescription: configuration.layout.summary, backend: backend,
            options: configuration.options(maxLoadedItems: maxLoadedItems), axis: configuration.layout.scrollAxis)
        return (session, backend)
    }

    /// Seeds `count` items into a new file at `path` (feed `home`), returns the open store.
    static func seed(path: String, count: Int, preset: Preset, seed: UInt64) throws -> ItemStore {
        let store = try ItemStore(path: path)
        var generator = ItemGenerator(preset: preset, seed: seed)
        try Seeder.seed(store, feedNamed: "home", generator: &generator, count: count)
        return store
    }

    /// Seconds `body` takes on the monotonic clock (the benchmark's only clock; the simulator reads none).
    static func time(_ body: () throws -> Void) rethrows -> Double {
        let start = ContinuousClock.now
        try body()
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}
