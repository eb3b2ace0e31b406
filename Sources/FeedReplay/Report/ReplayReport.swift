import Foundation

/// What a person would have seen during one replay: the JSON report of `feedsim replay`.
///
/// Encoded with sorted, snake_case keys (``ReplayReport/jsonData()``); all times in ms from the
/// start of the session, lengths in points. Same trace, options and seed ⇒ byte-identical JSON.
public struct ReplayReport: Codable, Equatable, Sendable {
    /// Report format version; bump when a key changes meaning.
    public static let formatVersion = 1

    public var version = ReplayReport.formatVersion
    /// Where the trace came from (the trace header's `source`).
    public var source: String
    /// The options the replay ran with, as text, for the record.
    public var options: [String: String]
    /// Virtual time replayed, ms.
    public var durationMs: Double
    /// Frames stepped.
    public var frames: Int
    /// Refresh rate, Hz.
    public var refreshRateHz: Double
    /// Total distance the content offset travelled, points (sum of |Δoffset| along the scroll axis).
    public var distancePt: Double
    /// Time until a visible cell first showed a loaded row, ms; `nil` if never.
    public var timeToFirstContentMs: Double?
    public var blank: Blank
    public var hitches: Hitches
    public var pages: Pages
    public var rows: Rows
    public var cells: Cells
    /// Time the feed spent failed (a load gave up after its retries), ms.
    public var timeInFailedMs: Double
    /// Largest on-screen movement of the anchor item across a refresh, prepend or page drop, points.
    public var anchorDriftMaxPt: Double
    /// `--scroll android`: the largest distance the finger pulled past an edge while the content
    /// stayed clamped there (the EdgeEffect's glow or Android 12+ stretch), points; 0 with UIKit's
    /// rubber band, which moves the content instead.
    public var edgeEffectMaxPt: Double = 0
    /// Carousel: each frame at which the centred item (the one nearest the viewport's centre, what
    /// the seed's `collectionViewScrollToIndex:` callback reports) changed, first frame included;
    /// empty for other layouts.
    public var centredIndexChanges: [CentredIndexChange] = []
    /// Load state changes per direction (refresh, prepend, append), as Paging 3's `LoadStates`.
    public var transitions: [LoadTransition]
    /// Changes of the feed's merged phase (init, refresh, more, prepend, failed, endOfFeed, idle).
    public var phaseTransitions: [Transition]
    public var taps: [Tap]
    public var final: Final
    public var violations: [Violation]

    /// Blank area: share of the viewport per frame not showing content.
    public struct Blank: Codable, Equatable, Sendable {
        /// Mean over frames of the blank share of the viewport (0...1).
        public var meanFraction: Double
        /// Largest blank share in one frame.
        public var maxFraction: Double
        /// Largest blank share in one frame after the first content was shown.
        public var maxFractionAfterFirstContent: Double
        /// Frames with any blank area.
        public var framesWithBlank: Int
        /// Mean share covered by cells whose row is not loaded yet.
        public var rowMissingFraction: Double
        /// Mean share covered by no content while more content exists (or while the first page loads).
        public var noContentFraction: Double
        /// Frames before the first content was shown: the wait for the first screen (its length
        /// is `time_to_first_content_ms`).
        public var beforeFirstContent: BlankStats
        /// Frames after the first content in which the offset moved: blank while scrolling, what
        /// a layout or a prefetch setting is judged by.
        public var whileScrolling: BlankStats
    }

    /// Blank share over a set of frames: mean, nearest-rank percentiles (to 0.0001) and max.
    public struct BlankStats: Codable, Equatable, Sendable {
        public var frames: Int
        public var meanFraction: Double
        public var p50Fraction: Double
        public var p95Fraction: Double
        public var maxFraction: Double
    }

    /// Frames whose simulated main-thread cost exceeded the frame budget.
    public struct Hitches: Codable, Equatable, Sendable {
        public var count: Int
        /// Total lateness (cost − budget over hitching frames) per second of scrolling, ms/s;
        /// `null` under 1 s of scrolling (``HitchBand/minimumScrollingSeconds``).
        public var timeRatioMsPerS: Double?
        /// Apple's band for the ratio: good < 5, warning 5–10, critical > 10 ms/s, or
        /// "not enough scrolling" under 1 s of it.
        public var band: String
        /// Frame budget, ms (1000 / refresh rate).
        public var budgetMs: Double
        /// Seconds in which the content offset moved.
        public var scrollingS: Double
        /// Total lateness over hitching frames, ms (the ratio's numerator, given even when the
        /// ratio is not).
        public var hitchMs: Double

        private enum CodingKeys: String, CodingKey {
            case count, timeRatioMsPerS, band, budgetMs, scrollingS, hitchMs
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(count, forKey: .count)
            if let timeRatioMsPerS {
                try c.encode(timeRatioMsPerS, forKey: .timeRatioMsPerS)
            } else {
                try c.encodeNil(forKey: .timeRatioMsPerS)
            }
            try c.encode(band, forKey: .band)
            try c.encode(budgetMs, forKey: .budgetMs)
            try c.encode(scrollingS, forKey: .scrollingS)
            try c.encode(hitchMs, forKey: .hitchMs)
        }
    }

