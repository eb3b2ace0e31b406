import FeedEngine
import FeedLayout
import FeedModel
import FeedReplay
import FeedResources
import FeedStore
import FeedLoad
import Foundation

/// The memory of this process, read from Linux's `/proc/self/status`.
///
/// Two figures:
/// - **VmRSS** (resident set size, KiB): pages of this process in RAM now;
/// - **VmHWM** ("high water mark", KiB): the largest VmRSS so far. It is process-wide and only
///   grows, unless ``resetPeak()`` writes `5` to `/proc/self/clear_refs` (Linux ≥ 4.0,
///   `Documentation/filesystems/proc.rst`), which sets it back to the current VmRSS.
///
/// (glibc's `mallinfo2()` would give the heap in use without the freed memory the allocator
/// keeps, but `malloc.h` is not in Swift's Glibc module map; RSS is what the system sees anyway.)
///
/// On a system without `/proc` the readers return `nil`.
public enum ProcessMemory {
    /// VmRSS and VmHWM, KiB.
    public struct Status: Codable, Hashable, Sendable {
        public var rssKiB: Int
        public var peakKiB: Int
    }

    /// The current VmRSS and VmHWM, or `nil` when `/proc/self/status` cannot be read.
    public static func status() -> Status? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        return parseStatus(text)
    }

    /// Reads `VmRSS:` and `VmHWM:` (in kB, as the kernel writes them) from the text of a
    /// `/proc/<pid>/status` file; `nil` when either line is missing or malformed.
    /// - Complexity: O(length of `text`).
    public static func parseStatus(_ text: String) -> Status? {
        var rss: Int?
        var peak: Int?
        for line in text.split(separator: "\n") {
            let parts = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard parts.count == 3, parts[2] == "kB", let value = Int(parts[1]), value >= 0 else { continue }
            switch parts[0] {
            case "VmRSS:": rss = value
            case "VmHWM:": peak = value
            default: break
            }
        }
        guard let rss, let peak else { return nil }
        return Status(rssKiB: rss, peakKiB: peak)
    }

    /// Sets VmHWM back to the current VmRSS (writes `5` to `/proc/self/clear_refs`).
    /// - Returns: whether the kernel accepted it; when not, VmHWM stays the peak since the process started.
    @discardableResult
    public static func resetPeak() -> Bool {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        do {
            try handle.write(contentsOf: Data("5".utf8))
            return true
        } catch {
            return false
        }
    }
}
