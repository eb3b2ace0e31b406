import FeedStore

/// Everything a load run needs; validated by ``LoadRunner`` before anything starts.
public struct LoadConfiguration: Sendable {
    /// The SQLite database file (a seeded store; `:memory:` cannot be shared between connections).
    public var path: String
    /// The feed the sessions scroll and the writers insert into.
    public var feedName: String
    public var model: ArrivalModel
    /// How the sessions scroll; session k uses `profiles[k % profiles.count]`.
    public var profiles: [ScrollProfile]
    /// Wall seconds per session second; `nil` for no waiting (`--time-scale max`).
    public var timeScale: Double?
    public var pagination: PaginationMode
    /// Items per page.
    public var pageSize: Int
    /// Wall-clock limit, seconds.
    public var durationSeconds: Double
    /// Worker threads for the sessions.
    public var workers: Int
    /// Writer threads (0 for none), their total insert rate (items per second) and items per transaction.
    public var writers: Int
    public var writeRate: Double
    public var writeBatch: Int
    /// The preset that shapes written items (kinds, sizes).
    public var writerPreset: String
    public var seed: UInt64

    public init(
        path: String, feedName: String, model: ArrivalModel, profiles: [ScrollProfile] = ScrollProfile.presets,
        timeScale: Double? = 1, pagination: PaginationMode = .keyset, pageSize: Int = 20,
        durationSeconds: Double = 10, workers: Int, writers: Int = 0, writeRate: Double = 10, writeBatch: Int = 1,
        writerPreset: String = "mixed", seed: UInt64 = 1
    ) {
        self.path = path
        self.feedName = feedName
        self.model = model
        self.profiles = profiles
        self.timeScale = timeScale
        self.pagination = pagination
        self.pageSize = pageSize
        self.durationSeconds = durationSeconds
        self.workers = workers
        self.writers = writers
        self.writeRate = writeRate
        self.writeBatch = writeBatch
        self.writerPreset = writerPreset
        self.seed = seed
    }
}

/// A load configuration that cannot run, naming the field.
public struct LoadConfigurationError: Error, CustomStringConvertible, Sendable {
    public var field: String
    public var reason: String
    public var description: String { "\(field): \(reason)" }
}
