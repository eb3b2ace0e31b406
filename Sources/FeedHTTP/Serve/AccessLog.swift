import Foundation
import Synchronization

/// One line per request, appended to a file: the Common Log Format (as Apache and nginx write it)
/// plus the milliseconds the server took, from the request's arrival to its last byte queued:
///
/// `127.0.0.1 - - [01/Dec/2026:09:30:00 +0000] "GET /v1/feeds/home/items?limit=20 HTTP/1.1" 200 5120 1.234`
///
/// A timeout fault (connection closed, no response) is logged with status `-`.
public final class AccessLog: Sendable {
    private let descriptor: Mutex<Int32>

    /// Opens `path` for appending (created when absent, mode 0644).
    /// - Throws: ``AccessLogError`` naming the path when it cannot be opened.
    public init(path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw AccessLogError(path: path, reason: String(cString: strerror(errno))) }
        descriptor = Mutex(fd)
    }

    /// Writes to an already open descriptor (standard error, say); it is not closed.
    public init(descriptor fd: Int32) {
        descriptor = Mutex(fd)
    }

    deinit {
        descriptor.withLock { fd in
            if fd > 2 { close(fd) }
        }
    }

    /// Appends one line (one write(2), so lines of concurrent requests never interleave).
    func write(client: String, method: String, target: String, version: String, status: Int?, bytes: Int, ms: Double) {
        let time = Self.timestamp()
        let statusText = status.map(String.init) ?? "-"
        let line = "\(client) - - [\(time)] \"\(method) \(target) \(version)\" \(statusText) \(bytes) "
            + String(format: "%.3f", ms) + "\n"
        let bytes = Array(line.utf8)
        descriptor.withLock { fd in
            _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        }
    }

    /// `01/Dec/2026:09:30:00 +0000` (UTC).
    static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(two(parts.tm_mday))/\(months[Int(parts.tm_mon)])/\(parts.tm_year + 1900):"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) +0000"
    }
}

/// The access log file cannot be opened.
public struct AccessLogError: Error, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "--access-log \(path): \(reason)" }
}
