import FeedEngine
import Foundation
import FeedLayout
import FeedReplay
import FeedResources

/// Everything a load run needs; validated by ``LoadRunner`` before anything starts.
public struct LoadConfiguration: Sendable {
    /// The backend's address: for SQLite the database file (a seeded store; `:memory:` cannot be
    /// shared between connections). The caller's `openBackend` (``LoadRunner``) opens it.
    public var path: String
    /// The feed the sessions scroll and the writers insert into.
    public var feedName: String
    public var model: ArrivalModel
    /// What each session does: replay a trace (the default, `feedsim load`) or only page down.
    public var session: SessionKind
    /// The traces the sessions replay (replay sessions only).
    public var traces: SessionTraces
    /// The layout each session builds its own instance of (`feedsim replay`'s options; grid by default).
    public var layout: LayoutConfiguration
    /// Controller, ranges and physics of each replay; its latency and faults are ignored (the
    /// latency is real) and its seed is the base the per-session seeds start from.
    public var replay: ReplayOptions
    /// `K`: virtual milliseconds per wall millisecond (1 = real time, 10 = ten times faster);
    /// `nil` for no waiting (`--time-scale max`).
    public var timeScale: Double?
    public var pagination: PaginationMode
    /// Wall-clock limit, seconds.
    public var durationSeconds: Double
    /// Worker threads for the sessions.
    public var workers: Int
    /// Writer threads (0 for none), their total insert rate (items per second) and items per transaction.
    public var writers: Int
    public var writeRate: Double
    public var writeBatch: Int
    /// The preset that shapes written items (kinds, sizes), by writers and by traces' `insert` events.
    public var writerPreset: String
    /// Keep the rows the writers inserted after the run (default: each writer deletes its own rows
    /// when it stops, so the database is as it was and the next run starts from the same feed).
    public var keepWrites = false
    /// What each writer operation does, by weight (default inserts only; ``WriteMix``).
    public var writeMix = WriteMix.insertOnly
    /// Seed of the writers and of synthesized traces (session k: `seed + k`).
    public var seed: UInt64
    /// Whether a consistency check may answer a span from the one its ground-truth connection read
    /// last when nothing was committed since (``GroundTruth``); `false` reads every span from the
    /// index, as a run with writers mostly does (`feedsim bench load` measures both).
    public var reuseUnchangedSpans = true
    /// Sessions to run in all, then stop (k6's shared iterations): with `--time-scale max` and no
    /// writers a run's counts are then the same every time; `nil` runs until ``durationSeconds``,
    /// which stays the limit either way (`feedsim load --iterations`).
    public var iterations: Int?
    /// The share of the run's sessions (and writers) this process runs (`feedsim load --segment I/N`);
    /// `nil` for all of them. ``LoadSegment`` says which.
    public var segment: LoadSegment?
    /// What to call the backend in the report (never a password): the CLI's `host:port/dbname` for
    /// a PostgreSQL URI; `nil` uses ``path``.
    public var backendDisplayName: String?
    /// Pass/fail criteria checked at the end of the run (and every second with ``abortOnFail``);
    /// any breach makes the run fail (`feedsim load` exits 99, k6's code).
    public var thresholds: [LoadThreshold] = []
    /// Stop the run at the first breach of a threshold, checked every second (k6's `abortOnFail`).
    public var abortOnFail = false
    /// A ramp of the load (k6's `ramping-vus` for the closed model, `ramping-arrival-rate` for the
    /// open one): the stages' targets replace the model's sessions or rate over time, and their
    /// total length replaces ``durationSeconds``. `nil` for a constant load.
    public var stages: LoadStages?
    /// A network delay added, client-side, to each replay session's page and row answers on top of
    /// the query's measured time (`--latency`), drawn from the session's seed; 0 by default.
    public var latency: LatencyModel = .fixed(ms: 0)

    /// How long the run lasts, seconds: the stages' total, else ``durationSeconds``.
    public var runSeconds: Double { stages?.totalSeconds ?? durationSeconds }

    /// Most sessions (closed model) or slots (open model): each holds a connection, a replay and
    /// its loaded list while it runs (`feedsim load --sessions`).
    public static let maxSessions = 10_000
    /// Most writer threads: SQLite lets one writer in at a time, so more writers only queue on
    /// the lock (`feedsim load --writers`).
    public static let maxWriters = 64
    /// Most session worker threads (`feedsim load --workers`).
    public static let maxWorkers = 256
    /// Most sessions one run may be limited to (`feedsim load --iterations`).
    public static let maxIterations = 100_000_000

    /// Items per page (the controller's).
    public var pageSize: Int { replay.controller.pageSize }

    public init(
        path: String, feedName: String, model: ArrivalModel, session: SessionKind = .replay,
        traces: SessionTraces = .synthesized(models: [.skimmer, .flinger], durationSeconds: 30),
        layout: LayoutConfiguration = LayoutConfiguration(kind: .grid),
        replay: ReplayOptions = ReplayOptions(controller: FeedController.Configuration()),
        timeScale: Double? = 1, pagination: PaginationMode = .keyset, durationSeconds: Double = 10, workers: Int, writers: Int = 0, writeRate: Double = 10, writeBatch: Int = 1,
        writerPreset: String = "mixed", seed: UInt64 = 1, keepWrites: Bool = false
    ) {
        self.keepWrites = keepWrites
        self.path = path
        self.feedName = feedName
        self.model = model
        self.session = session
        self.traces = traces
        self.layout = layout
        self.replay = replay
        self.timeScale = timeScale
        self.pagination = pagination
        self.durationSeconds = durationSeconds
        self.workers = workers
        self.writers = writers
        self.writeRate = writeRate
        self.writeBatch = writeBatch
        self.writerPreset = writerPreset
        self.seed = seed
    }
}

/// What each load session does.
public enum SessionKind: Hashable, Sendable {
    /// Replays a trace frame by frame through the whole engine (``ReplayLoadSession``): the load
    /// `feedsim load` runs.
    case replay
    /// Pages down the feed as fast as the store answers, with a real controller but no frames
    /// (``PaginationLoadSession``), ending after `pageBudget` page requests or at the end of the feed.
    case pagination(pageBudget: Int)

    /// `replay`, or `pagination:BUDGET`, for reports.
    public var name: String {
        switch self {
        case .replay: "replay"
        case .pagination(let budget): "pagination:\(budget)"
        }
    }
}

/// A load configuration that cannot run, naming the field.
public struct LoadConfigurationError: Error, CustomStringConvertible, Sendable {
    public var field: String
    public var reason: String
    public init(field: String, reason: String) {
        self.field = field
        self.reason = reason
    }
    public var description: String { "\(field): \(reason)" }
}

extension LoadConfiguration {
    /// For a backend in a database file (SQLite): checks that ``path`` names an existing file that
    /// every session's connection can open, before the caller opens it.
    /// - Throws: ``LoadConfigurationError`` for field `db`.
    public func checkDatabaseFile() throws {
        guard path != ":memory:", !path.isEmpty else {
            throw LoadConfigurationError(field: "db", reason: "a load needs a database file that every session can open")
        }
        guard FileManager.default.fileExists(atPath: path) else {
            throw LoadConfigurationError(field: "db", reason: "\(path): no such file (create it with `feedsim seed`)")
        }
    }
}
