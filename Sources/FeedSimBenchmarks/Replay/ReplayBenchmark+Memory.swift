import FeedEngine
import FeedLayout
import FeedModel
import FeedReplay
import FeedResources
import FeedStore
import FeedLoad
import Foundation

extension ReplayBenchmark {
    /// One memory measurement: a trace length, a feed size and page dropping on or off.
    public struct MemoryCase: Codable, Hashable, Sendable {
        /// Short name, e.g. `drop on, 600 s, 1000000 items`.
        public var name: String
        public var durationS: Double
        /// Page dropping limit, `nil` for dropping off.
        public var maxLoadedItems: Int?
        /// Whether it runs on the small feed (a tenth of the items).
        public var smallFeed: Bool
        public var feedItems: Int

        public init(durationS: Double, maxLoadedItems: Int?, smallFeed: Bool, feedItems: Int) {
            self.durationS = durationS
            self.maxLoadedItems = maxLoadedItems
            self.smallFeed = smallFeed
            self.feedItems = feedItems
            let dropping = maxLoadedItems.map { "drop at \($0)" } ?? "no drop"
            name = "\(dropping), \(TraceNumberFormat.format(durationS)) s, \(feedItems) items"
        }

        /// The six cases of a run: dropping on and off × (full trace on the large feed, a tenth of
        /// the trace on the large feed, the full trace on the small feed).
        public static func standard(_ configuration: Configuration) -> [MemoryCase] {
            let large = configuration.items
            let small = configuration.items / 10
            var cases: [MemoryCase] = []
            for limit in [configuration.maxLoadedItems, nil] {
                cases.append(
                    MemoryCase(
                        durationS: configuration.durationS / 10, maxLoadedItems: limit, smallFeed: false,
                        feedItems: large))
                cases.append(
                    MemoryCase(
                        durationS: configuration.durationS, maxLoadedItems: limit, smallFeed: false, feedItems: large))
                cases.append(
                    MemoryCase(
                        durationS: configuration.durationS, maxLoadedItems: limit, smallFeed: true, feedItems: small))
            }
            return cases
        }

        enum CodingKeys: String, CodingKey {
            case name
            case durationS = "duration_s"
            case maxLoadedItems = "max_loaded_items"
            case smallFeed = "small_feed"
            case feedItems = "feed_items"
        }
    }

    /// What one memory case measured, in its own process.
    public struct MemoryProbe: Codable, Hashable, Sendable {
        public var memoryCase: MemoryCase
        public var frames: Int
        /// How deep the feed was paged, items (see ``RecordingBackend/depthItems``).
        public var depthItems: Int
        public var finalLoadedItems: Int
        /// VmRSS just before the replay (store open and its page cache filled, trace built), KiB.
        public var rssBeforeKiB: Int
        /// VmHWM after the replay, KiB: the peak during the replay when ``peakWasReset``.
        public var peakKiB: Int
        /// `peakKiB − rssBeforeKiB`: how much the replay raised the resident set at its peak.
        public var peakGrowthKiB: Int
        /// VmRSS after the replay minus before, KiB, with the session still alive: what the replay
        /// holds at its end (plus memory it freed that the allocator kept).
        public var retainedGrowthKiB: Int
        /// Whether VmHWM was reset to VmRSS before the replay (`/proc/self/clear_refs`).
        public var peakWasReset: Bool

        enum CodingKeys: String, CodingKey {
            case frames
            case memoryCase = "case"
            case depthItems = "depth_items"
            case finalLoadedItems = "final_loaded_items"
            case rssBeforeKiB = "rss_before_kib"
            case peakKiB = "peak_kib"
            case peakGrowthKiB = "peak_growth_kib"
            case retainedGrowthKiB = "retained_growth_kib"
            case peakWasReset = "peak_was_reset"
        }
    }

