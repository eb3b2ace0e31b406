import FeedModel
import FeedLayout

/// Turns a CSV of touch samples into a ``Trace``: the recordings of Android's and Flutter's
/// velocity-tracker tests (`aosp-velocitytracker-flings.csv`, `flutter-velocity-tracker-drags.csv`)
/// or any file with the same columns.
///
/// Columns, found by name in the header row (others are ignored; a field may be quoted, RFC 4180):
/// - `t_ms` (required): time in milliseconds, any origin;
/// - `action` (required): `DOWN`, `MOVE`, `UP` (touch) or `SCROLL` (a rotary-encoder step), any case;
/// - `x`/`y` or `x_px`/`y_px`: position in pixels (required for touch rows);
/// - `gesture_index` or `gesture_id` (optional): which gesture a row belongs to;
/// - `axis_scroll` (required for `SCROLL` rows): Android's `AXIS_SCROLL` value.
///
/// Positions become points by dividing by ``pixelsPerPoint`` (1 for the Flutter file, whose
/// values are already logical pixels; 2.625 for the AOSP *sailfish* rows, 1080 px / 411.4 dp).
/// `SCROLL` rows become `wheel` events with `dy = −axis_scroll × rotaryPointsPerStep`, as
/// `RecyclerView` scrolls by `−AXIS_SCROLL × ViewConfiguration.getScaledVerticalScrollFactor()`
/// (64 dp by default in AOSP's `config_verticalScrollFactor`).
///
/// Placement in time: a gesture is a `DOWN`…`UP` run (or a run of `SCROLL` rows with one
/// gesture id). With ``pause`` `nil` and times that never go backwards across the whole file
/// (one continuous session, like the Flutter file) the real rhythm is kept: `t = t_ms − first t_ms`.
/// Otherwise (each gesture on its own clock, like the AOSP file) or when ``pause`` is given,
/// gestures are placed one after another: each starts `pause` ms (default 500) after the
/// previous one's last sample, keeping its own sample spacing.
public struct TouchCSVImporter: Sendable {
    public var pixelsPerPoint: Double
    /// Milliseconds between one gesture's last sample and the next one's first; `nil` = automatic (see above).
    public var pause: Double?
    public var rotaryPointsPerStep: Double
    public var viewport: Size
    public var screenScale: Double
    public var refreshRate: Double

    /// The pause used when gestures have their own clocks and no ``pause`` is given, in ms.
    public static let defaultPause = 500.0

    /// - Parameter viewport: defaults to 411.43 × 731.43 pt, the logical size of both recording
    ///   phones (1440 × 2560 px at 3.5 and 1080 × 1920 px at 2.625).
    public init(
        pixelsPerPoint: Double = 1, pause: Double? = nil, rotaryPointsPerStep: Double = 64,
        viewport: Size = Size(width: 411.429, height: 731.429), screenScale: Double? = nil, refreshRate: Double = 60
    ) {
        self.pixelsPerPoint = pixelsPerPoint
        self.pause = pause
        self.rotaryPointsPerStep = rotaryPointsPerStep
        self.viewport = viewport
        self.screenScale = screenScale ?? pixelsPerPoint
        self.refreshRate = refreshRate
    }

    private enum Action { case down, move, up, scroll }
    private struct Row {
        var line: Int
        var time: Double
        var action: Action
        var x: Double
        var y: Double
        var scroll: Double
        var gesture: String?
    }