    /// Pages applied per kind, and what went wrong.
    public struct Pages: Codable, Equatable, Sendable {
        public var `init`: Int
        public var refresh: Int
        public var more: Int
        public var prepend: Int
        public var staleDropped: Int
        public var retries: Int
        public var failures: Int
        public var sourceFaults: Int
    }

    /// Row fetching: how many were fetched against how many were ever shown.
    public struct Rows: Codable, Equatable, Sendable {
        public var fetched: Int
        public var distinctShown: Int
        /// fetched / distinct_shown (0 when nothing was shown).
        public var overfetchRatio: Double
        public var batches: Int
        /// Ids fetched again while an earlier fetch of the same id was still on the wire (a
        /// cancelled fetch not yet answered); counted apart from over-fetch.
        public var redundant: Int
        /// Batches cancelled because all their items left the preload range.
        public var cancelledBatches: Int
        /// Batches that failed (row fault model).
        public var failedBatches: Int
    }

    public struct Cells: Codable, Equatable, Sendable {
        public var created: Int
        public var reused: Int
        public var maxLive: Int
        /// Created and reused per reuse identifier (the item's kind).
        public var byKind: [String: KindCells]
    }

    /// Cells of one reuse identifier.
    public struct KindCells: Codable, Equatable, Sendable {
        public var created: Int
        public var reused: Int
    }

    /// A change of one direction's load state: `direction` is refresh, prepend or append; `from`
    /// and `to` are idle, loading, error or end.
    public struct LoadTransition: Codable, Equatable, Sendable {
        public var tMs: Double
        public var direction: String
        public var from: String
        public var to: String
    }

    /// A change of the feed's phase (Init, Refresh, More, idle, failed, end).
    public struct Transition: Codable, Equatable, Sendable {
        public var tMs: Double
        public var from: String
        public var to: String
    }

    /// A tap from the trace and what it hit: `element` is `cell`, `refresh`, `header` or
    /// `footer` (`nil`: nothing); `item` and `item_id` only for a cell.
    public struct Tap: Codable, Equatable, Sendable {
        public var tMs: Double
        public var element: String?
        public var item: Int?
        public var itemId: Int64?
    }

    /// The carousel's centred item from `t_ms` on.
    public struct CentredIndexChange: Codable, Equatable, Sendable {
        public var tMs: Double
        public var index: Int
    }

    public struct Final: Codable, Equatable, Sendable {
        public var contentOffset: [Double]
        public var contentSize: [Double]
        public var loadedItems: Int
    }

    /// A broken invariant: duplicate ids, order broken, or a gap against the store's ground truth.
    public struct Violation: Codable, Equatable, Sendable {
        public var kind: String
        public var tMs: Double
        public var detail: String
    }

    /// The report as JSON: sorted keys, snake_case, `null` for a missing time to first content.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return try encoder.encode(self)
    }

    private enum CodingKeys: String, CodingKey {
        case version, source, options, durationMs, frames, refreshRateHz, distancePt, timeToFirstContentMs
        case blank, hitches, pages, rows, cells, timeInFailedMs, anchorDriftMaxPt, edgeEffectMaxPt, centredIndexChanges
        case transitions, phaseTransitions, taps, final, violations
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(version, forKey: .version)
        try c.encode(source, forKey: .source)
        try c.encode(options, forKey: .options)
        try c.encode(durationMs, forKey: .durationMs)
        try c.encode(frames, forKey: .frames)
        try c.encode(refreshRateHz, forKey: .refreshRateHz)
        try c.encode(distancePt, forKey: .distancePt)
        if let ttfc = timeToFirstContentMs {
            try c.encode(ttfc, forKey: .timeToFirstContentMs)
        } else {
            try c.encodeNil(forKey: .timeToFirstContentMs)
        }
        try c.encode(blank, forKey: .blank)
        try c.encode(hitches, forKey: .hitches)
        try c.encode(pages, forKey: .pages)
        try c.encode(rows, forKey: .rows)
        try c.encode(cells, forKey: .cells)
        try c.encode(timeInFailedMs, forKey: .timeInFailedMs)
        try c.encode(anchorDriftMaxPt, forKey: .anchorDriftMaxPt)
        try c.encode(edgeEffectMaxPt, forKey: .edgeEffectMaxPt)
        try c.encode(centredIndexChanges, forKey: .centredIndexChanges)
        try c.encode(transitions, forKey: .transitions)
        try c.encode(phaseTransitions, forKey: .phaseTransitions)
        try c.encode(taps, forKey: .taps)
        try c.encode(final, forKey: .final)
        try c.encode(violations, forKey: .violations)
    }
}
