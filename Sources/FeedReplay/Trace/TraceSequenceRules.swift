import FeedLayout

/// The rules an event sequence must follow, checked one event at a time by the reader and by
/// ``Trace/validate(file:)`` for traces built in memory:
/// - `t` is finite, ≥ 0, at most ``Trace/maximumDurationMilliseconds`` (24 h) and never smaller
///   than the previous event's `t`;
/// - touches alternate: `down`, then any `move`s, then `up`; no `move`/`up` without a `down`,
///   no second `down` before the `up` (one finger is modelled; multi-touch is reduced by the importers);
/// - coordinates and deltas are finite; `resize` sizes are > 0; `insert` counts are in 1...100,000;
/// - nothing follows `end`.
struct TraceSequenceRules {
    private var lastT = 0.0
    private var touching = false
    private var ended = false

    /// A rule violation: the JSON field at fault and why.
    struct Violation: Error, Equatable {
        var field: String
        var reason: String
    }

    /// Checks `event` against the events accepted so far and records it.
    mutating func accept(_ event: TraceEvent) throws(Violation) {
        guard !ended else { throw Violation(field: "type", reason: "event after 'end'") }
        guard event.t.isFinite, abs(event.t) < TraceNumberFormat.limit else {
            throw Violation(field: "t", reason: "not a finite time in range")
        }
        guard event.t >= 0 else { throw Violation(field: "t", reason: "negative time \(event.t) ms") }
        guard event.t <= Trace.maximumDurationMilliseconds else {
            throw Violation(
                field: "t",
                reason: "\(TraceNumberFormat.describe(event.t)) ms is past the maximum trace duration of 24 h (86400000 ms)")
        }
        guard event.t >= lastT else {
            throw Violation(field: "t", reason: "time goes backwards (\(event.t) ms after \(lastT) ms)")
        }
        switch event.kind {
        case .touchDown(let point):
            try Self.check(point)
            guard !touching else { throw Violation(field: "type", reason: "'down' while a touch is already down") }
            touching = true
        case .touchMove(let point):
            try Self.check(point)
            guard touching else { throw Violation(field: "type", reason: "'move' without a preceding 'down'") }
        case .touchUp(let point):
            try Self.check(point)
            guard touching else { throw Violation(field: "type", reason: "'up' without a preceding 'down'") }
            touching = false
        case .offset(let point), .tap(let point):
            try Self.check(point)
        case .wheel(let dx, let dy):
            try Self.check(dx, field: "dx")
            try Self.check(dy, field: "dy")
        case .resize(let size):
            try Self.check(size.width, field: "width")
            try Self.check(size.height, field: "height")
            guard size.width > 0 else { throw Violation(field: "width", reason: "must be > 0") }
            guard size.height > 0 else { throw Violation(field: "height", reason: "must be > 0") }
        case .insert(let count):
            guard count >= 1, count <= TraceEvent.maxInsertCount else {
                throw Violation(field: "count", reason: "must be in 1...\(TraceEvent.maxInsertCount), got \(count)")
            }
        case .end:
            ended = true
        }
        lastT = event.t
    }

    private static func check(_ point: Point) throws(Violation) {
        try check(point.x, field: "x")
        try check(point.y, field: "y")
    }

    private static func check(_ value: Double, field: String) throws(Violation) {
        guard value.isFinite, abs(value) < TraceNumberFormat.limit else {
            throw Violation(field: field, reason: "not a finite number in range")
        }
    }
}

extension Trace {
    /// Checks the header and the event rules (see `docs/trace-format.md`); importers and the
    /// synthesizer call this before returning, so a trace that fails is never handed out.
    /// - Throws: ``TraceError/malformed(file:line:field:reason:)`` with the 1-based line the event
    ///   would have in the JSON Lines file (header = line 1).
    /// - Complexity: O(n) in the number of events.
    public func validate(file: String) throws(TraceError) {
        try validate(file: file) { index, violation in
            .malformed(file: file, line: index.map { $0 + 2 } ?? 1, field: violation.field, reason: violation.reason)
        }
    }

    /// Checks like ``validate(file:)``, with errors placed by `locate`: it gets the index of the
    /// offending event (`nil` for the header) and the violation, and returns the error to throw
    /// (importers name the position in their own input file).
    func validate(
        file: String, locate: (Int?, TraceSequenceRules.Violation) -> TraceError
    ) throws(TraceError) {
        if let violation = header.violation() { throw locate(nil, violation) }
        var rules = TraceSequenceRules()
        for (index, event) in events.enumerated() {
            do {
                try rules.accept(event)
            } catch {
                throw locate(index, error)
            }
        }
    }
}

extension TraceHeader {
    /// The first header rule broken, or `nil`.
    func violation() -> TraceSequenceRules.Violation? {
        if version != TraceHeader.currentVersion {
            return .init(field: "version", reason: "unsupported version \(version) (this build reads \(TraceHeader.currentVersion))")
        }
        for (field, value) in [("viewport.width", viewport.width), ("viewport.height", viewport.height),
                               ("screen_scale", screenScale), ("refresh_rate", refreshRate)] {
            guard value.isFinite, value > 0, value < TraceNumberFormat.limit else {
                return .init(field: field, reason: "must be a finite number > 0, got \(value)")
            }
        }
        // Displays refresh at 24–240 Hz; a frame-by-frame replay needs a sane frame period.
        guard (1...1000).contains(refreshRate) else {
            return .init(field: "refresh_rate", reason: "must be in 1...1000 Hz, got \(refreshRate)")
        }
        return nil
    }
}