    /// Parses and converts a touch CSV (LF or CR LF line ends; a leading byte-order mark is skipped).
    /// - Throws: ``TraceError/malformed(file:line:field:reason:)`` naming the 1-based line and the
    ///   column (a missing column is reported on line 1): a quote left open, unknown action, a
    ///   number that is not one or of magnitude 10^12 or more, `MOVE`/`UP` outside a touch, time going backwards inside a gesture, a column named
    ///   twice, a row more than 24 h into the trace;
    ///   ``TraceError/unusable(file:reason:)`` when there are no rows.
    /// - Complexity: O(n) in the length of `text`.
    public func importTrace(from text: String, file: String) throws(TraceError) -> Trace {
        let rows = try parse(text, file: file)
        guard !rows.isEmpty else { throw .unusable(file: file, reason: "no data rows") }

        // Split into gestures: a DOWN starts one; SCROLL rows group by gesture id.
        var gestures: [[Row]] = []
        var touching = false
        for row in rows {
            func fail(_ field: String, _ reason: String) -> TraceError {
                .malformed(file: file, line: row.line, field: field, reason: reason)
            }
            switch row.action {
            case .down:
                guard !touching else { throw fail("action", "DOWN while a touch is already down") }
                touching = true
                gestures.append([row])
            case .move, .up:
                guard touching else { throw fail("action", "\(row.action == .move ? "MOVE" : "UP") without a preceding DOWN") }
                if let id = row.gesture, let start = gestures[gestures.count - 1].first?.gesture, id != start {
                    throw fail("gesture", "gesture '\(id)' starts without a DOWN (gesture '\(start)' is still down)")
                }
                gestures[gestures.count - 1].append(row)
                touching = row.action != .up
            case .scroll:
                guard !touching else { throw fail("action", "SCROLL while a touch is down") }
                if let last = gestures.last?.last, last.action == .scroll, last.gesture == row.gesture {
                    gestures[gestures.count - 1].append(row)
                } else {
                    gestures.append([row])
                }
            }
        }
        for gesture in gestures {
            for (previous, row) in zip(gesture, gesture.dropFirst()) where row.time < previous.time {
                throw .malformed(file: file, line: row.line, field: "t_ms", reason: "time goes backwards inside a gesture (\(row.time) < \(previous.time))")
            }
        }
        let continuous = zip(rows, rows.dropFirst()).allSatisfy { $0.time <= $1.time }
        let keepClock = pause == nil && continuous

        var builder = TraceBuilder(file: file, fieldNames: ["t": "t_ms", "dy": "axis_scroll"])
        var nextStart = 0.0
        for gesture in gestures {
            let base: Double = keepClock ? rows[0].time : gesture[0].time - nextStart
            for row in gesture {
                let t = row.time - base
                guard t <= Trace.maximumDurationMilliseconds else {
                    throw .malformed(
                        file: file, line: row.line, field: "t_ms",
                        reason: "the row falls \(TraceNumberFormat.describe(t)) ms into the trace, past the maximum trace duration of 24 h (86400000 ms)")
                }
                let point = Point(x: row.x / pixelsPerPoint, y: row.y / pixelsPerPoint)
                let event: TraceEvent.Kind
                switch row.action {
                case .down: event = .touchDown(point)
                case .move: event = .touchMove(point)
                case .up: event = .touchUp(point)
                case .scroll: event = .wheel(dx: 0, dy: -row.scroll * rotaryPointsPerStep)
                }
                builder.append(TraceEvent(t: t, event), from: .line(row.line))
            }
            nextStart = (builder.last?.t ?? 0) + (pause ?? Self.defaultPause)
        }
        let lastOrigin = builder.lastOrigin ?? .line(1)
        if touching, let last = builder.last {
            // The file ends with a finger down (its last row a DOWN or a MOVE): lift it where it is.
            switch last.kind {
            case .touchDown(let point), .touchMove(let point):
                builder.append(TraceEvent(t: last.t, .touchUp(point)), from: lastOrigin)
            default:
                break
            }
        }
        builder.append(TraceEvent(t: builder.last?.t ?? 0, .end), from: lastOrigin)
        let name = file.split(separator: "/").last.map(String.init) ?? file
        return try builder.trace(
            header: TraceHeader(viewport: viewport, screenScale: screenScale, refreshRate: refreshRate, source: "touch-csv:\(name)"),
            headerOrigin: .line(1))
    }

