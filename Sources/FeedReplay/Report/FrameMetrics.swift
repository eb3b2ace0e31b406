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
    private var lastOffset: Double?
    private var timeline: [String]?

    /// - Parameters:
    ///   - refreshRate: frames per second (60 or 120).
    ///   - keepTimeline: whether to keep one CSV row per frame for `--timeline`.
    public init(refreshRate: Double, keepTimeline: Bool) {
        budget = 1000 / refreshRate
        timeline = keepTimeline ? [] : nil
    }

    /// Adds one frame.
    public mutating func record(_ s: FrameSample) {
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
        // A hitch is a late frame while content is moving (Apple measures hitches during scrolling
        // and animations); a slow frame on a still screen is not seen as a hitch.
        if moved > 1e-9, s.cost > budget + 1e-9 {
            hitchCount += 1
            hitchTime += s.cost - budget
        }
        if timeline != nil {
            let first = s.visibleRange.map { String($0.lowerBound) } ?? ""
            let last = s.visibleRange.map { String($0.upperBound) } ?? ""
            timeline!.append(
                [
                    fixed(s.t, 3), fixed(s.contentOffset.x, 3), fixed(s.contentOffset.y, 3), first, last,
                    String(s.loadedItems), fixed(blank, 4), String(s.loadsInFlight), fixed(s.cost, 3),
                    fixed(s.edgeEffect, 3), s.centredIndex.map(String.init) ?? "",
                ].joined(separator: ",")
            )
        }
    }

    /// Hitch time ratio, ms of lateness per second of scrolling (0 when nothing scrolled).
    public var hitchTimeRatio: Double { scrollingTime > 0 ? hitchTime / (scrollingTime / 1000) : 0 }

    /// The `--timeline` CSV: a header and one row per frame.
    public var timelineCSV: String? {
        guard let timeline else { return nil }
        let header = "t_ms,offset_x,offset_y,first_visible,last_visible,loaded_items,blank_fraction,loads_in_flight,frame_cost_ms,edge_effect_pt,centred_index"
        return ([header] + timeline).joined(separator: "\n") + "\n"
    }

    public var blank: ReplayReport.Blank {
        let n = Double(max(frames, 1))
        return ReplayReport.Blank(
            meanFraction: round6(blankSum / n), maxFraction: round6(blankMax),
            maxFractionAfterFirstContent: round6(blankMaxAfterFirstContent), framesWithBlank: framesWithBlank,
            rowMissingFraction: round6(rowMissingSum / n), noContentFraction: round6(noContentSum / n))
    }

    public var hitches: ReplayReport.Hitches {
        ReplayReport.Hitches(
            count: hitchCount, timeRatioMsPerS: round6(hitchTimeRatio), band: HitchBand(ratioMsPerS: hitchTimeRatio).rawValue,
            budgetMs: round6(budget), scrollingS: round6(scrollingTime / 1000))
    }
}

/// Rounds to 6 decimals so reports do not carry float noise from summation order.
func round6(_ x: Double) -> Double { (x * 1e6).rounded() / 1e6 + 0.0 }  // + 0.0 turns -0 into 0

/// Fixed-point text with `digits` decimals (locale-independent).
func fixed(_ x: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", x) }
