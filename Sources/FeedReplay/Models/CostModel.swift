/// Simulated main-thread work per frame, in milliseconds, for hitch detection.
///
/// A frame's cost is `base + layout (when the layout changed) + created·cellCreation +
/// reused·cellReuse + bound·rowBinding`; a frame whose cost exceeds the frame budget
/// (1000 / refresh rate: 16.67 ms at 60 Hz, 8.33 ms at 120 Hz) is a hitch, late by
/// `cost − budget` ms.
///
/// The defaults stand for a 2021–2023 flagship phone at 120 Hz (iPhone 13 Pro / Pixel 7 class) with
/// a plain feed cell (an image view and two labels):
/// - bind 0.5 ms and reuse 0.5 ms: Android's "Slow rendering" guide
///   (developer.android.com/topic/performance/vitals/render, "RecyclerView: Bind taking too long")
///   says `onBindViewHolder` "should be very simple, and take much less than one millisecond for
///   all but the most complex items"; a dequeue plus `prepareForReuse` is the same order of work.
/// - create 3 ms: inflating a new cell's views and constraints costs several binds (the same guide:
///   inflation is what RecyclerView's prefetch moves off the critical frame); 3 ms is FeedSim's
///   assumption, not a published figure.
/// - base 1 ms and layout 1 ms: the scroll view's own layout and commit, well inside the 8.33 ms a
///   120 Hz frame has (WWDC21 "Explore UI animation hitches and the render loop": the app's commit
///   phase shares the frame with the render server's).
///
/// So a grid row of 3 reused cells bound to cached rows costs 1 + 3 × 0.5 + 3 × 0.5 = 4 ms, inside
/// the 120 Hz budget; a row of 3 new cells costs 1 + 3 × 3 = 10 ms, a hitch, as cell creation
/// during a scroll is. (Before: 2 + 3 × 1.5 + 3 × 1 = 9.5 ms, so nearly every 120 Hz frame that
/// brought a row was a hitch by construction.)
public struct CostModel: Hashable, Sendable {
    /// Fixed per-frame work (scroll, compositing handoff), ms.
    public var base: Double
    /// Extra work on a frame where the layout was invalidated or items were added or removed, ms.
    public var layout: Double
    /// Per newly created cell, ms.
    public var cellCreation: Double
    /// Per cell taken from the reuse pool, ms.
    public var cellReuse: Double
    /// Per row bound to a cell (content configuration, image decode handoff), ms.
    public var rowBinding: Double

    public init(base: Double = 1, layout: Double = 1, cellCreation: Double = 3, cellReuse: Double = 0.5, rowBinding: Double = 0.5) {
        self.base = base
        self.layout = layout
        self.cellCreation = cellCreation
        self.cellReuse = cellReuse
        self.rowBinding = rowBinding
    }

    /// Cost of one frame, ms.
    public func frameCost(layoutChanged: Bool, created: Int, reused: Int, bound: Int) -> Double {
        base + (layoutChanged ? layout : 0) + Double(created) * cellCreation + Double(reused) * cellReuse
            + Double(bound) * rowBinding
    }

    /// Parses `base=2,layout=3,create=6,reuse=1.5,bind=1` (any subset, each key at most once).
    /// - Throws: ``ModelParseError`` naming the bad entry.
    public static func parse(_ text: String) throws -> CostModel {
        var model = CostModel()
        var given: Set<String> = []
        for entry in text.split(separator: ",") {
            let pair = entry.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2, let ms = Double(pair[1]), ms.isFinite, ms >= 0, ms <= 10_000 else {
                throw ModelParseError(option: "--costs", text: text, reason: "entry '\(entry)' is not key=ms with 0 ≤ ms ≤ 10000")
            }
            guard given.insert(pair[0]).inserted else {
                throw ModelParseError(option: "--costs", text: text, reason: "'\(pair[0])' given twice")
            }
            switch pair[0] {
            case "base": model.base = ms
            case "layout": model.layout = ms
            case "create": model.cellCreation = ms
            case "reuse": model.cellReuse = ms
            case "bind": model.rowBinding = ms
            default:
                throw ModelParseError(option: "--costs", text: text, reason: "unknown key '\(pair[0])' (base, layout, create, reuse, bind)")
            }
        }
        return model
    }
}

/// Apple's hitch-time-ratio bands (WWDC 2020 "Eliminate animation hitches with XCTest"):
/// good below 5 ms/s, warning 5–10 ms/s, critical above 10 ms/s.
public enum HitchBand: String, Sendable, Codable {
    case good
    case warning
    case critical
    /// Less than ``HitchBand/minimumScrollingSeconds`` of scrolling: no ratio is given.
    case notEnoughScrolling = "not enough scrolling"

    /// Scrolling needed before a hitch time ratio means anything, seconds. Apple's hitch time ratio
    /// (WWDC20 "Eliminate animation hitches with XCTest") is ms of hitch per second of scrolling,
    /// read over a scroll or animation of its own; over a few frames one late frame gives hundreds
    /// of ms/s.
    public static let minimumScrollingSeconds = 1.0

    /// The band of a hitch time ratio in ms per second.
    public init(ratioMsPerS ratio: Double) {
        if ratio < 5 {
            self = .good
        } else if ratio <= 10 {
            self = .warning
        } else {
            self = .critical
        }
    }
}
