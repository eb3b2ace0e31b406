import FeedLayout
import FeedModel
import Foundation

extension Trace {
    /// The trace as JSON Lines (format version 1, `docs/trace-format.md`): the header line, then
    /// one line per event, each ending in `\n`. Keys are sorted; numbers use
    /// ``TraceNumberFormat`` (thousandths, no exponent), so equal traces give identical bytes.
    /// - Precondition: the trace passes ``validate(file:)`` (finite numbers in range).
    /// - Complexity: O(n) in the number of events.
    public func jsonLines() -> String {
        var out = header.jsonLine() + "\n"
        out.reserveCapacity(events.count * 48)
        for event in events {
            out += event.jsonLine()
            out += "\n"
        }
        return out
    }

    /// Writes ``jsonLines()`` to `path` with ``AtomicFileWriter`` (a regular file is replaced by a
    /// temporary renamed into place, so a failed run never leaves a half-written trace).
    /// - Throws: ``FileError`` naming the path and the reason.
    public func write(toFile path: String) throws {
        let writer = try AtomicFileWriter(path: path)
        try writeJSONLines { try writer.write($0) }
        try writer.commit()
    }

    /// Hands ``jsonLines()`` to `emit` one line at a time (each ending in `\n`), so a long trace
    /// can be streamed to a file without building the whole text.
    /// - Precondition: as ``jsonLines()``.
    public func writeJSONLines(_ emit: (String) throws -> Void) rethrows {
        try emit(header.jsonLine() + "\n")
        for event in events { try emit(event.jsonLine() + "\n") }
    }

    /// Reads a JSON Lines trace from the file at `path`.
    /// - Throws: ``TraceError/unusable(file:reason:)`` when the file cannot be read,
    ///   ``TraceError/syntax(file:line:column:reason:)`` at a byte that is not UTF-8,
    ///   ``TraceError/malformed(file:line:field:reason:)`` for the first bad line.
    public static func read(contentsOf path: String) throws(TraceError) -> Trace {
        try read(data: try TraceFormat.data(path), file: path)
    }

    /// Parses a JSON Lines trace from the file's bytes (UTF-8; a leading byte-order mark is skipped).
    /// - Throws: as ``read(contentsOf:)``.
    public static func read(data: Data, file: String) throws(TraceError) -> Trace {
        try read(from: try TraceInput.text(data, file: file), file: file)
    }

    /// Parses a JSON Lines trace. Lines end in LF or CR LF; blank lines are skipped; every other
    /// line must be one JSON object.
    /// - Parameters:
    ///   - text: the whole file.
    ///   - file: the name used in errors.
    /// - Throws: ``TraceError/malformed(file:line:field:reason:)`` naming the 1-based line and the
    ///   field: unknown version, missing or unknown field, wrong type, NaN or infinite number,
    ///   time going backwards, unknown `type`, touch order broken, event after `end`.
    /// - Complexity: O(n) in the length of `text`.
    public static func read(from text: String, file: String) throws(TraceError) -> Trace {
        var header: TraceHeader?
        var events: [TraceEvent] = []
        var rules = TraceSequenceRules()
        var lineNumber = 0
        for line in TraceInput.lines(text) {
            lineNumber += 1
            if line.allSatisfy(\.isWhitespace) { continue }
            var fields = try TraceLineFields(line: line, file: file, lineNumber: lineNumber)
            if header == nil {
                header = try fields.header()
                continue
            }
            let event = try fields.event()
            do {
                try rules.accept(event)
            } catch {
                throw .malformed(file: file, line: lineNumber, field: error.field, reason: error.reason)
            }
            events.append(event)
        }
        guard let header else { throw .unusable(file: file, reason: "empty trace: no header line") }
        return Trace(header: header, events: events)
    }
}

extension TraceHeader {
    /// The header as one JSON line, keys sorted.
    func jsonLine() -> String {
        let f = TraceNumberFormat.format
        return "{\"refresh_rate\":\(f(refreshRate)),\"screen_scale\":\(f(screenScale)),"
            + "\"source\":\(TraceLineFields.quoted(source)),\"type\":\"header\",\"version\":\(version),"
            + "\"viewport\":{\"height\":\(f(viewport.height)),\"width\":\(f(viewport.width))}}"
    }
}

extension TraceEvent {
    /// The event as one JSON line, keys sorted.
    func jsonLine() -> String {
        let f = TraceNumberFormat.format
        let time = "\"t\":\(f(t)),\"type\":\"\(kind.typeName)\""
        switch kind {
        case .touchDown(let p), .touchMove(let p), .touchUp(let p), .offset(let p), .tap(let p):
            return "{\(time),\"x\":\(f(p.x)),\"y\":\(f(p.y))}"
        case .wheel(let dx, let dy):
            return "{\"dx\":\(f(dx)),\"dy\":\(f(dy)),\(time)}"
        case .resize(let size):
            return "{\"height\":\(f(size.height)),\(time),\"width\":\(f(size.width))}"
        case .insert(let count):
            return "{\"count\":\(count),\(time)}"
        case .end:
            return "{\(time)}"
        }
    }
}

