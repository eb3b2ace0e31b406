import FeedReplay
import FeedStore
import Foundation

/// The readers the fuzzer drives, by their `feedsim fuzz --format` names: the five trace readers
/// (`feedsim trace import --from`, `feedsim replay --trace-format`) and the three item importers
/// (`feedsim import --format`), each called exactly as the command line calls it, on bytes.
public enum FuzzFormat: String, CaseIterable, Sendable {
    case evemu
    case chrome
    case touchCSV = "touch-csv"
    case rrweb
    /// FeedSim's JSON Lines trace.
    case jsonl
    case itemsJSONL = "items-jsonl"
    case itemsCSV = "items-csv"
    case wikimedia

    /// Whether the format is JSON text (the JSON mutations apply: wrong types, duplicate keys, deep nesting).
    var isJSON: Bool {
        switch self {
        case .chrome, .rrweb, .jsonl, .itemsJSONL, .wikimedia: true
        case .evemu, .touchCSV, .itemsCSV: false
        }
    }

    /// Runs the reader on `data` (named `file` in errors) and classifies what happened.
    ///
    /// An accepted trace is also written back as JSON Lines and read again, which must give the
    /// same trace: what a reader accepts, the rest of FeedSim can use. Items are parsed only
    /// (nothing is written to a database).
    public func run(_ data: Data, file: String) -> FuzzOutcome {
        do {
            switch self {
            case .evemu, .chrome, .touchCSV, .rrweb, .jsonl:
                let traceFormat: TraceFormat =
                    switch self {
                    case .evemu: .evemu
                    case .chrome: .chrome
                    case .touchCSV: .touchCSV
                    case .rrweb: .rrweb
                    default: .canonical
                    }
                let trace = try traceFormat.load(data: data, file: file)
                let again = try Trace.read(from: trace.jsonLines(), file: file)
                guard again.events.count == trace.events.count, again.header.source == trace.header.source else {
                    return .rejectedWithoutPosition("accepted, but its JSON Lines do not read back the same")
                }
                return .accepted
            case .itemsJSONL:
                _ = try ItemImporter.parse(data, format: .jsonl, file: file)
                return .accepted
            case .itemsCSV:
                _ = try ItemImporter.parse(data, format: .csv, file: file)
                return .accepted
            case .wikimedia:
                _ = try ItemImporter.parse(data, format: .wikimedia, file: file)
                return .accepted
            }
        } catch let error as TraceError {
            switch error {
            case .malformed, .malformedEvent, .syntax: return .rejectedWithPosition("\(error)")
            case .unusable: return .rejectedWholeFile("\(error)")
            }
        } catch let error as ImportError {
            return error.location.isEmpty && error.field.isEmpty
                ? .rejectedWholeFile("\(error)") : .rejectedWithPosition("\(error)")
        } catch {
            return .rejectedWithoutPosition("\(type(of: error)): \(error)")
        }
    }
}

/// What one fuzz case gave. A trap is not among them: it ends the process, which is the failure
/// the fuzzer exists to find.
public enum FuzzOutcome: Equatable, Sendable {
    /// The reader took the input.
    case accepted
    /// A FeedSim error naming the file and a line, event index or line and column, and the field.
    case rejectedWithPosition(String)
    /// A FeedSim error about the file as a whole (empty, no usable events, not the expected kind
    /// of document), where no single position is at fault.
    case rejectedWholeFile(String)
    /// Anything else: an error with no position, or a foreign error type. Must never happen.
    case rejectedWithoutPosition(String)
}
