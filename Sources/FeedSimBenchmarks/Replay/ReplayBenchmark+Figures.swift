import FeedEngine
import FeedLayout
import FeedModel
import FeedReplay
import FeedResources
import FeedStore
import FeedLoad
import Foundation

extension ReplayBenchmark {
    /// The timed replay: how much simulated time one wall second buys.
    public struct Speed: Codable, Hashable, Sendable {
        /// Virtual time replayed, ms (the report's `duration_ms`).
        public var simulatedMs: Double
        public var frames: Int
        /// Fastest wall time of the repetitions, ms (session set-up, replay and report).
        public var wallMs: Double
        /// frames ÷ wall seconds.
        public var framesPerSecond: Double
        /// simulated ms ÷ wall ms.
        public var realTimeFactor: Double
        /// Pages applied: Init, More, prepend (back up after a drop), Refresh.
        public var pagesInit: Int
        public var pagesMore: Int
        public var pagesPrepend: Int
        public var pagesRefresh: Int
        /// Rows fetched and their batches.
        public var rowsFetched: Int
        public var rowBatches: Int
        /// How deep the feed was paged: items from the head to the oldest item any page returned.
        public var depthItems: Int
        /// Distance the content offset travelled, points (the report's `distance_pt`). With page
        /// dropping on it also counts the offset shifts that keep the content still when pages are
        /// dropped at the top (``FrameMetrics`` sums every offset change), so it overstates the
        /// scrolling; ``depthItems`` is the measure of depth.
        public var distancePt: Double
        /// Items loaded when the replay ended (≤ the dropping limit).
        public var finalLoadedItems: Int
        /// Invariant violations found (should be 0).
        public var violations: Int

        init(report: ReplayReport, backend: RecordingBackend, wallSeconds: Double) {
            simulatedMs = report.durationMs
            frames = report.frames
            wallMs = wallSeconds * 1000
            framesPerSecond = wallSeconds > 0 ? Double(report.frames) / wallSeconds : 0
            realTimeFactor = wallSeconds > 0 ? report.durationMs / (wallSeconds * 1000) : 0
            pagesInit = report.pages.`init`
            pagesMore = report.pages.more
            pagesPrepend = report.pages.prepend
            pagesRefresh = report.pages.refresh
            rowsFetched = report.rows.fetched
            rowBatches = report.rows.batches
            depthItems = backend.depthItems
            distancePt = report.distancePt
            finalLoadedItems = report.final.loadedItems
            violations = report.violations.count
        }

        enum CodingKeys: String, CodingKey {
            case frames, violations
            case simulatedMs = "simulated_ms"
            case wallMs = "wall_ms"
            case framesPerSecond = "frames_per_second"
            case realTimeFactor = "real_time_factor"
            case pagesInit = "pages_init"
            case pagesMore = "pages_more"
            case pagesPrepend = "pages_prepend"
            case pagesRefresh = "pages_refresh"
            case rowsFetched = "rows_fetched"
            case rowBatches = "row_batches"
            case depthItems = "depth_items"
            case distancePt = "distance_pt"
            case finalLoadedItems = "final_loaded_items"
        }
    }

    /// What the store calls of a replay read when issued again back to back.
    public struct StoreWork: Codable, Hashable, Sendable {
        public var pageQueries = 0
        public var rowBatches = 0
        public var groundTruthQueries = 0
        /// Item stubs and rows read (pages, ground truth and rows).
        public var itemsRead = 0
        /// Inserts in the log, not repeated (the baseline only reads).
        public var insertsSkipped = 0

        enum CodingKeys: String, CodingKey {
            case pageQueries = "page_queries"
            case rowBatches = "row_batches"
            case groundTruthQueries = "ground_truth_queries"
            case itemsRead = "items_read"
            case insertsSkipped = "inserts_skipped"
        }
    }