    private func parse(_ text: String, file: String) throws(TraceError) -> [Row] {
        // RFC 4180 records (a quoted field may hold a comma), as `feedsim import` reads a CSV.
        var records: [CSVReader.Record]
        do {
            records = try CSVReader.records(text)
        } catch {
            throw .malformed(file: file, line: error.line, field: "(row)", reason: error.reason)
        }
        // A line of spaces alone is skipped, as before quoting was read (a comma makes it a row).
        func isBlank(_ record: CSVReader.Record) -> Bool {
            record.fields.count == 1 && record.fields[0].allSatisfy { $0.isWhitespace }
        }
        while let last = records.last, last.fields == [""] { records.removeLast() }
        guard let header = records.first else { throw .unusable(file: file, reason: "empty file") }
        let names = header.fields.map { Substring($0).trimmingCharacters() }
        var seen = Set<String>()
        for name in names where !name.isEmpty && !seen.insert(name).inserted {
            throw .malformed(file: file, line: 1, field: name, reason: "column appears twice in the header")
        }
        // Two spellings of one column (`x` and `x_px`): which one is meant? The first was read, silently.
        for spellings in [["x", "x_px"], ["y", "y_px"], ["gesture_index", "gesture_id"]]
        where spellings.allSatisfy(names.contains) {
            throw .malformed(
                file: file, line: 1, field: spellings[1],
                reason: "'\(spellings[0])' and '\(spellings[1])' name one column: give one of them")
        }
        func column(_ candidates: String...) -> Int? {
            candidates.lazy.compactMap { names.firstIndex(of: $0) }.first
        }
        func requiredColumn(_ candidates: String...) throws(TraceError) -> Int {
            guard let index = candidates.lazy.compactMap({ names.firstIndex(of: $0) }).first else {
                throw .malformed(file: file, line: 1, field: candidates[0], reason: "missing column (header has: \(names.joined(separator: ", ")))")
            }
            return index
        }
        let timeColumn = try requiredColumn("t_ms")
        let actionColumn = try requiredColumn("action")
        let xColumn = column("x", "x_px"), yColumn = column("y", "y_px")
        let gestureColumn = column("gesture_index", "gesture_id")
        let scrollColumn = column("axis_scroll")

        var rows: [Row] = []
        for record in records.dropFirst() {
            let lineNumber = record.line
            if isBlank(record) { continue }
            let fields = record.fields.map { Substring($0).trimmingCharacters() }
            func fail(_ field: String, _ reason: String) -> TraceError {
                .malformed(file: file, line: lineNumber, field: field, reason: reason)
            }
            guard fields.count == names.count else { throw fail("(row)", "\(fields.count) fields, the header has \(names.count)") }
            func number(_ index: Int?, _ name: String) throws(TraceError) -> Double {
                guard let index else { throw fail(name, "missing column") }
                guard let value = Double(fields[index]), value.isFinite, abs(value) < 1e12 else {
                    throw fail(names[index], "expected a number of magnitude below 10^12, got '\(fields[index])'")
                }
                return value
            }
            let action: Action
            switch fields[actionColumn].uppercased() {
            case "DOWN": action = .down
            case "MOVE": action = .move
            case "UP": action = .up
            case "SCROLL": action = .scroll
            default: throw fail(names[actionColumn], "unknown action '\(fields[actionColumn])' (DOWN, MOVE, UP or SCROLL)")
            }
            let isTouch = action != .scroll
            rows.append(Row(
                line: lineNumber, time: try number(timeColumn, "t_ms"), action: action,
                x: isTouch ? try number(xColumn, "x") : 0, y: isTouch ? try number(yColumn, "y") : 0,
                scroll: isTouch ? 0 : try number(scrollColumn, "axis_scroll"),
                gesture: gestureColumn.map { fields[$0] }))
        }
        return rows
    }
}

extension Substring {
    fileprivate func trimmingCharacters() -> String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
