import FeedEngine
import Foundation

/// What one simulated frame looked like; the replay session produces one per frame.
public struct FrameSample: Equatable, Sendable {
    /// Frame time, ms from the start.
    public var t: Double
    /// Content offset along the scroll axis after this frame, points.
    public var offset: Double
    /// Part of this frame's offset change made by scroll anchoring (pages inserted or dropped
    /// above the viewport): the content moved under a still view, so it is not scrolling.
    public var anchorShift: Double = 0
    /// Content offset as (x, y), points.
    public var contentOffset: (x: Double, y: Double)
    /// First and last visible item index (`nil` when no item is visible).
    public var visibleRange: ClosedRange<Int>?
    public var loadedItems: Int
    /// Share of the viewport covered by cells whose row is not loaded (0...1).
    public var rowMissingFraction: Double
    /// Share of the viewport covered by no content while more exists (0...1).
    public var noContentFraction: Double
    /// Page and row loads in flight.
    public var loadsInFlight: Int
    /// Page loads in flight (abandoned ones of older generations included until they land).
    public var pageLoadsInFlight: Int = 0
    /// Row fetches in flight (cancelled ones included until they land).
    public var rowLoadsInFlight: Int = 0
    /// Load state per direction, as Paging 3's `LoadStates` (refresh, prepend, append).
    public var loadStates = DirectionalLoadStates()
    /// Simulated main-thread cost of the frame, ms.
    public var cost: Double
    /// Whether any row has been shown by this frame (the first screen of content has arrived).
    public var afterFirstContent: Bool = true
    /// The finger's pull past an edge held by an Android edge effect, points (0 otherwise).
    public var edgeEffect: Double = 0
    /// Carousel: the item nearest the viewport's centre (`nil` for other layouts or no items).
    public var centredIndex: Int? = nil

    public static func == (a: FrameSample, b: FrameSample) -> Bool {
        a.t == b.t && a.offset == b.offset && a.anchorShift == b.anchorShift && a.contentOffset == b.contentOffset && a.visibleRange == b.visibleRange
            && a.loadedItems == b.loadedItems && a.rowMissingFraction == b.rowMissingFraction
            && a.noContentFraction == b.noContentFraction && a.loadsInFlight == b.loadsInFlight && a.cost == b.cost && a.afterFirstContent == b.afterFirstContent
            && a.pageLoadsInFlight == b.pageLoadsInFlight && a.rowLoadsInFlight == b.rowLoadsInFlight
            && a.loadStates == b.loadStates
            && a.edgeEffect == b.edgeEffect && a.centredIndex == b.centredIndex
    }
}

/// Accumulates per-frame samples into the report's blank-area, hitch and distance figures.
///
/// - Complexity: O(1) per frame; memory O(1) unless a timeline is kept.
public struct FrameMetrics: Sendable {
    /// Frame budget, ms: 1000 / refresh rate (16.67 at 60 Hz, 8.33 at 120 Hz).
    public let budget: Double
    public private(set) var frames = 0
    public private(set) var distance = 0.0
    public private(set) var blankSum = 0.0
    public private(set) var blankMax = 0.0
    /// Largest blank share in a frame once the first content was shown (the wait for the first
    /// screen is `time_to_first_content_ms`; this is what scrolling later looks like).
    public private(set) var blankMaxAfterFirstContent = 0.0
    public private(set) var framesWithBlank = 0
    public private(set) var rowMissingSum = 0.0
    public private(set) var noContentSum = 0.0
    public private(set) var hitchCount = 0
    /// Sum over hitching frames of (cost − budget), ms.
    public private(set) var hitchTime = 0.0
    /// Sum of frame durations in which the offset moved, ms.
    public private(set) var scrollingTime = 0.0
    /// Blank share of frames before the first content was shown (the wait for the first screen).
    public private(set) var waiting = BlankDistribution()
    /// Blank share of frames after the first content in which the offset moved (blank while scrolling).
    public private(set) var scrolling = BlankDistribution()
    private var lastOffset: Double?
    /// The `--timeline` rows, when kept.
    public private(set) var timeline: ReplayTimeline?

    /// - Parameters:
    ///   - refreshRate: frames per second (60 or 120).
    ///   - keepTimeline: whether to keep one CSV row per frame for `--timeline`.
    public init(refreshRate: Double, keepTimeline: Bool) {
        budget = 1000 / refreshRate
        timeline = keepTimeline ? ReplayTimeline(refreshRate: refreshRate) : nil
    }

    /// Adds one frame.
    public mutating func record(_ s: FrameSample) {
        accumulate(s)
        if timeline != nil { timeline!.append(row: Self.timelineFields(s), t: s.t) }
    }

