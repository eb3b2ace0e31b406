import FeedEngine
import FeedLayout
import FeedModel

/// One recorded (or synthetic) scroll session replayed on a virtual clock through the feed
/// controller, a layout, the virtualizer and the scroll model, against a backend.
///
/// ```
///  frame k at t = k · 1000/Hz:
///    1. deliver page and row answers due by t (latency model), apply pages to the layout (anchored)
///    2. apply the trace's events up to t to the scroll model (touches, wheel, offsets, taps, inserts)
///    3. step the scroll physics to t; tell the controller where the viewport is
///    4. update the virtualizer (cells from the reuse pool, row fetches for the preload range)
///    5. measure: blank area, frame cost (hitches), distance, invariants
/// ```
/// Nothing reads the wall clock; every random draw comes from ``ReplayOptions/seed``, so the
/// same trace, options and seed give the same ``ReplayReport`` byte for byte.
///
/// - Complexity: per frame, O(log n + k) layout work for k visible elements plus the work of what
///   changed (pages applied, cells entering); never proportional to the number of loaded items.
public final class ReplaySession {
    public let trace: Trace
    public let layout: any CollectionLayout
    public let backend: any ReplayBackend
    public let options: ReplayOptions
    public let axis: ScrollAxis
    /// Text describing the layout for the report's `options` (e.g. `grid columns=3`).
    public let layoutDescription: String

    var controller: FeedController
    var scroll: ScrollModel
    let virtualizer: Virtualizer
    var latencyRNG: SplitMix64
    var faultRNG: SplitMix64
    var queue = EventQueue<Double, Completion>()
    var metrics: FrameMetrics
    var now = 0.0
    var frame = 0
    var nextEvent = 0
    var finished = false

    // Report state.
    var violations: [ReplayReport.Violation] = []
    var transitions: [ReplayReport.Transition] = []
    var taps: [ReplayReport.Tap] = []
    var shown = ShownList()
    var anchorDriftMax = 0.0
    /// Largest Android edge-effect distance seen in a frame, points.
    var edgeEffectMax = 0.0
    /// Carousel: the centred item of the last frame, and each change of it.
    var lastCentredIndex: Int?
    var centredIndexChanges: [ReplayReport.CentredIndexChange] = []
    var firstContentTime: Double?
    var distinctShown = Set<Int64>()
    var visibleCache = VisibleCache()
    var rowsFetched = 0
    var rowBatches = 0
    var rowFetchesInFlight = 0
    var layoutChangedThisFrame = false
    var rowsBoundBefore = 0
    var refreshInsetShown = false
    var viewportReportPending = false
    /// Offset moved by scroll anchoring this frame (not scrolling: the content moved, not the view).
    var anchorShiftThisFrame = 0.0
    /// Receives a record of every frame and request when set (the HTML report, the Perfetto
    /// export); `nil` by default, and then nothing is recorded.
    public var recorder: (any ReplayRecorder)?

    /// A simulated answer waiting on the virtual clock.
    enum Completion {
        case page(FeedController.FetchRequest, PageOutcome)
        case rows(fetchID: Int, RowBatch)
        case retryTick
    }

    enum PageOutcome {
        case success(Page)
        case failure(String)
    }

