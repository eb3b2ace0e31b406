import FeedLoad
import FeedStore

/// The process-wide settings of a `feedsim` run, made once by the executable at start, before
/// any command opens a store or starts a thread: libraries never change them as a side effect.
enum ProcessSettings {
    /// SQLite's memory statistics off (``FeedStore/SQLiteLibrary/configure()``: one process-wide
    /// mutex fewer per allocation) and glibc's heap trim threshold raised
    /// (``FeedLoad/HeapTuning/keepFreedMemory()``: a load session's freed memory is not faulted in
    /// again by the next). The store, the load tester and every benchmark with its raw baseline run
    /// under the same settings.
    static func apply() {
        SQLiteLibrary.configure()
        HeapTuning.keepFreedMemory()
    }

    /// One line naming the settings in force, printed by the benchmarks beside their figures.
    static var summary: String {
        "process settings: SQLite memory statistics \(SQLiteLibrary.memoryStatisticsOff ? "off" : "ON (refused)"), "
            + "glibc trim threshold \(HeapTuning.applied ? "\(HeapTuning.trimThresholdBytes >> 20) MiB" : "default (refused)")"
    }
}