/// The members of one JSON Lines object, consumed field by field so that leftovers (unknown
/// fields) can be reported.
struct TraceLineFields {
    private var members: [String: TraceJSONValue]
    private let file: String
    private let lineNumber: Int

    init(line: Substring, file: String, lineNumber: Int) throws(TraceError) {
        self.file = file
        self.lineNumber = lineNumber
        let value: TraceJSONValue
        do {
            value = try TraceJSONParser.parse(line)
        } catch {
            throw .malformed(file: file, line: lineNumber, field: "(line)",
                             reason: "not JSON at column \(error.column + 1): \(error.reason)")
        }
        guard case .object(let members) = value else {
            throw .malformed(file: file, line: lineNumber, field: "(line)", reason: "expected a JSON object, got \(value.typeDescription)")
        }
        self.members = members
    }

    private func fail(_ field: String, _ reason: String) -> TraceError {
        .malformed(file: file, line: lineNumber, field: field, reason: reason)
    }

    mutating func number(_ key: String, in object: String? = nil) throws(TraceError) -> Double {
        let name = object.map { "\($0).\(key)" } ?? key
        let found: TraceJSONValue?
        if let object {
            guard case .object(let inner)? = members[object] else {
                throw fail(object, members[object] == nil ? "missing" : "expected an object")
            }
            found = inner[key]
        } else {
            // Removed in place: a copy of the members to remove from cost a dictionary per field.
            found = members.removeValue(forKey: key)
        }
        switch found {
        case .number(let value)?:
            guard abs(value) < TraceNumberFormat.limit else { throw fail(name, "out of range: \(value)") }
            return value
        case .nonFinite(let text)?:
            throw fail(name, "not a finite number: \(text)")
        case let other?:
            throw fail(name, "expected a number, got \(other.typeDescription)")
        case nil:
            throw fail(name, "missing")
        }
    }

    mutating func integer(_ key: String) throws(TraceError) -> Int {
        let value = try number(key)
        guard value == value.rounded(), abs(value) <= 1e9 else { throw fail(key, "expected an integer, got \(value)") }
        return Int(value)
    }

    mutating func string(_ key: String) throws(TraceError) -> String {
        switch members.removeValue(forKey: key) {
        case .string(let value)?: return value
        case let other?: throw fail(key, "expected a string, got \(other.typeDescription)")
        case nil: throw fail(key, "missing")
        }
    }

    mutating func point() throws(TraceError) -> Point {
        Point(x: try number("x"), y: try number("y"))
    }

    /// Fails on the first field not consumed (sorted, so the message is stable).
    func finish() throws(TraceError) {
        if let extra = members.keys.sorted().first { throw fail(extra, "unknown field") }
    }

    mutating func header() throws(TraceError) -> TraceHeader {
        guard try string("type") == "header" else { throw fail("type", "the first line must be the header (\"type\":\"header\")") }
        let version = try integer("version")
        guard version == TraceHeader.currentVersion else {
            throw fail("version", "unsupported version \(version) (this build reads \(TraceHeader.currentVersion))")
        }
        let viewport = Size(width: try number("width", in: "viewport"), height: try number("height", in: "viewport"))
        if case .object(let inner)? = members["viewport"], let extra = inner.keys.sorted().first(where: { $0 != "width" && $0 != "height" }) {
            throw fail("viewport.\(extra)", "unknown field")
        }
        members.removeValue(forKey: "viewport")
        let header = TraceHeader(
            version: version, viewport: viewport, screenScale: try number("screen_scale"),
            refreshRate: try number("refresh_rate"), source: try string("source"))
        try finish()
        if let violation = header.violation() { throw fail(violation.field, violation.reason) }
        return header
    }

    mutating func event() throws(TraceError) -> TraceEvent {
        // The type first: a second header line has no `t`, and is named as what it is.
        let type = try string("type")
        if type == "header" { throw fail("type", "a second header (the header is the first line only)") }
        let t = try number("t")
        let kind: TraceEvent.Kind
        switch type {
        case "down": kind = .touchDown(try point())
        case "move": kind = .touchMove(try point())
        case "up": kind = .touchUp(try point())
        case "offset": kind = .offset(try point())
        case "tap": kind = .tap(try point())
        case "wheel": kind = .wheel(dx: try number("dx"), dy: try number("dy"))
        case "resize": kind = .resize(Size(width: try number("width"), height: try number("height")))
        case "insert": kind = .insert(count: try integer("count"))
        case "end": kind = .end
        default: throw fail("type", "unknown event type '\(type)'")
        }
        try finish()
        return TraceEvent(t: t, kind)
    }

    /// `text` as a JSON string literal (``FeedModel/JSONString/literal(_:)``).
    static func quoted(_ text: String) -> String { JSONString.literal(text) }
}
