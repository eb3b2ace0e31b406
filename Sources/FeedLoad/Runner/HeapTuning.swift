internal import FeedSimLibc

/// The one process-wide memory setting of a load run: glibc's trim threshold.
///
/// A session frees what it built when it ends (the walks it recorded, the controller's item list:
/// some 100–200 KB for 50 pages of 20). With glibc's default (`M_TRIM_THRESHOLD` in `mallopt(3)`:
/// 128 KiB, raised dynamically only as large mapped blocks are freed), that much free memory at the
/// top of the worker thread's heap is handed back to the kernel, and the next session faults the
/// same pages in again: `feedsim bench load` measured about 0.5 page faults per page loaded, some
/// 7 % of a pagination session's time. With ``trimThresholdBytes`` the heap keeps them, so a run's
/// memory stays at its sessions' peak and is not returned while the run lasts. Setting it turns off
/// glibc's dynamic mmap threshold too, so ``mmapThresholdBytes`` is set with it: without that, every
/// block of 128 KiB or more would get (and fault in) a mapping of its own. The raw SQLite loop of
/// the benchmark runs in the same process under the same settings. Applied by the executable at
/// start (`feedsim`'s `ProcessSettings`), never by a load run itself.
public enum HeapTuning {
    /// Free memory a heap keeps at its top: 64 MiB.
    public static let trimThresholdBytes: Int32 = 64 << 20
    /// Smallest allocation given a mapping of its own: 32 MiB (glibc's dynamic threshold tops out there).
    public static let mmapThresholdBytes: Int32 = 32 << 20

    /// Applies the setting (once per process; later calls do nothing).
    public static func keepFreedMemory() {
        _ = applied
    }

    /// Whether the C library took the setting (`false` off glibc).
    public static let applied: Bool = feedsim_malloc_set_thresholds(trimThresholdBytes, mmapThresholdBytes) == 1
}
