import FeedEngine
import FeedModel
import FeedStore

/// One load session: a user scrolling down one feed on its own SQLite connection, driven through
/// the real ``FeedController`` (Init, then More as the viewport nears the end) with the page and
/// row queries run against the store and timed.
///
/// Items are stacked in a single column at the viewport's width (an item of intrinsic size
/// w × h is `h × width / w` points tall). Each step advances session time by one tick of
/// ``tickMilliseconds``: the content offset moves during a burst and rests during a pause, the
/// controller sees the new viewport, its fetches run at once, and rows are fetched for items
/// within one screenful of the viewport (the preload range) that have none yet. The step then asks
/// to be run again after the tick divided by the time scale (at once for `max`).
public final class ScrollSession: LoadSession {
    /// Session time per step, milliseconds.
    public static let tickMilliseconds = 100.0

    public let index: Int
    public let profile: ScrollProfile
    /// Wall seconds per session second: 1 = real time, `nil` = no waiting (`--time-scale max`).
    public let timeScale: Double?
    public let viewportSize: (width: Double, height: Double)
    private let source: TimedFeedSource
    private let truth: GroundTruth
    private let pool: ConnectionPool
    private let connections: SessionConnections
    private var controller: FeedController
    private let maxIDAtStart: Int64
    private var now = 0.0
    private var offset = 0.0
    /// Top of each loaded item, points; `tops.last` is the content length.
    private var tops: [Double] = [0]
    private var rowsFetched = Set<Int64>()
    private var started = false

    /// Takes connections from `pool` (opening them on the calling thread when none is idle) and
    /// reads the largest id. The connections go back to the pool in ``finish(interrupted:_:)``.
    /// - Throws: ``StoreError`` or ``SQLiteError`` opening the store, ``RawSQLiteError`` for the
    ///   ground-truth connection, ``FeedController/ConfigurationError``.
    public init(
        index: Int, pool: ConnectionPool, feed: FeedID, mode: PaginationMode, profile: ScrollProfile,
        timeScale: Double?, pageSize: Int = 20, viewportSize: (width: Double, height: Double) = (390, 844)
    ) throws {
        self.index = index
        self.profile = profile
        self.timeScale = timeScale
        self.viewportSize = viewportSize
        self.pool = pool
        connections = try pool.take()
        source = TimedFeedSource(store: connections.store, feed: feed, mode: mode)
        truth = connections.truth
        controller = try FeedController(configuration: .init(pageSize: pageSize, initialLoadPages: 1))
        maxIDAtStart = try truth.maxID()
    }

    public func step(_ metrics: inout LoadMetrics) throws -> Duration? {
        defer { source.flush(into: &metrics) }
        if !started {
            started = true
            try perform(controller.start(now: now))
        } else {
            // A tick of a burst moves the offset; a pause is one step (nothing moves, nothing loads).
            let cycle = profile.burstMilliseconds + profile.pauseMilliseconds
            let phase = now.truncatingRemainder(dividingBy: cycle)
            var advance = Self.tickMilliseconds
            if phase < profile.burstMilliseconds {
                advance = min(Self.tickMilliseconds, profile.burstMilliseconds - phase)
                offset += profile.pointsPerSecond * advance / 1_000
            } else {
                advance = cycle - phase
            }
            now += advance
            offset = min(offset, max(0, tops[tops.count - 1] - viewportSize.height))
            try perform(controller.viewportChanged(viewport, now: now))
            try fetchRows()
            guard now < profile.sessionMilliseconds else { return nil }
            guard let timeScale else { return .zero }
            return .nanoseconds(Int64(advance * 1e6 * timeScale))
        }
        offset = min(offset, max(0, tops[tops.count - 1] - viewportSize.height))
        try perform(controller.viewportChanged(viewport, now: now))
        try fetchRows()
        guard now < profile.sessionMilliseconds else { return nil }
        guard let timeScale else { return .zero }
        return .nanoseconds(Int64(Self.tickMilliseconds * 1e6 * timeScale))
    }

    /// Checks the walk: duplicates and skips against the store now (see ``ConsistencyChecker``).
    public func finish(interrupted: Bool, _ metrics: inout LoadMetrics) throws {
        defer { pool.give(connections) }
        let walk = source.walk
        var count = ConsistencyCount()
        if let newest = walk.map(\.cursor).min(), let oldest = walk.map(\.cursor).max() {
            let survivors = try truth.span(newest: newest, oldest: oldest)
            count = ConsistencyChecker.check(loaded: walk, survivors: survivors) { [maxIDAtStart] in
                $0 <= maxIDAtStart
            }
        }
        metrics.recordSession(SessionOutcome(session: index, consistency: count, itemsLoaded: walk.count, error: nil))
    }

    private var viewport: FeedController.Viewport {
        let bottom = offset + viewportSize.height
        let first = firstIndex(below: offset)
        let last = firstIndex(below: bottom) - 1
        let count = tops.count - 1
        let visible = first < count && last >= first
        return FeedController.Viewport(
            contentOffset: offset, viewportLength: viewportSize.height, contentLength: tops[count],
            firstVisibleIndex: visible ? first : nil, lastVisibleIndex: visible ? min(last, count - 1) : nil)
    }

    /// The first item whose bottom is below `y` (binary search over `tops`).
    private func firstIndex(below y: Double) -> Int {
        var low = 0
        var high = tops.count - 1
        while low < high {
            let middle = (low + high) / 2
            if tops[middle + 1] <= y { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Runs the controller's actions until none are left: fetches run now, changes re-stack items.
    private func perform(_ initial: [FeedAction]) throws {
        var queue = initial
        while !queue.isEmpty {
            let action = queue.removeFirst()
            switch action {
            case .fetch(let request):
                do {
                    let page = try request.run(on: source)
                    queue += controller.pageArrived(request, page: page, now: now)
                } catch {
                    queue += controller.pageFailed(request, error: String(describing: error), now: now)
                    throw error
                }
            case .apply:
                restack()
                queue += controller.viewportChanged(viewport, now: now)
            case .scheduleRetry, .dropStale, .phaseChanged:
                break
            }
        }
    }

    private func restack() {
        tops = [0]
        tops.reserveCapacity(controller.items.count + 1)
        for item in controller.items {
            let height = item.width > 0 ? item.height * viewportSize.width / item.width : item.height
            tops.append(tops[tops.count - 1] + height)
        }
    }

    /// Fetches rows, in one batch, for items within a screenful of the viewport that have none yet.
    private func fetchRows() throws {
        let count = tops.count - 1
        guard count > 0 else { return }
        let first = firstIndex(below: max(0, offset - viewportSize.height))
        let last = min(count - 1, firstIndex(below: offset + 2 * viewportSize.height))
        guard first <= last else { return }
        let ids = controller.items[first...last].map(\.id).filter { !rowsFetched.contains($0) }
        guard !ids.isEmpty else { return }
        _ = try source.rows(ids: ids)
        rowsFetched.formUnion(ids)
    }
}
