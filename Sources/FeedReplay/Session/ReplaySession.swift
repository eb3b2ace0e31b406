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
/// Nothing reads the wall clock; every random draw comes from ``ReplayOptions/seed`` (latency,
/// faults, retry jitter: the controller's ``FeedController/RetryPolicy/seed`` is derived from it and
/// whatever the options held there is replaced), so the
/// same trace, options and seed give the same ``ReplayReport`` byte for byte.
///
/// - Complexity: per frame, O(log n + k) layout work for k visible elements plus the work of what
///   changed (pages applied, cells entering); never proportional to the number of loaded items.
public final class ReplaySession {
    public let trace: Trace
    public let layout: any CollectionLayout
    public let backend: any ReplayBackend
    /// `backend` when it answers later (``DeferredReplayBackend``), decided once: a cast per
    /// request looked up the conformance every time.
    let deferredBackend: (any DeferredReplayBackend)?
    public let options: ReplayOptions
    public let axis: ScrollAxis
    /// The layout as a carousel (its centred item is reported each frame), `nil` for other layouts.
    let carousel: CarouselLayout?
    /// Text describing the layout for the report's `options` (e.g. `grid columns=3`).
    public let layoutDescription: String

    // Stored properties are `@exclusivity(unchecked)`: the session is used by one thread and never
    // hands out overlapping accesses, and Swift's dynamic exclusivity check on every access to a
    // class's stored `var` (swift_beginAccess, ~160 instructions with its access set) was 10 % of
    // `feedsim load`'s instructions and 8 % of `feedsim replay`'s (callgrind, 2,073M → 1,870M and
    // 731M → 673M on a 16-session grid load and a 120-s flinger replay).
    @exclusivity(unchecked) var controller: FeedController
    @exclusivity(unchecked) var scroll: ScrollModel
    let virtualizer: Virtualizer
    @exclusivity(unchecked) var latencyRNG: SplitMix64
    @exclusivity(unchecked) var faultRNG: SplitMix64
    @exclusivity(unchecked) var rowLatencyRNG: SplitMix64
    @exclusivity(unchecked) var rowFaultRNG: SplitMix64
    @exclusivity(unchecked) var queue = EventQueue<Double, Completion>()
    /// Requests on the wire of a ``DeferredReplayBackend``, in issue order, with the latency to add,
    /// the virtual time they were issued at and the caller's stamp (``deferredIssueStamp``).
    @exclusivity(unchecked) var deferred: [(request: DeferredRequest, latency: Double, issuedAt: Double, stamp: UInt64)] = []
    /// Whether a ``DeferredReplayBackend``'s answer lands at its issue time plus its own measured
    /// time on the wire (as a synchronous backend's lands after
    /// ``ReplayBackend/lastCallMilliseconds``), plus the drawn latency; `false` (a load on a
    /// virtual clock, where work takes no time): at its issue time plus the latency. Either way
    /// whatever the time scale: the caller runs no frame past an answer still on the wire
    /// (``oldestAnswerOnTheWire``), so no answer is late and none is left behind when the trace ends.
    @exclusivity(unchecked) public var deferredAnswersChargeTimeOnTheWire = true
    /// Stamps each deferred request when it is issued (the load session's monotonic clock, in
    /// nanoseconds), for ``oldestAnswerOnTheWire``; `nil` stamps 0. The replay itself reads no clock.
    @exclusivity(unchecked) public var deferredIssueStamp: (() -> UInt64)?
    @exclusivity(unchecked) var metrics: FrameMetrics
    @exclusivity(unchecked) var now = 0.0
    @exclusivity(unchecked) var frame = 0
    @exclusivity(unchecked) var nextEvent = 0
    @exclusivity(unchecked) var finished = false
    /// The last frame's sample when that frame did nothing (see ``skipIdleFrames(after:)``).
    @exclusivity(unchecked) var quietSample: FrameSample?
    /// Frames jumped over by idle skipping (counted in the report's `frames` all the same).
    @exclusivity(unchecked) public private(set) var framesSkipped = 0
    /// The first ``FeedModel/PermanentBackendFailure`` a page or row call threw (a corrupt
    /// database file): the frame that met it ends the replay by throwing it.
    @exclusivity(unchecked) var permanentFailure: (any Error)?

