/// The kinds of query a load times separately.
public enum QueryKind: String, CaseIterable, Hashable, Sendable, Codable {
    /// The first page (Init): the newest items.
    case newest
    /// A More page by keyset cursor (older than the last loaded item).
    case after
    /// A Refresh / prepend page by keyset cursor (newer than the first loaded item).
    case before
    /// A More page by OFFSET (`--pagination offset`).
    case offset
    /// Full rows by id for the items on screen.
    case rows
    /// A writer's write transaction (`BEGIN IMMEDIATE` … `COMMIT`: its inserts, updates and deletes).
    case insert
}

/// One session's outcome, kept for the report when it is not clean.
public struct SessionOutcome: Hashable, Sendable, Codable {
    /// The session's number, from 0 in order of start.
    public var session: Int
    public var consistency: ConsistencyCount
    /// Items the session loaded by pages.
    public var itemsLoaded: Int
    /// The error that ended the session, when one did.
    public var error: String?
    /// Violations the session's replay found itself (duplicate ids, gaps, order, anchor drift).
    public var replayViolations: Int

    public init(
        session: Int, consistency: ConsistencyCount, itemsLoaded: Int, error: String?, replayViolations: Int = 0
    ) {
        self.session = session
        self.consistency = consistency
        self.itemsLoaded = itemsLoaded
        self.error = error
        self.replayViolations = replayViolations
    }
}

/// Counters and latency histograms of part of a load (one worker thread, one writer), merged
/// into the run's total with ``merge(_:)``.
public struct LoadMetrics: Sendable {
    /// Latency in nanoseconds per query kind.
    public var latency: [QueryKind: LatencyHistogram] = [:]
    /// Page queries that returned (any kind but rows and insert).
    public var pages = 0
    /// Item stubs those pages carried.
    public var items = 0
    /// Full rows fetched by id.
    public var rows = 0
    /// Replay frames simulated by sessions.
    public var frames = 0
    /// Wall time sessions spent inside their steps, nanoseconds: replay frames, or pagination
    /// sessions' pages, including the queries they ran (the rest of a worker's time is the
    /// scheduler's, the consistency checks' and idle time).
    public var replayNanoseconds: UInt64 = 0
    /// On-CPU time of the session worker threads, nanoseconds (``ThreadCPUClock``): with
    /// `workers × elapsed` it gives the cores the load actually got.
    public var cpuNanoseconds: UInt64 = 0
    /// Items inserted by writers (and traces' `insert` events).
    public var inserted = 0
    /// Items load writers updated (`--write-mix update=`): new title and payload.
    public var updated = 0
    /// Items load writers deleted during the run (`--write-mix delete=`; not the clean-up after it).
    public var deleted = 0
    /// Write transactions committed by writers (inserts, and the updates and deletes of a mix).
    public var insertTransactions = 0
    /// Times a writer found the database locked (`SQLITE_BUSY`) and waited before retrying.
    public var busyWaits = 0
    /// Failed queries by SQLite result code name (`"SQLITE_BUSY"`), or `"other"` for non-SQLite errors.
    public var errors: [String: Int] = [:]
    /// Sessions whose consistency was checked, and their summed counts.
    public var sessionsChecked = 0
    public var consistency = ConsistencyCount()
    /// Walk spans (a count) the consistency checks read from the store's index.
    public var spansRead = 0
    /// Walk spans (a count) answered from the span the ground-truth connection read last, nothing
    /// having been committed to the database since (see ``GroundTruth``).
    public var spansReused = 0
    /// Sessions with duplicates, skips, replay violations or an error (the report lists them).
    public var notableSessions: [SessionOutcome] = []
    /// The replays' own violations by kind (`duplicate_id`, `gap`, `order_broken`, `anchor_drift`, …).
    public var replayViolations: [String: Int] = [:]

    /// Replay sessions that finished (their blank area and time to first content are counted).
    public var replaysFinished = 0
    /// Sum of the finished replays' mean blank fractions (0...1 each).
    public var blankMeanSum = 0.0
    /// Time to first content of the finished replays that showed content, nanoseconds of virtual time.
    public var timeToFirstContent = LatencyHistogram()
    /// The finished replays' mean blank fractions, in parts per million (``blankFractionScale``),
    /// for percentiles over sessions (`--threshold blank.p95<0.05`).
    public var blankFraction = LatencyHistogram()
    /// Parts per million: a blank fraction `f` is recorded as `f × 1e6`.
    public static let blankFractionScale = 1e6

    public init() {}

    /// Adds a finished replay's blank area (mean fraction, 0...1) and time to first content (ms, `nil` if never).
    public mutating func recordReplay(blankMeanFraction: Double, timeToFirstContentMs: Double?) {
        replaysFinished += 1
        blankMeanSum += blankMeanFraction
        blankFraction.record(UInt64((min(max(blankMeanFraction, 0), 1) * Self.blankFractionScale).rounded()))
        if let ms = timeToFirstContentMs { timeToFirstContent.record(UInt64(max(0, ms) * 1e6)) }
    }

    /// Records one query's latency.
    public mutating func record(_ kind: QueryKind, nanoseconds: UInt64) {
        latency[kind, default: LatencyHistogram()].record(nanoseconds)
    }

    /// Counts one failed query.
    public mutating func recordError(_ error: any Error) {
        errors[LoadErrorCode.name(of: error), default: 0] += 1
    }

    /// Adds a finished session's consistency check.
    public mutating func recordSession(_ outcome: SessionOutcome) {
        sessionsChecked += 1
        consistency = consistency + outcome.consistency
        if !outcome.consistency.isClean || outcome.error != nil || outcome.replayViolations > 0 {
            notableSessions.append(outcome)
        }
    }

    /// Counts a replay's violations by kind.
    public mutating func recordReplayViolations(_ kinds: [String]) {
        for kind in kinds { replayViolations[kind, default: 0] += 1 }
    }

    /// Adds everything counted in `other`.
    public mutating func merge(_ other: LoadMetrics) {
        for (kind, histogram) in other.latency { latency[kind, default: LatencyHistogram()].merge(histogram) }
        pages += other.pages
        items += other.items
        rows += other.rows
        frames += other.frames
        replayNanoseconds += other.replayNanoseconds
        cpuNanoseconds += other.cpuNanoseconds
        inserted += other.inserted
        insertTransactions += other.insertTransactions
        updated += other.updated
        deleted += other.deleted
        busyWaits += other.busyWaits
        for (code, count) in other.errors { errors[code, default: 0] += count }
        sessionsChecked += other.sessionsChecked
        consistency = consistency + other.consistency
        spansRead += other.spansRead
        spansReused += other.spansReused
        notableSessions += other.notableSessions
        for (kind, count) in other.replayViolations { replayViolations[kind, default: 0] += count }
        replaysFinished += other.replaysFinished
        blankMeanSum += other.blankMeanSum
        timeToFirstContent.merge(other.timeToFirstContent)
        blankFraction.merge(other.blankFraction)
    }

    /// Total time of the page and row queries, nanoseconds (sum of their histograms).
    public var queryNanoseconds: UInt64 {
        [QueryKind.newest, .after, .before, .offset, .rows].reduce(0) { $0 + (latency[$1]?.sum ?? 0) }
    }

    /// The p99 over every page kind, in nanoseconds (for the progress line).
    public var pageP99: UInt64? {
        var pagesOnly = LatencyHistogram()
        for kind in [QueryKind.newest, .after, .before, .offset] {
            if let histogram = latency[kind] { pagesOnly.merge(histogram) }
        }
        return pagesOnly.value(atQuantile: 0.99)
    }
}
