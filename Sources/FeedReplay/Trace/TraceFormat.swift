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
        switch self {
        case .canonical: try Trace.read(contentsOf: path)
        case .evemu: try EvemuImporter().importTrace(from: try Self.text(path), file: path)
        case .touchCSV: try TouchCSVImporter().importTrace(from: try Self.text(path), file: path)
        case .chrome: try ChromeTraceImporter().importTrace(from: try Self.data(path), file: path)
        case .rrweb: try RRWebImporter().importTrace(from: try Self.data(path), file: path)
        }
    }

    /// The file's bytes. - Throws: ``TraceError/unusable(file:reason:)``.
    public static func data(_ path: String) throws(TraceError) -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .unusable(file: path, reason: "cannot read the file (\(error.localizedDescription))")
        }
    }

    /// The file as UTF-8 text. - Throws: ``TraceError/unusable(file:reason:)``.
    public static func text(_ path: String) throws(TraceError) -> String {
        guard let text = String(data: try data(path), encoding: .utf8) else {
            throw .unusable(file: path, reason: "not UTF-8 text")
        }
        return text
    }
}