    /// Adds one frame's blank shares alone (``FrameMeasures/loadSummary``): the frame count, the
    /// blank sums (so ``blank``'s means are exact); nothing else.
    public mutating func recordBlank(rowMissingFraction: Double, noContentFraction: Double) {
        frames += 1
        blankSum += min(1, rowMissingFraction + noContentFraction)
        rowMissingSum += rowMissingFraction
        noContentSum += noContentFraction
    }

    /// Adds the frames `frameIndices` (frame k at `k · 1000 / refreshRate` ms), each equal to `s`
    /// but for its time: what stepping those frames one by one would add, figure for figure (the
    /// sums are taken frame by frame, in the same order, so the report is bit-identical), with one
    /// timeline entry for the whole run.
    /// - Precondition: `s` does not move the content (its offset is the last frame's, no anchor shift).
    /// - Complexity: O(1) when nothing is blank (the usual rest), else O(count) additions; O(1) memory.
    public mutating func recordRepeated(_ s: FrameSample, frameIndices: Range<Int>) {
        precondition(lastOffset == nil || (s.offset == lastOffset && s.anchorShift == 0), "a repeated frame must not move")
        if lastOffset != nil, s.rowMissingFraction == 0, s.noContentFraction == 0, s.afterFirstContent {
            // Adding 0 to the sums leaves them exactly as they are, and the maxima too: only the count moves.
            // (Before the first content each frame also counts in the wait's blank distribution, and a
            // still frame is not scrolling, so only frames after the first content may be counted at once.)
            frames += frameIndices.count
        } else {
            for _ in frameIndices { accumulate(s) }
        }
        if timeline != nil { timeline!.appendRun(fields: Self.timelineFields(s), frames: frameIndices) }
    }

    /// The timeline row after its time column: `,offset_x,offset_y,...,prepend_state,append_state`.
    private static func timelineFields(_ s: FrameSample) -> String {
        let blank = min(1, s.rowMissingFraction + s.noContentFraction)
        let first = s.visibleRange.map { String($0.lowerBound) } ?? ""
        let last = s.visibleRange.map { String($0.upperBound) } ?? ""
        return "," + [
            fixed(s.contentOffset.x, 3), fixed(s.contentOffset.y, 3), first, last,
            String(s.loadedItems), fixed(blank, 4), String(s.loadsInFlight), fixed(s.cost, 3),
            fixed(s.edgeEffect, 3), s.centredIndex.map(String.init) ?? "",
            fixed(min(1, s.rowMissingFraction), 4), fixed(min(1, s.noContentFraction), 4),
            String(s.pageLoadsInFlight), String(s.rowLoadsInFlight), s.loadStates.refresh.rawValue,
            s.loadStates.prepend.rawValue, s.loadStates.append.rawValue,
        ].joined(separator: ",")
    }

    private mutating func accumulate(_ s: FrameSample) {
        frames += 1
        let moved = lastOffset.map { abs(s.offset - $0 - s.anchorShift) } ?? 0
        distance += moved
        if moved > 1e-9 { scrollingTime += budget }
        lastOffset = s.offset
        let blank = min(1, s.rowMissingFraction + s.noContentFraction)
        blankSum += blank
        blankMax = max(blankMax, blank)
        if s.afterFirstContent { blankMaxAfterFirstContent = max(blankMaxAfterFirstContent, blank) }
        if blank > 1e-9 { framesWithBlank += 1 }
        rowMissingSum += s.rowMissingFraction
        noContentSum += s.noContentFraction
        if !s.afterFirstContent {
            waiting.add(blank)
        } else if moved > 1e-9 {
            scrolling.add(blank)
        }
        // A hitch is a late frame while content is moving (Apple measures hitches during scrolling
        // and animations); a slow frame on a still screen is not seen as a hitch.
        if moved > 1e-9, s.cost > budget + 1e-9 {
            hitchCount += 1
            hitchTime += s.cost - budget
        }
    }

    /// Hitch time ratio, ms of lateness per second of scrolling; `nil` under
    /// ``HitchBand/minimumScrollingSeconds`` of scrolling (the ratio would not mean anything).
    public var hitchTimeRatio: Double? {
        scrollingTime >= HitchBand.minimumScrollingSeconds * 1000 - 1e-6 ? hitchTime / (scrollingTime / 1000) : nil
    }

    /// The `--timeline` CSV: a header and one row per frame.
    public var timelineCSV: String? { timeline?.csv }

    public var blank: ReplayReport.Blank {
        let n = Double(max(frames, 1))
        return ReplayReport.Blank(
            meanFraction: round6(blankSum / n), maxFraction: round6(blankMax),
            maxFractionAfterFirstContent: round6(blankMaxAfterFirstContent), framesWithBlank: framesWithBlank,
            rowMissingFraction: round6(rowMissingSum / n), noContentFraction: round6(noContentSum / n),
            beforeFirstContent: waiting.summary, whileScrolling: scrolling.summary)
    }