    // Report state.
    @exclusivity(unchecked) var violations: [ReplayReport.Violation] = []
    @exclusivity(unchecked) var transitions: [ReplayReport.LoadTransition] = []
    @exclusivity(unchecked) var phaseTransitions: [ReplayReport.Transition] = []
    @exclusivity(unchecked) var lastLoadStates = DirectionalLoadStates()
    @exclusivity(unchecked) var taps: [ReplayReport.Tap] = []
    @exclusivity(unchecked) var shown = ShownList()
    @exclusivity(unchecked) var anchorDriftMax = 0.0
    /// Largest Android edge-effect distance seen in a frame, points.
    @exclusivity(unchecked) var edgeEffectMax = 0.0
    /// Carousel: the centred item of the last frame, and each change of it.
    @exclusivity(unchecked) var lastCentredIndex: Int?
    @exclusivity(unchecked) var centredIndexChanges: [ReplayReport.CentredIndexChange] = []
    @exclusivity(unchecked) var firstContentTime: Double?
    @exclusivity(unchecked) var distinctShown = ItemIDSet()
    @exclusivity(unchecked) var visibleCache = VisibleCache()
    @exclusivity(unchecked) var rowsFetched = 0
    @exclusivity(unchecked) var rowBatches = 0
    @exclusivity(unchecked) var rowFetchesInFlight = 0
    /// Row fetches that failed (row fault model).
    @exclusivity(unchecked) var rowFetchFailures = 0
    /// Ids asked for while an earlier fetch of the same id was still on the wire.
    @exclusivity(unchecked) var rowsRedundant = 0
    /// Fetches on the wire per id (cancelled ones included until they land).
    @exclusivity(unchecked) var rowIDsOnTheWire: [Int64: Int] = [:]
    @exclusivity(unchecked) var layoutChangedThisFrame = false
    @exclusivity(unchecked) var rowsBoundBefore = 0
    @exclusivity(unchecked) var refreshInsetShown = false
    /// The footer's hidden flag as last set on the layout (``showLoadMoreFooter()``), `nil` before the first frame.
    @exclusivity(unchecked) var footerHidden: Bool?
    @exclusivity(unchecked) var viewportReportPending = false
    /// Offset moved by scroll anchoring this frame (not scrolling: the content moved, not the view).
    @exclusivity(unchecked) var anchorShiftThisFrame = 0.0
    /// Receives a record of every frame and request when set (the HTML report, the Perfetto
    /// export); `nil` by default, and then nothing is recorded.
    @exclusivity(unchecked) public var recorder: (any ReplayRecorder)?

    /// A request of a ``DeferredReplayBackend`` still on the wire.
    enum DeferredRequest {
        case page(FeedController.FetchRequest, DeferredAnswer<Page>)
        case rows(fetchID: Int, ids: [Int64], DeferredAnswer<RowBatch>)
    }

    enum Completion {
        case page(FeedController.FetchRequest, PageOutcome)
        case rows(fetchID: Int, ids: [Int64], RowBatch)
        case rowsFailed(fetchID: Int, ids: [Int64])
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
        self.deferredBackend = backend as? any DeferredReplayBackend
        self.options = options
        self.axis = axis
        self.carousel = layout as? CarouselLayout
        // Every random stream is split from the replay's seed, in a fixed order: latency, faults,
        // retry jitter, row latency, row faults (a stream added later goes last, so the earlier
        // streams, and the figures they give, stay as they were).
        var root = SplitMix64(seed: options.seed)
        latencyRNG = root.split()
        faultRNG = root.split()
        var controllerConfiguration = options.controller
        controllerConfiguration.retry.seed = root.next()
        rowLatencyRNG = root.split()
        rowFaultRNG = root.split()
        do {
            controller = try FeedController(configuration: controllerConfiguration)
        } catch {
            throw ReplayError.invalidOptions("\(error)")
        }
        try layout.prepare(sizes: [], viewport: trace.header.viewport)
        do {
            // A load session reads no cell: the virtualizer keeps none where that changes no figure.
            let rowsOnly =
                options.measures == .loadSummary && options.skipsCellsForLoadSummary && !layout.isSelfSizing
                && options.ranges.preloadContainsPrefetch
            virtualizer = try Virtualizer(
                layout: layout, configuration: options.ranges, axis: axis, reusePoolLimit: options.reusePoolLimit,
                keepsCells: !rowsOnly)
        } catch {
            throw ReplayError.invalidOptions("\(error)")
        }
        var scrollConfiguration = options.scroll
        scrollConfiguration.axis = axis
        scroll = ScrollModel(
            viewport: trace.header.viewport, contentSize: layout.contentSize, configuration: scrollConfiguration)
        metrics = FrameMetrics(refreshRate: trace.header.refreshRate, keepTimeline: options.keepTimeline)
    }

