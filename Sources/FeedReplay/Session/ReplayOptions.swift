import FeedEngine
import FeedLayout

/// Which per-frame figures a replay measures.
public enum FrameMeasures: Sendable, Hashable {
    /// Everything the ``ReplayReport`` holds.
    case all
    /// What a load session reads (`feedsim load` prints them): the blank area's mean
    /// (``ReplayReport/Blank/meanFraction``, with ``ReplayReport/Blank/rowMissingFraction`` and
    /// ``ReplayReport/Blank/noContentFraction``), the time to first content and the violations are
    /// exact; the other per-frame figures (blank distributions and maxima, hitches and frame
    /// costs, distance, distinct rows shown, edge effect, carousel centring, timeline) are not
    /// measured and stay 0 or empty in the report. Pages, rows fetched, cells and transitions are
    /// counted either way.
    case loadSummary
}

/// Everything a replay can be tuned with, besides the trace, the layout and the backend.
public struct ReplayOptions: Sendable {
    /// The feed controller's page size, prefetch distance, retry policy, page dropping.
    public var controller: FeedController.Configuration
    /// The virtualizer's prefetch (cells) and preload (rows) ranges.
    public var ranges: RangeConfiguration
    /// Drag, fling and bounce physics (UIKit or Android).
    public var scroll: ScrollModel.Configuration
    /// Delay of every page and row call, ms.
    public var latency: LatencyModel
    /// Which page calls fail.
    public var faults: FaultModel
    /// Delay of every row fetch, ms; `nil`: ``latency`` (rows and images often come from other
    /// servers than the feed API, so they can have their own).
    public var rowLatency: LatencyModel?
    /// Which row fetches fail; `nil`: ``faults``. A failed row fetch is forgotten and its items
    /// still in the preload range are asked for again at the next frame (an image loader's retry
    /// on the next bind).
    public var rowFaults: FaultModel?
    /// Simulated main-thread cost per frame, for hitches.
    public var costs: CostModel
    /// Seed of every random draw of the session (latency, faults).
    public var seed: UInt64
    /// Most pooled cells per reuse identifier, overriding the ranges preset's policy
    /// (``RangeConfiguration/reusePoolLimit``); `nil`: the preset's.
    public var reusePoolLimit: Int?
    /// How long to keep stepping after the trace's last event while the scroll view still moves or
    /// loads are in flight, ms.
    public var settleMs: Double
    /// Units the trace's import had to guess (``ImportedTrace/guesses``), recorded in the report's
    /// `options` as `trace_import`.
    public var traceNotes: [String] = []
    /// Keep a per-frame timeline for `--timeline`.
    public var keepTimeline: Bool
    /// Let ``ReplaySession/run()`` jump over idle stretches (nothing moves, nothing is in flight,
    /// no timer or event is due) instead of stepping each frame: same report byte for byte, far
    /// less work for traces that rest. Off only to compare against frame-by-frame stepping.
    public var skipsIdleFrames = true
    /// Which per-frame figures the session measures (``FrameMeasures``); `.all` by default.
    public var measures = FrameMeasures.all
    /// With ``FrameMeasures/loadSummary``, run the virtualizer without cells
    /// (``FeedEngine/Virtualizer/updateRowsOnly(contentOffset:viewport:items:scrollVelocity:)``)
    /// where it gives the same figures: a layout that does not size its cells
    /// (``FeedLayout/CollectionLayout/isSelfSizing``) and a preload range containing the prefetch
    /// range (``FeedEngine/RangeConfiguration/preloadContainsPrefetch``). The report's cell counts
    /// are then 0. On by default; off only to compare against the virtualizer with cells.
    public var skipsCellsForLoadSummary = true
    /// Height of the refresh control shown above the content while a Refresh loads, points
    /// (`UIRefreshControl` is about 50–60 pt tall).
    public var refreshControlHeight: Double

    public init(
        controller: FeedController.Configuration, ranges: RangeConfiguration = .uikit,
        scroll: ScrollModel.Configuration = .uikit, latency: LatencyModel = .fixed(ms: 0),
        faults: FaultModel = .none, costs: CostModel = CostModel(), seed: UInt64 = 1, reusePoolLimit: Int? = nil,
        settleMs: Double = 3000, keepTimeline: Bool = false, refreshControlHeight: Double = 50,
        rowLatency: LatencyModel? = nil, rowFaults: FaultModel? = nil
    ) {
        self.rowLatency = rowLatency
        self.rowFaults = rowFaults
        self.controller = controller
        self.ranges = ranges
        self.scroll = scroll
        self.latency = latency
        self.faults = faults
        self.costs = costs
        self.seed = seed
        self.reusePoolLimit = reusePoolLimit
        self.settleMs = settleMs
        self.keepTimeline = keepTimeline
        self.refreshControlHeight = refreshControlHeight
    }
}