    /// Measures one memory case in this process: meant to run alone in a fresh process
    /// (`feedsim bench replay --child`), since VmHWM is process-wide and memory freed by an
    /// earlier replay would be reused without showing.
    ///
    /// Before measuring it opens the store and scans it once (`stats()`), so SQLite's page cache
    /// (bounded: 2 MiB by default) is full and its growth is not charged to the replay; builds the
    /// trace; and makes the session. Then it reads VmRSS, resets VmHWM, runs the replay and reads
    /// VmHWM and VmRSS again while the session is still alive.
    /// - Throws: ``StoreError`` or ``SQLiteError`` for the database, ``ReplayError`` or ``LayoutError``.
    public static func probeMemory(
        _ memoryCase: MemoryCase, databasePath: String, configuration: Configuration
    ) throws -> MemoryProbe {
        let store = try ItemStore(path: databasePath)
        _ = try store.stats()
        let trace = configuration.trace(durationS: memoryCase.durationS)
        let (session, backend) = try makeSession(
            trace: trace, store: store, configuration: configuration, maxLoadedItems: memoryCase.maxLoadedItems,
            keepsLog: false)
        let before = ProcessMemory.status()
        let reset = ProcessMemory.resetPeak()
        let result = try session.run()
        let after = ProcessMemory.status()
        return withExtendedLifetime(session) {
            MemoryProbe(
                memoryCase: memoryCase, frames: result.report.frames, depthItems: backend.depthItems,
                finalLoadedItems: result.report.final.loadedItems, rssBeforeKiB: before?.rssKiB ?? 0,
                peakKiB: after?.peakKiB ?? 0, peakGrowthKiB: (after?.peakKiB ?? 0) - (before?.rssKiB ?? 0),
                retainedGrowthKiB: (after?.rssKiB ?? 0) - (before?.rssKiB ?? 0), peakWasReset: reset)
        }
    }

    /// Two memory cases that differ by a factor of 10 in one dimension (depth paged or feed size).
    public struct MemoryComparison: Codable, Hashable, Sendable {
        /// e.g. `trace 10× longer (pages 10× deeper), dropping on`.
        public var name: String
        public var dropping: Bool
        public var smaller: String
        public var larger: String
        /// larger depth ÷ smaller depth.
        public var depthRatio: Double
        /// Peak and retained RSS growth of the larger case minus the smaller, KiB.
        public var extraPeakKiB: Int
        public var extraRetainedKiB: Int
        /// Whether the larger case stays within ``flatToleranceKiB`` of the smaller on both figures.
        public var flat: Bool

        enum CodingKeys: String, CodingKey {
            case name, dropping, smaller, larger, flat
            case depthRatio = "depth_ratio"
            case extraPeakKiB = "extra_peak_kib"
            case extraRetainedKiB = "extra_retained_kib"
        }

        /// Tolerance of "flat", KiB: 1 MiB. Below that, differences are allocator and page noise
        /// (glibc keeps freed chunks; RSS moves in 4 KiB pages); with dropping off the 10× deeper
        /// replay holds about 20,000 more items, several MiB.
        public static let flatToleranceKiB = 1024

        init(name: String, dropping: Bool, smaller: MemoryProbe, larger: MemoryProbe) {
            self.name = name
            self.dropping = dropping
            self.smaller = smaller.memoryCase.name
            self.larger = larger.memoryCase.name
            depthRatio = smaller.depthItems > 0 ? Double(larger.depthItems) / Double(smaller.depthItems) : 0
            extraPeakKiB = larger.peakGrowthKiB - smaller.peakGrowthKiB
            extraRetainedKiB = larger.retainedGrowthKiB - smaller.retainedGrowthKiB
            flat = extraPeakKiB <= Self.flatToleranceKiB && extraRetainedKiB <= Self.flatToleranceKiB
        }

        /// Pairs the six ``MemoryCase/standard(_:)`` probes: for dropping on and off, the full trace
        /// against a tenth of it (10× deeper), and the large feed against the small (10× more items).
        static func standard(_ probes: [MemoryProbe]) -> [MemoryComparison] {
            var comparisons: [MemoryComparison] = []
            for dropping in [true, false] {
                let group = probes.filter { ($0.memoryCase.maxLoadedItems != nil) == dropping }
                guard group.count == 3 else { continue }
                let (shallow, deep, smallFeed) = (group[0], group[1], group[2])
                let label = dropping ? "dropping on" : "dropping off"
                comparisons.append(
                    MemoryComparison(
                        name: "trace 10× longer, \(label)", dropping: dropping, smaller: shallow, larger: deep))
                comparisons.append(
                    MemoryComparison(
                        name: "feed 10× larger, \(label)", dropping: dropping, smaller: smallFeed, larger: deep))
            }
            return comparisons
        }
    }
}
