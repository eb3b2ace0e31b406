import FeedModel
import Foundation

/// The input formats FeedSim reads traces from, by their command-line names
/// (`feedsim trace import --from NAME`, `feedsim replay --trace-format NAME`).
public enum TraceFormat: String, Sendable, CaseIterable {
    /// FeedSim's own JSON Lines (`docs/trace-format.md`).
    case canonical = "jsonl"
    /// Linux `evemu-record` captures; see ``EvemuImporter``.
    case evemu
    /// Chrome Trace Event Format JSON; see ``ChromeTraceImporter``.
    case chrome
    /// Touch-sample CSV; see ``TouchCSVImporter``.
    case touchCSV = "touch-csv"
    /// rrweb session recordings; see ``RRWebImporter``.
    case rrweb

    /// Reads the file at `path` in this format with each importer's default options.
    /// - Throws: ``TraceError``; nothing is returned from a file that fails to import.
    public func load(contentsOf path: String) throws(TraceError) -> Trace {
        try load(data: try Self.data(path), file: path)
    }

    /// Parses a file's bytes in this format with each importer's default options.
    /// - Throws: ``TraceError`` naming `file` and the line (or event index) and field.
    public func load(data: Data, file: String) throws(TraceError) -> Trace {
        switch self {
        case .canonical: try Trace.read(data: data, file: file)
        case .evemu: try EvemuImporter().importTrace(from: try TraceInput.text(data, file: file), file: file)
        case .touchCSV: try TouchCSVImporter().importTrace(from: try TraceInput.text(data, file: file), file: file)
        case .chrome: try ChromeTraceImporter().importTrace(from: data, file: file)
        case .rrweb: try RRWebImporter().importTrace(from: data, file: file)
        }
    }

    /// The file's bytes.
    /// - Throws: ``TraceError/unusable(file:reason:)`` saying plainly why: no such file, a
    ///   directory, not a regular file (a device such as `/dev/zero`), larger than
    ///   ``maximumFileBytes``, no permission.
    public static func data(_ path: String) throws(TraceError) -> Data {
        do {
            return try InputFile.read(path, maximumBytes: maximumFileBytes)
        } catch {
            throw .unusable(file: path, reason: error.reason)
        }
    }

    /// Largest trace or recording file read: 2 GiB (a 24 h trace at 120 Hz is about 0.5 GB).
    public static let maximumFileBytes = 2 << 30

    /// The file as UTF-8 text (a leading byte-order mark dropped).
    /// - Throws: ``TraceError/unusable(file:reason:)``, or ``TraceError/syntax(file:line:column:reason:)``
    ///   at the first byte that is not UTF-8.
    public static func text(_ path: String) throws(TraceError) -> String {
        try TraceInput.text(try data(path), file: path)
    }
}
