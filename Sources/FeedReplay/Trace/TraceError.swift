/// Why a trace or a recording could not be read. Every case names the file; nothing partial is
/// returned when one of these is thrown.
public enum TraceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A line-oriented file (JSON Lines, EVEMU, CSV) has a bad `field` on 1-based `line`.
    case malformed(file: String, line: Int, field: String, reason: String)
    /// A JSON-array file (Chrome trace, rrweb) has a bad `field` in the event at 0-based `index`.
    case malformedEvent(file: String, index: Int, field: String, reason: String)
    /// The bytes are not well-formed (JSON syntax, UTF-8) at 1-based `line` and byte `column`.
    case syntax(file: String, line: Int, column: Int, reason: String)
    /// The file as a whole cannot be used: unreadable, or no usable input in it.
    case unusable(file: String, reason: String)

    public var description: String {
        switch self {
        case let .malformed(file, line, field, reason):
            "\(file):\(line): field '\(field)': \(reason)"
        case let .malformedEvent(file, index, field, reason):
            "\(file): event \(index): field '\(field)': \(reason)"
        case let .syntax(file, line, column, reason):
            "\(file):\(line):\(column): \(reason)"
        case let .unusable(file, reason):
            "\(file): \(reason)"
        }
    }
}
