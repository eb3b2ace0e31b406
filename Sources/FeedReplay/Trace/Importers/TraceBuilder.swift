import FeedLayout

/// Collects an importer's events with where each came from in the input file, so that a rule
/// broken by the converted trace (a time past 24 h, a coordinate out of range) is reported at the
/// input's own line or event index and under the input's own field name, not at a line of a
/// JSON Lines file the user never saw.
struct TraceBuilder {
    /// Where an event came from.
    enum Origin {
        /// 1-based line of a line-oriented file (EVEMU, CSV).
        case line(Int)
        /// 0-based index of an event in a JSON array (Chrome trace, rrweb).
        case event(Int)
    }

    let file: String
    /// The input's name for a trace field (`t` → `timestamp`, `x` → `data.x`); unknown names pass through.
    let fieldNames: [String: String]
    private(set) var events: [TraceEvent] = []
    private var origins: [Origin] = []

    init(file: String, fieldNames: [String: String]) {
        self.file = file
        self.fieldNames = fieldNames
    }

    var last: TraceEvent? { events.last }
    var lastOrigin: Origin? { origins.last }

    mutating func append(_ event: TraceEvent, from origin: Origin) {
        events.append(event)
        origins.append(origin)
    }

    mutating func append(from origin: Origin, _ event: TraceEvent) {
        append(event, from: origin)
    }

    /// The error for `field` at `origin`.
    func error(at origin: Origin, field: String, reason: String) -> TraceError {
        let name = fieldNames[field] ?? field
        switch origin {
        case .line(let line): return .malformed(file: file, line: line, field: name, reason: reason)
        case .event(let index): return .malformedEvent(file: file, index: index, field: name, reason: reason)
        }
    }

    /// The finished, validated trace.
    /// - Throws: the first broken rule, at the origin of its event (the header's problems at `headerOrigin`,
    ///   which are about importer options or the file's declared viewport).
    func trace(header: TraceHeader, headerOrigin: Origin) throws(TraceError) -> Trace {
        let trace = Trace(header: header, events: events)
        try trace.validate(file: file) { index, violation in
            error(at: index.map { origins[$0] } ?? headerOrigin, field: violation.field, reason: violation.reason)
        }
        return trace
    }
}