    /// - Parameters:
    ///   - trace: the input; its header gives the viewport (points) and refresh rate (Hz).
    ///   - layout: a layout of the kind to replay; it is prepared here for an empty feed.
    ///   - backend: where pages and rows come from.
    ///   - axis: the scroll axis (horizontal for carousel and strip layouts).
    /// - Throws: ``LayoutError`` when the layout cannot be prepared for the trace's viewport, or
    ///   ``ReplayError/invalidOptions(_:)`` when the controller or virtualizer configuration is invalid.
    public init(
        trace: Trace, layout: any CollectionLayout, layoutDescription: String, backend: any ReplayBackend,
        options: ReplayOptions, axis: ScrollAxis = .vertical
    ) throws {
        self.trace = trace
        self.layout = layout
        self.layoutDescription = layoutDescription
        self.backend = backend
        self.options = options
        self.axis = axis
        do {
            controller = try FeedController(configuration: options.controller)
        } catch {
            throw ReplayError.invalidOptions("\(error)")
        }
        try layout.prepare(sizes: [], viewport: trace.header.viewport)
        do {
            virtualizer = try Virtualizer(
                layout: layout, configuration: options.ranges, axis: axis, reusePoolLimit: options.reusePoolLimit)
        } catch {
            throw ReplayError.invalidOptions("\(error)")
        }
        var scrollConfiguration = options.scroll
        scrollConfiguration.axis = axis
        scroll = ScrollModel(
            viewport: trace.header.viewport, contentSize: layout.contentSize, configuration: scrollConfiguration)
        var root = SplitMix64(seed: options.seed)
        latencyRNG = root.split()
        faultRNG = root.split()
        metrics = FrameMetrics(refreshRate: trace.header.refreshRate, keepTimeline: options.keepTimeline)
    }

    /// Frame period, ms.
    var framePeriod: Double { 1000 / trace.header.refreshRate }

    /// Runs the whole trace and returns the report (and the timeline CSV when asked).
    /// - Throws: errors of the backend other than simulated faults (a broken store stops the replay).
    public func run() throws -> ReplayResult {
        while try advanceFrame() {}
        return result
    }

    /// Simulates the next frame; returns `false` once the session is over (the trace ended and
    /// nothing moves or loads any more, or `settleMs` passed). Callers that pace a session against
    /// the wall clock (the load tester) step it with this and read ``nextFrameTime``.
    /// - Throws: errors of the backend other than simulated faults.
    public func advanceFrame() throws -> Bool {
        guard !finished else { return false }
        let events = trace.events
        if frame == 0 { process(controller.start(now: 0)) }
        // Frame times as k · 1000 / Hz (not a running sum), so they stay exact multiples.
        now = Double(frame) * 1000 / trace.header.refreshRate
        layoutChangedThisFrame = false
        anchorShiftThisFrame = 0
        try deliverDue()
        while nextEvent < events.count, events[nextEvent].t <= now {
            let event = events[nextEvent]
            nextEvent += 1
            scroll.step(to: max(event.t, scroll.now))
            try apply(event)
        }
        scroll.step(to: now)
        invalidateForBounds()
        showLoadMoreFooter()
        let update = updateVirtualizer()
        measureConfiguredCells(update)
        // The virtualizer has just asked the layout what is visible: reuse that for the controller.
        reportViewport(fromVirtualizer: true)
        try issueRowFetches(update.rowFetches)
        record(update)
        frame += 1
        // After the last event: keep stepping while a fling, bounce or page load is still
        // under way, for at most `settleMs`.
        let endOfInput = events.last?.t ?? 0
        if nextEvent >= events.count && now >= endOfInput {
            if !settling || now >= endOfInput + options.settleMs { finished = true }
        }
        return !finished
    }

    /// Virtual time of the next frame, ms.
    public var nextFrameTime: Double { Double(frame) * 1000 / trace.header.refreshRate }

    /// The report so far (complete once ``advanceFrame()`` returned `false`).
    public var result: ReplayResult {
        ReplayResult(report: makeReport(frames: frame), timelineCSV: metrics.timelineCSV)
    }

    /// Whether the session still has something moving: a fling or bounce, a page load or a row fetch in flight.
    private var settling: Bool {
        scroll.isDecelerating || scroll.isDragging || controller.inFlightCount > 0 || rowFetchesInFlight > 0
    }
}

/// The outcome of ``ReplaySession/run()``.
public struct ReplayResult: Sendable {
    public var report: ReplayReport
    /// The `--timeline` CSV when ``ReplayOptions/keepTimeline`` was set.
    public var timelineCSV: String?
}

/// A replay that cannot start.
public enum ReplayError: Error, Equatable, CustomStringConvertible {
    case invalidOptions(String)

    public var description: String {
        switch self {
        case .invalidOptions(let reason): return "invalid replay options: \(reason)"
        }
    }
}
