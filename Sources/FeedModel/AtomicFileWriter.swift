import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes an output file all or nothing: every FeedSim command that writes a file (reports,
/// traces, timelines, SVGs) goes through this one writer.
///
/// - A regular file (or a path that does not exist yet) gets its bytes in a temporary beside it,
///   named `.<name>.feedsim-tmp` so a user who finds one knows what left it, and the temporary is
///   flushed to disk and renamed over the target on ``commit()``. Nothing else is replaced: a
///   failed or abandoned write removes the temporary and leaves the target as it was.
/// - Anything else (`/dev/stdout`, `/dev/null`, `/dev/full`, a pipe) is written in place: a rename
///   would replace the device node with a regular file.
/// - A symbolic link is followed: its target is replaced, the link stays.
/// - Temporaries are listed in ``TemporaryFiles`` until committed or removed, so the command line
///   can delete them when SIGINT or SIGTERM ends the process (``TemporaryFiles/removeAll()``).
///
/// Bytes are buffered (64 KiB) and written as they come, so a large output (a 24 h synthetic
/// trace, a per-frame timeline) never has to be held in memory whole.
public final class AtomicFileWriter {
    /// The path given by the caller.
    public let path: String
    private let fd: Int32
    /// The temporary being written, `nil` when writing in place.
    private let temporary: String?
    /// The file the temporary replaces (the link's target when `path` is a symbolic link).
    private let destination: String
    private var buffer: [UInt8] = []
    private var finished = false

    /// Opens `path` for writing.
    /// - Throws: ``FileError``: empty path, missing directory, a directory, no permission.
    public init(path: String) throws(FileError) {
        self.path = path
        func fail(_ reason: String) -> FileError { FileError(path: path, reason: reason) }
        guard !path.isEmpty else { throw fail("empty file name") }
        var destination = path
        var info = stat()
        if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK, let resolved = realpath(path, nil) {
            destination = String(cString: resolved)
            free(resolved)
        }
        let exists = stat(destination, &info) == 0
        let type = info.st_mode & S_IFMT
        if exists, type == S_IFDIR { throw fail("is a directory") }
        if exists, type != S_IFREG {
            // A device, FIFO or socket: write in place.
            let fd = open(destination, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { throw fail(InputFile.errnoReason(errno)) }
            self.fd = fd
            self.temporary = nil
            self.destination = destination
            return
        }
        let url = URL(fileURLWithPath: destination)
        let directory = url.deletingLastPathComponent().path
        var directoryInfo = stat()
        guard stat(directory, &directoryInfo) == 0 else {
            throw fail(errno == ENOENT ? "no directory \(directory)" : InputFile.errnoReason(errno))
        }
        guard directoryInfo.st_mode & S_IFMT == S_IFDIR else { throw fail("\(directory) is not a directory") }
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).feedsim-tmp").path
        TemporaryFiles.add(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            let reason = InputFile.errnoReason(errno)
            TemporaryFiles.remove(temporary)
            throw fail(reason)
        }
        self.fd = fd
        self.temporary = temporary
        self.destination = destination
    }

    deinit {
        if !finished { abandon() }
    }

    /// Appends bytes. - Throws: ``FileError`` (the temporary is removed).
    public func write(_ bytes: some Collection<UInt8>) throws(FileError) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { try flush() }
    }

    /// Appends the UTF-8 bytes of `text`. - Throws: ``FileError``.
    public func write(_ text: String) throws(FileError) {
        try write(text.utf8)
    }

    private func flush() throws(FileError) {
        var offset = 0
        while offset < buffer.count {
            let n = buffer.withUnsafeBytes { raw in
                systemWrite(fd, raw.baseAddress! + offset, raw.count - offset)
            }
            if n < 0 {
                if errno == EINTR { continue }
                let reason = InputFile.errnoReason(errno)
                abandon()
                throw FileError(path: path, reason: "write failed: \(reason)")
            }
            offset += n
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes what is buffered, flushes it to disk and renames the temporary over the target.
    /// - Throws: ``FileError``; the target is then unchanged.
    public func commit() throws(FileError) {
        precondition(!finished, "AtomicFileWriter committed twice")
        try flush()
        finished = true
        guard let temporary else {
            close(fd)
            return
        }
        if fsync(fd) != 0 {
            let reason = InputFile.errnoReason(errno)
            close(fd)
            unlink(temporary)
            TemporaryFiles.remove(temporary)
            throw FileError(path: path, reason: "write failed: \(reason)")
        }
        close(fd)
        if rename(temporary, destination) != 0 {
            let reason = InputFile.errnoReason(errno)
            unlink(temporary)
            TemporaryFiles.remove(temporary)
            throw FileError(path: path, reason: "cannot replace the file: \(reason)")
        }
        TemporaryFiles.remove(temporary)
    }

    /// Stops writing and removes the temporary; the target is left as it was.
    public func abandon() {
        guard !finished else { return }
        finished = true
        close(fd)
        if let temporary {
            unlink(temporary)
            TemporaryFiles.remove(temporary)
        }
    }

    /// Writes `data` to `path` all or nothing (see the type's discussion).
    /// - Throws: ``FileError``.
    public static func write(_ data: Data, to path: String) throws(FileError) {
        let writer = try AtomicFileWriter(path: path)
        try writer.write(data)
        try writer.commit()
    }
}

/// The temporaries of ``AtomicFileWriter`` not yet committed or removed, and other files a command
/// is making that are not finished yet (a database `seed` creates, with its `-wal`, `-shm`,
/// `-journal`), so that a process ended by a signal can delete them first.
public enum TemporaryFiles {
    // Shared by every writer in the process; the lock makes it safe from any thread.
    nonisolated(unsafe) private static var paths: Set<String> = []
    private static let lock = NSLock()

    /// Notes `path` as unfinished: ``removeAll(under:)`` deletes it.
    public static func add(_ path: String) {
        lock.lock()
        paths.insert(path)
        lock.unlock()
    }

    /// `path` is finished (committed, or removed by its owner): no longer deleted on a signal.
    public static func remove(_ path: String) {
        lock.lock()
        paths.remove(path)
        lock.unlock()
    }

    /// The temporaries now open, sorted.
    public static var current: [String] {
        lock.lock()
        defer { lock.unlock() }
        return paths.sorted()
    }

    /// Deletes every temporary still open (called by the command line when SIGINT or SIGTERM
    /// arrives, from a normal thread, not a signal handler). Writers whose temporary was removed
    /// fail on their next write or commit.
    /// - Parameter directory: only those inside this directory (tests); `nil` = all.
    public static func removeAll(under directory: String? = nil) {
        lock.lock()
        let chosen = paths.filter { path in directory.map { path.hasPrefix($0 + "/") } ?? true }
        paths.subtract(chosen)
        lock.unlock()
        for path in chosen { unlink(path) }
    }
}

/// POSIX `write(2)` (named apart from ``AtomicFileWriter/write(_:)``).
private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, bytes, count)
}