    /// Frame period, ms.
    var framePeriod: Double { 1000 / trace.header.refreshRate }

    /// Runs the whole trace and returns the report (and the timeline CSV when asked).
    /// - Throws: errors of the backend other than simulated faults (a broken store stops the
    ///   replay: a ``FeedModel/PermanentBackendFailure`` from any page or row call).
    public func run() throws -> ReplayResult {
        while try advanceFrame(skippingIdle: options.skipsIdleFrames) {}
        return result
    }

    /// Simulates the next frame; returns `false` once the session is over (the trace ended and
    /// nothing moves or loads any more, or `settleMs` passed). Callers that pace a session against
    /// the wall clock (the load tester) step it with this and read ``nextFrameTime``.
    /// - Throws: errors of the backend other than simulated faults: a
    ///   ``FeedModel/PermanentBackendFailure`` (a corrupt database) from any page or row call,
    ///   which would otherwise count as one of the feed's failures.
    public func advanceFrame() throws -> Bool {
        try advanceFrame(skippingIdle: false)
    }

    /// One frame; with `skippingIdle`, then also every following frame that would repeat it
    /// (see ``skipIdleFrames(after:)``).
    func advanceFrame(skippingIdle: Bool) throws -> Bool {
        guard !finished else { return false }
        let events = trace.events
        if frame == 0 { process(controller.start(now: 0)) }
        // Frame times as k · 1000 / Hz (not a running sum), so they stay exact multiples.
        now = Double(frame) * 1000 / trace.header.refreshRate
        layoutChangedThisFrame = false
        anchorShiftThisFrame = 0
        let marks = (transitions: transitions.count, violations: violations.count, taps: taps.count, rows: rowBatches)
        var quiet = try deliverDue() == 0
        while nextEvent < events.count, events[nextEvent].t <= now {
            let event = events[nextEvent]
            nextEvent += 1
            scroll.step(to: max(event.t, scroll.now))
            try apply(event)
            quiet = false
        }
        scroll.step(to: now)
        invalidateForBounds()
        showLoadMoreFooter()
        let update = updateVirtualizer()
        measureConfiguredCells(update)
        // The virtualizer has just asked the layout what is visible: reuse that for the controller.
        reportViewport(fromVirtualizer: true)
        issueRowFetches(update.rowFetches)
        let sample = record(update)
        if let permanentFailure { throw permanentFailure }
        frame += 1
        // After the last event: keep stepping while a fling, bounce or page load is still
        // under way, for at most `settleMs`.
        let endOfInput = events.last?.t ?? 0
        if nextEvent >= events.count && now >= endOfInput {
            if !settling || now >= endOfInput + options.settleMs { finished = true }
        }
        quiet = quiet && !layoutChangedThisFrame && anchorShiftThisFrame == 0 && update.cellsCreated == 0
            && update.cellsReused == 0 && update.cellsRecycled == 0 && update.cellsDiscarded == 0
            && update.enteredItemIDs.isEmpty && update.leftItemIDs.isEmpty && update.rowFetches.isEmpty
            && update.cancelledFetchIDs.isEmpty && rowBatches == marks.rows && transitions.count == marks.transitions
            && violations.count == marks.violations && taps.count == marks.taps && !scroll.isTracking
            && !scroll.isDecelerating && controller.status.inFlightCount == 0 && rowFetchesInFlight == 0
        if skippingIdle, !finished, quiet, let sample {
            skipIdleFrames(after: sample)
        } else if case .some = quietSample {
            // Cleared only when set: storing `nil` over `nil` copied the whole optional sample
            // (a memcpy and an outlined initializer per frame, ~45 instructions; callgrind).
            quietSample = nil
        }
        return !finished
    }

