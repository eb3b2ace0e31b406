import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads whole input files (traces, recordings, item files) with plain reasons for failures,
/// instead of Foundation's "The file couldn't be opened" or, for `/dev/zero`, "You don't have
/// permission".
public enum InputFile {
    /// The bytes of the regular file (or pipe) at `path`.
    /// - Parameter maximumBytes: larger files are refused before they are read.
    /// - Throws: ``FileError``: no such file, a directory, a device or socket (an endless
    ///   source such as `/dev/zero` is never read), too large, permission denied, a read error.
    /// - Complexity: O(file size).
    public static func read(_ path: String, maximumBytes: Int) throws(FileError) -> Data {
        func fail(_ reason: String) -> FileError { FileError(path: path, reason: reason) }
        guard !path.isEmpty else { throw fail("empty file name") }
        var info = stat()
        guard stat(path, &info) == 0 else { throw fail(errnoReason(errno)) }
        let type = info.st_mode & S_IFMT
        switch type {
        case S_IFREG:
            guard Int(info.st_size) <= maximumBytes else {
                throw fail("file of \(info.st_size) bytes is larger than the limit of \(maximumBytes) bytes")
            }
        case S_IFIFO: break  // a pipe (`<(...)`, /dev/stdin): read to its end, within the limit
        case S_IFDIR: throw fail("is a directory, not a file")
        case S_IFCHR: throw fail("not a regular file (a character device)")
        case S_IFBLK: throw fail("not a regular file (a block device)")
        default: throw fail("not a regular file")
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw fail(errnoReason(errno)) }
        defer { close(fd) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw fail("read failed: \(errnoReason(errno))")
            }
            if n == 0 { break }
            data.append(contentsOf: buffer[0..<n])
            guard data.count <= maximumBytes else { throw fail("more than the limit of \(maximumBytes) bytes") }
        }
        return data
    }

    /// `strerror`'s text for common cases, in lower case (`no such file`, `permission denied`).
    static func errnoReason(_ code: Int32) -> String {
        switch code {
        case ENOENT: "no such file"
        case EACCES, EPERM: "permission denied"
        case ENOTDIR: "a part of the path is not a directory"
        case EISDIR: "is a directory, not a file"
        case ENOSPC: "no space left on the device"
        case EROFS: "read-only file system"
        default: String(cString: strerror(code)).lowercased()
        }
    }
}

/// POSIX `read(2)` (named apart from ``InputFile/read(_:maximumBytes:)``).
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}
