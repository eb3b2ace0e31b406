internal import FeedSimSQLite

/// Process-wide SQLite settings, applied once before the first connection of the process opens.
///
/// Every place that opens a connection (``Connection``, and the raw C-API baselines and ground-truth
/// readers of the benchmarks and the load tester) calls ``configure()`` first, so the store and its
/// baselines always run under the same settings.
package enum SQLiteLibrary {
    /// Turns SQLite's memory statistics off (`SQLITE_CONFIG_MEMSTATUS`, 0), as SQLite's list of
    /// recommended compile-time options does with `SQLITE_DEFAULT_MEMSTATUS=0`
    /// (<https://sqlite.org/compile.html#recommended_compile_time_options>): with statistics on,
    /// every allocation inside SQLite takes one process-wide mutex, which threads reading on
    /// connections of their own then queue on.
    ///
    /// Idempotent and thread-safe (a lazily initialized global runs once). If the library was
    /// already initialized by other code in the process, SQLite refuses the setting and keeps its
    /// default: nothing fails, the statistics just stay on (see ``memoryStatisticsOff``).
    package static func configure() {
        _ = memoryStatisticsOff
    }

    /// Whether SQLite accepted turning the memory statistics off.
    package static let memoryStatisticsOff: Bool = feedsim_sqlite_config_memstatus(0) == SQLITE_OK
}