    /// The baseline: the replay's store calls alone, and the replay's time over it.
    public struct Baseline: Codable, Hashable, Sendable {
        public var work: StoreWork
        /// Fastest wall time of the store calls alone, ms.
        public var wallMs: Double
        /// Replay wall time ÷ store-alone wall time (≥ 1; 1 would mean the simulator costs nothing).
        public var ratio: Double
        /// (replay − store alone) wall time per simulated frame, µs: the simulator's own work, plus
        /// what its store calls lose to running between frames (``storeInReplayMs``).
        public var simulatorMicrosecondsPerFrame: Double
        /// The same store calls' wall time inside a replay (the fastest of one more replay per round,
        /// timed call by call, its own wall time no target's figure), ms: more than ``wallMs`` by
        /// what running between frames of simulation costs them (SQLite's code and pages evicted
        /// from the CPU caches meanwhile).
        public var storeInReplayMs: Double
        /// That replay's wall time less its store calls, per frame, µs: the simulator's own work alone.
        public var simulatorAloneMicrosecondsPerFrame: Double

        /// - Parameters:
        ///   - insideReplay: the fastest timed replay's wall time and the time inside its store calls, seconds.
        init(
            work: StoreWork, wallSeconds: Double, replayWallSeconds: Double, frames: Int,
            insideReplay: (replaySeconds: Double, callSeconds: Double)
        ) {
            self.work = work
            wallMs = wallSeconds * 1000
            ratio = wallSeconds > 0 ? replayWallSeconds / wallSeconds : 0
            simulatorMicrosecondsPerFrame = frames > 0 ? (replayWallSeconds - wallSeconds) * 1e6 / Double(frames) : 0
            storeInReplayMs = insideReplay.callSeconds * 1000
            simulatorAloneMicrosecondsPerFrame =
                frames > 0 ? (insideReplay.replaySeconds - insideReplay.callSeconds) * 1e6 / Double(frames) : 0
        }

        enum CodingKeys: String, CodingKey {
            case work, ratio
            case wallMs = "wall_ms"
            case simulatorMicrosecondsPerFrame = "simulator_us_per_frame"
            case storeInReplayMs = "store_in_replay_ms"
            case simulatorAloneMicrosecondsPerFrame = "simulator_alone_us_per_frame"
        }
    }

    /// Everything one run measured.
    public struct Report: Codable, Hashable, Sendable {
        public var configuration: String
        public var items: Int
        public var maxLoadedItems: Int
        public var speed: Speed
        public var baseline: Baseline
        public var memory: [MemoryProbe]
        public var comparisons: [MemoryComparison]

        /// Whether the real-time factor reaches ``ReplayBenchmark/realTimeTarget``.
        public var meetsRealTimeTarget: Bool { speed.realTimeFactor >= ReplayBenchmark.realTimeTarget }

        enum CodingKeys: String, CodingKey {
            case configuration, items, speed, baseline, memory, comparisons
            case maxLoadedItems = "max_loaded_items"
        }
    }

    /// Issues the read calls of `log` on `backend` in order, without the simulator.
    /// - Returns: what was read (to check the same work was done, and so nothing is optimised away).
    /// - Complexity: the store's cost of each call; nothing else.
    public static func replayCalls(_ log: [RecordingBackend.Call], on backend: any ReplayBackend) throws -> StoreWork {
        var work = StoreWork()
        for call in log {
            switch call {
            case .page(let request):
                work.pageQueries += 1
                work.itemsRead += try backend.page(request).items.count
            case .rows(let ids):
                work.rowBatches += 1
                work.itemsRead += try backend.rows(ids: ids).rows.count
            case .groundTruth(let cursor, let limit):
                work.groundTruthQueries += 1
                work.itemsRead += try backend.groundTruth(after: cursor, limit: limit).count
            case .groundTruthCursors(let cursor, let limit):
                work.groundTruthQueries += 1
                work.itemsRead += try backend.groundTruthCursors(after: cursor, limit: limit).count
            case .insert:
                work.insertsSkipped += 1
            }
        }
        return work
    }
}
