/// A parsed `evemu-record` capture (format "EVEMU 1.3" and the header-less older form): the
/// device's axis ranges and properties, and the kernel events grouped into frames at `SYN_REPORT`.
///
/// The layout of the text is evemu's (github.com/freedesktop/evemu, `evemu.c`): `N:` name,
/// `P:` property bitmap bytes, `A: <code> <min> <max> <fuzz> <flat> <res>` with the code in hex,
/// `E: <sec>.<usec> <type> <code> <value>` with type and code in hex and the value in decimal
/// (zero-padded in newer captures: `0547`, `-001`); `#` starts a comment. Codes are from the
/// kernel's `input-event-codes.h` and the multi-touch protocol B (`Documentation/input/multi-touch-protocol.rst`).
public struct EvemuRecording: Sendable {
    /// An absolute axis range in device units, both ends inclusive. The kernel keeps axis values
    /// in 32 bits (`struct input_absinfo`, `__s32`), so readers accept ends within ``limits``.
    public struct AxisRange: Equatable, Sendable {
        /// The values an axis end (and an event value) may take: the kernel's `__s32`.
        public static let limits = Int(Int32.min)...Int(Int32.max)

        public var minimum: Int
        public var maximum: Int
        public init(minimum: Int, maximum: Int) {
            self.minimum = minimum
            self.maximum = maximum
        }
    }

    /// One finger in a frame: its slot and position in device units.
    public struct Contact: Equatable, Sendable {
        public var slot: Int
        public var x: Int
        public var y: Int
    }

    /// The device state at one `SYN_REPORT`.
    public struct Frame: Equatable, Sendable {
        /// Microseconds since the first event of the recording.
        public var microseconds: Int64
        /// Fingers down, ordered by slot.
        public var contacts: [Contact]
    }

    /// The `N:` device name, if the header has one.
    public var name: String?
    /// Axis ranges from the `A:` lines, keyed by event code (`0x35` ABS_MT_POSITION_X, ...).
    public var axes: [Int: AxisRange]
    /// Whether the `P:` bitmap sets `INPUT_PROP_DIRECT` (a touchscreen); `nil` without a `P:` line.
    public var isDirect: Bool?
    /// Whether any event is a touchpad tool key (`BTN_TOOL_FINGER`, `BTN_TOOL_DOUBLETAP`, ...).
    public var hasTouchpadToolKeys: Bool
    /// One frame per `SYN_REPORT` line, in file order.
    public var frames: [Frame]
    /// The 1-based line of each frame's `SYN_REPORT`, parallel to ``frames``.
    public var frameLines: [Int]

    /// Event codes used here (kernel `input-event-codes.h`).
    enum Code {
        static let evSyn = 0x00, evKey = 0x01, evAbs = 0x03
        static let synReport = 0x00, synMTReport = 0x02
        static let absX = 0x00, absY = 0x01
        static let mtSlot = 0x2f, mtPositionX = 0x35, mtPositionY = 0x36, mtTrackingID = 0x39
        static let btnTouch = 0x14a
        /// BTN_TOOL_FINGER, _QUINTTAP, _DOUBLETAP, _TRIPLETAP, _QUADTAP.
        static let touchpadTools: Set<Int> = [0x145, 0x148, 0x14d, 0x14e, 0x14f]
    }

