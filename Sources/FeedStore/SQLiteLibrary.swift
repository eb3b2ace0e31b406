internal import FeedSimSQLite

/// Process-wide SQLite settings: applied by the executable at start (`feedsim`'s `ProcessSettings`),
/// before the first connection of the process opens, never as a side effect of opening a store.
/// The store and the benchmarks' raw C-API baselines run in that process under the same settings.
public enum SQLiteLibrary {
    /// Turns SQLite's memory statistics off (`SQLITE_CONFIG_MEMSTATUS`, 0), as SQLite's list of
    /// recommended compile-time options does with `SQLITE_DEFAULT_MEMSTATUS=0`
    /// (<https://sqlite.org/compile.html#recommended_compile_time_options>): with statistics on,
    /// every allocation inside SQLite takes one process-wide mutex, which threads reading on
    /// connections of their own then queue on.
    ///
    /// Idempotent and thread-safe (a lazily initialized global runs once). If the library was
    /// already initialized by other code in the process, SQLite refuses the setting and keeps its
    /// default: nothing fails, the statistics just stay on (see ``memoryStatisticsOff``).
    public static func configure() {
        _ = memoryStatisticsOff
    }

    /// Whether SQLite accepted turning the memory statistics off.
    public static let memoryStatisticsOff: Bool = feedsim_sqlite_config_memstatus(0) == SQLITE_OK
}
