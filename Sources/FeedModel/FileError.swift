/// A file or directory that could not be read or written, in words a user can act on: the path
/// and a plain reason. Printed as `path: reason`.
///
/// One type for every such failure: input files (``InputFile``: `no such file`, `is a directory`,
/// `not a regular file (a character device)`, `permission denied`, ...), output files
/// (``AtomicFileWriter``: `no directory /tmp/missing`, `is a directory`, `no space left on the
/// device`, ...) and the package's data files (`FeedResources.ResourceDirectory`: an embedded
/// path such as `Seeds/nope.json (embedded)`, or a directory on disk; `directory not found`,
/// `no such file`, `cannot read file`).
public struct FileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The path as the user gave it (or the embedded path, marked `(embedded)`).
    public var path: String
    /// What went wrong, in plain words, without the path.
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
}