    /// Idle skipping. When two frames in a row did nothing (no event, no answer delivered, no
    /// layout, cell, row or phase change, the scroll view at rest, no page or row load in flight)
    /// and recorded the same sample but for its time, every frame up to the next trace event or
    /// the next timer (a retry) would record that sample again: those frames are recorded at once
    /// (``FrameMetrics/recordRepeated(_:frameIndices:)``, the same sums in the same order; a
    /// recorder's ``ReplayRecorder/recordRepeated(frameIndices:refreshRate:)``) and the
    /// clock jumps to the frame that has something to do. The report, `frames` included, is the
    /// one stepping gives; `ReplaySessionIdleSkipTests` compares the two on real traces.
    private func skipIdleFrames(after sample: FrameSample) {
        defer { quietSample = sample }
        guard let previous = quietSample else { return }
        var same = sample
        same.t = previous.t
        guard same == previous, nextEvent < trace.events.count else { return }
        let rate = trace.header.refreshRate
        let wake = min(trace.events[nextEvent].t, queue.nextTime ?? .infinity)
        // The first frame k with k · 1000 / rate ≥ wake (times at most 24 h, so k fits easily).
        var target = max(frame, Int((wake * rate / 1000).rounded(.up)))
        while target > frame, Double(target - 1) * 1000 / rate >= wake { target -= 1 }
        while Double(target) * 1000 / rate < wake { target += 1 }
        guard target > frame else { return }
        metrics.recordRepeated(sample, frameIndices: frame..<target)
        recorder?.recordRepeated(frameIndices: frame..<target, refreshRate: rate)
        framesSkipped += target - frame
        now = Double(target - 1) * 1000 / rate
        scroll.step(to: now)
        frame = target
    }

    /// Virtual time of the next frame, ms.
    public var nextFrameTime: Double { Double(frame) * 1000 / trace.header.refreshRate }

    /// The earliest-issued request of a ``DeferredReplayBackend`` still on the wire (polling, on
    /// the session's thread, the answers that arrived): its virtual issue time (ms) and stamp
    /// (``deferredIssueStamp``); `nil` when every answer is in.
    public var oldestAnswerOnTheWire: (issuedAt: Double, stamp: UInt64)? {
        for entry in deferred {
            let pending: Bool
            switch entry.request {
            case .page(_, let answer): pending = answer.poll() == nil
            case .rows(_, _, let answer): pending = answer.poll() == nil
            }
            if pending { return (entry.issuedAt, entry.stamp) }
        }
        return nil
    }

    /// The report so far (complete once ``advanceFrame()`` returned `false`).
    public var result: ReplayResult {
        ReplayResult(report: makeReport(frames: frame), timeline: metrics.timeline)
    }

    /// Whether the session still has something moving: a fling or bounce, a page load or a row fetch in flight.
    private var settling: Bool {
        scroll.isDecelerating || scroll.isDragging || controller.status.inFlightCount > 0 || rowFetchesInFlight > 0
    }
}

/// The outcome of ``ReplaySession/run()``.
public struct ReplayResult: Sendable {
    public var report: ReplayReport
    /// The `--timeline` rows when ``ReplayOptions/keepTimeline`` was set (stream them with
    /// ``ReplayTimeline/write(_:)``).
    public var timeline: ReplayTimeline?
    /// The `--timeline` CSV as one string when ``ReplayOptions/keepTimeline`` was set.
    public var timelineCSV: String? { timeline?.csv }
}

/// A replay that cannot start.
public enum ReplayError: Error, Equatable, CustomStringConvertible {
    case invalidOptions(String)
    /// The trace's insert events ran out of item ids (the backend's largest id is `Int64.max`).
    case idsExhausted
    /// The caller asked the replay to stop (SIGINT, SIGTERM); nothing was written.
    case interrupted

    public var description: String {
        switch self {
        case .invalidOptions(let reason): return "invalid replay options: \(reason)"
        case .idsExhausted: return "item ids exhausted (the store's largest id is \(Int64.max))"
        case .interrupted: return "interrupted"
        }
    }
}