    public var hitches: ReplayReport.Hitches {
        ReplayReport.Hitches(
            count: hitchCount, timeRatioMsPerS: hitchTimeRatio.map(round6),
            band: (hitchTimeRatio.map(HitchBand.init(ratioMsPerS:)) ?? .notEnoughScrolling).rawValue,
            budgetMs: round6(budget), scrollingS: round6(scrollingTime / 1000), hitchMs: round6(hitchTime))
    }
}

/// Blank shares of a set of frames: count, sum, max and a histogram of 10,001 bins of 0.0001
/// (the timeline's resolution), so percentiles cost O(1) memory per run.
public struct BlankDistribution: Sendable, Equatable {
    public private(set) var frames = 0
    public private(set) var sum = 0.0
    public private(set) var max = 0.0
    private var bins = [Int](repeating: 0, count: 10_001)

    public init() {}

    mutating func add(_ fraction: Double) {
        frames += 1
        sum += fraction
        max = Swift.max(max, fraction)
        bins[Int((Swift.min(1, Swift.max(0, fraction)) * 10_000).rounded())] += 1
    }

    /// The nearest-rank percentile (the smallest share at least `p` % of the frames do not exceed),
    /// to 0.0001; 0 with no frames.
    public func percentile(_ p: Double) -> Double {
        guard frames > 0 else { return 0 }
        let rank = Swift.max(1, Int((p / 100 * Double(frames)).rounded(.up)))
        var seen = 0
        for (bin, count) in bins.enumerated() where count > 0 {
            seen += count
            if seen >= rank { return Double(bin) / 10_000 }
        }
        return 1
    }

    public var summary: ReplayReport.BlankStats {
        ReplayReport.BlankStats(
            frames: frames, meanFraction: frames > 0 ? round6(sum / Double(frames)) : 0, p50Fraction: percentile(50),
            p95Fraction: percentile(95), maxFraction: round6(max))
    }
}

/// Rounds to 6 decimals so reports do not carry float noise from summation order.
func round6(_ x: Double) -> Double { (x * 1e6).rounded() / 1e6 + 0.0 }  // + 0.0 turns -0 into 0

/// Fixed-point text with `digits` decimals (locale-independent).
func fixed(_ x: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", x) }

/// The `--timeline` CSV kept compactly: rows of frames that did something as the UTF-8 bytes they
/// will be written as, and each run of idle frames (equal but for their time) as one entry, so a
/// trace that rests for hours costs no memory per idle frame. ``write(_:)`` streams the CSV.
public struct ReplayTimeline: Sendable {
    /// The CSV header line (without the line end).
    public static let header =
        "t_ms,offset_x,offset_y,first_visible,last_visible,loaded_items,blank_fraction,loads_in_flight,frame_cost_ms,"
        + "edge_effect_pt,centred_index,blank_row_missing,blank_no_content,page_loads_in_flight,row_loads_in_flight,"
        + "refresh_state,prepend_state,append_state"

    private enum Segment: Sendable {
        case rows([UInt8])
        case run(frames: Range<Int>, fields: String)
    }

    /// Frames per second: frame k is at `k · 1000 / refreshRate` ms.
    let refreshRate: Double
    private var segments: [Segment] = []
    private var pending: [UInt8] = []
    /// Number of rows (frames) held.
    public private(set) var rowCount = 0

    init(refreshRate: Double) {
        self.refreshRate = refreshRate
    }

    mutating func append(row fields: String, t: Double) {
        pending.append(contentsOf: fixed(t, 3).utf8)
        pending.append(contentsOf: fields.utf8)
        pending.append(0x0A)
        rowCount += 1
    }

    mutating func appendRun(fields: String, frames: Range<Int>) {
        guard !frames.isEmpty else { return }
        if !pending.isEmpty {
            segments.append(.rows(pending))
            pending = []
        }
        segments.append(.run(frames: frames, fields: fields))
        rowCount += frames.count
    }

    /// Hands the CSV to `emit` in pieces (the header line first, then rows, each ending in `\n`).
    public func write(_ emit: (String) throws -> Void) rethrows {
        try emit(Self.header + "\n")
        for segment in segments + [.rows(pending)] {
            switch segment {
            case .rows(let bytes):
                if !bytes.isEmpty { try emit(String(decoding: bytes, as: UTF8.self)) }
            case .run(let frames, let fields):
                var chunk = ""
                for k in frames {
                    chunk += fixed(Double(k) * 1000 / refreshRate, 3) + fields + "\n"
                    if chunk.utf8.count >= 1 << 16 {
                        try emit(chunk)
                        chunk = ""
                    }
                }
                if !chunk.isEmpty { try emit(chunk) }
            }
        }
    }

    /// The whole CSV as one string (tests, small runs).
    public var csv: String {
        var text = ""
        write { text += $0 }
        return text
    }
}