    /// Parses an evemu capture.
    /// - Parameters:
    ///   - text: the file's contents.
    ///   - file: the name used in errors.
    /// - Throws: ``TraceError/malformed(file:line:field:reason:)`` naming the line and the field
    ///   (`time`, `type`, `code`, `value`, `min`, `max`, `prefix`); ``TraceError/unusable(file:reason:)``
    ///   when there is no `E:` line or the recording uses multi-touch protocol A.
    /// - Complexity: O(n) in the length of `text`.
    public init(parsing text: String, file: String) throws(TraceError) {
        var axes: [Int: AxisRange] = [:]
        var name: String?
        var isDirect: Bool?
        var raw: [(line: Int, micros: Int64, type: Int, code: Int, value: Int)] = []
        var lineNumber = 0
        var firstMicros: Int64?
        for rawLine in TraceInput.lines(text) {
            lineNumber += 1
            let line = rawLine.prefix { $0 != "#" }
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let prefix = words.first else { continue }
            func fail(_ field: String, _ reason: String) -> TraceError {
                .malformed(file: file, line: lineNumber, field: field, reason: reason)
            }
            switch prefix {
            case "N:":
                name = words.dropFirst().joined(separator: " ")
            case "P:":
                guard words.count >= 2, let first = UInt8(words[1], radix: 16) else { throw fail("properties", "expected hex bytes") }
                isDirect = first & 0x02 != 0
            case "A:":
                guard words.count >= 4 else { throw fail("A", "expected 'A: <code> <min> <max> ...'") }
                guard let code = Int(words[1], radix: 16) else { throw fail("code", "not a hex code: '\(words[1])'") }
                guard let minimum = Int(words[2]), AxisRange.limits.contains(minimum) else {
                    throw fail("min", "not a 32-bit integer: '\(words[2])'")
                }
                guard let maximum = Int(words[3]), AxisRange.limits.contains(maximum) else {
                    throw fail("max", "not a 32-bit integer: '\(words[3])'")
                }
                guard maximum > minimum else { throw fail("max", "range \(minimum)...\(maximum) is empty") }
                // evemu-record writes each axis once; a second range would silently replace the first.
                guard axes[code] == nil else { throw fail("code", "axis \(words[1]) is described twice") }
                axes[code] = AxisRange(minimum: minimum, maximum: maximum)
            case "E:":
                guard words.count == 5 else { throw fail("E", "expected 'E: <sec>.<usec> <type> <code> <value>'") }
                guard let micros = Self.microseconds(words[1]) else { throw fail("time", "not a time in seconds: '\(words[1])'") }
                guard let type = Int(words[2], radix: 16) else { throw fail("type", "not a hex type: '\(words[2])'") }
                guard let code = Int(words[3], radix: 16) else { throw fail("code", "not a hex code: '\(words[3])'") }
                guard let value = Int(words[4]), AxisRange.limits.contains(value) else {
                    throw fail("value", "not a 32-bit integer: '\(words[4])'")
                }
                if let last = raw.last, micros < last.micros {
                    throw fail("time", "time goes backwards (\(words[1]) s)")
                }
                let origin = firstMicros ?? micros
                firstMicros = origin
                guard micros - origin <= Int64(Trace.maximumDurationMilliseconds) * 1000 else {
                    throw fail("time", "\(words[1]) s is more than 24 h after the first event (the maximum trace duration)")
                }
                if type == Code.evSyn, code == Code.synMTReport {
                    throw fail("code", "multi-touch protocol A (SYN_MT_REPORT) is not supported")
                }
                raw.append((lineNumber, micros, type, code, value))
            case "I:", "B:", "L:", "S:":
                continue
            default:
                throw fail("prefix", "unknown line type '\(prefix)'")
            }
        }
        guard let first = raw.first else { throw .unusable(file: file, reason: "no events (E: lines)") }

        let multiTouch = raw.contains { $0.type == Code.evAbs && (0x2f...0x3d).contains($0.code) }
        var slot = 0
        var slots: [Int: (id: Int, x: Int, y: Int)] = [:]
        var touch = (down: false, x: 0, y: 0)
        var frames: [Frame] = []
        var frameLines: [Int] = []
        var toolKeys = false
        for event in raw {
            switch (event.type, event.code) {
            case (Code.evSyn, Code.synReport):
                let contacts: [Contact] = multiTouch
                    ? slots.filter { $0.value.id >= 0 }.map { Contact(slot: $0.key, x: $0.value.x, y: $0.value.y) }
                        .sorted { $0.slot < $1.slot }
                    : (touch.down ? [Contact(slot: 0, x: touch.x, y: touch.y)] : [])
                frames.append(Frame(microseconds: event.micros - first.micros, contacts: contacts))
                frameLines.append(event.line)
            case (Code.evAbs, Code.mtSlot): slot = event.value
            case (Code.evAbs, Code.mtTrackingID): slots[slot, default: (-1, 0, 0)].id = event.value
            case (Code.evAbs, Code.mtPositionX): slots[slot, default: (-1, 0, 0)].x = event.value
            case (Code.evAbs, Code.mtPositionY): slots[slot, default: (-1, 0, 0)].y = event.value
            case (Code.evAbs, Code.absX): touch.x = event.value
            case (Code.evAbs, Code.absY): touch.y = event.value
            case (Code.evKey, Code.btnTouch): touch.down = event.value != 0
            case (Code.evKey, let code) where Code.touchpadTools.contains(code): toolKeys = true
            default: continue
            }
        }
        self.name = name
        self.axes = axes
        self.isDirect = isDirect
        self.hasTouchpadToolKeys = toolKeys
        self.frames = frames
        self.frameLines = frameLines
    }

    /// `"1358916661.266155"` → microseconds, exactly (a `Double` would round at this magnitude).
    static func microseconds(_ text: Substring) -> Int64? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, let seconds = Int64(parts[0]), seconds >= 0, seconds < 1 << 40 else { return nil }
        var micros: Int64 = 0
        if parts.count == 2 {
            let fraction = parts[1]
            guard (1...6).contains(fraction.count), fraction.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int64(fraction) else { return nil }
            micros = value
            for _ in fraction.count..<6 { micros *= 10 }
        }
        return seconds * 1_000_000 + micros
    }
}
