import FeedLayout

/// Turns an ``EvemuRecording`` into a ``Trace``.
///
/// Touchscreens (direct devices) become touch events: the device's axis ranges are mapped
/// linearly onto the viewport, `pt = (raw − min) / (max − min + 1) × viewport side`, so with the
/// default viewport (the axis extents, `max − min + 1` units per side) one device unit is one point.
/// Several fingers are reduced to one virtual finger at their mean; when a finger lands or lifts
/// mid-gesture the mean would jump, so the virtual finger keeps its position and follows the
/// mean's motion from there (as `UIPanGestureRecognizer`'s translation does). The first frame
/// with a contact gives `down`, every later frame with a contact a `move`, the first frame
/// without one an `up` at the last position. A recording that ends with a finger down ends
/// with an `up` at the last frame.
///
/// Touchpads (indirect devices) become `wheel` events: in frames with two or more contacts and
/// the same set of fingers as the frame before, the change of the fingers' mean is scaled by
/// `viewport side / (max − min + 1)` (the pad's full height = one viewport height) and emitted
/// with natural direction by default: the content follows the fingers, so fingers moving down
/// the pad (y growing toward the user) give a negative `dy`. One-finger motion is pointer motion
/// and is dropped. `SYN_DROPPED` and non-position axes are ignored.
public struct EvemuImporter: Sendable {
    /// How the device is read.
    public enum Device: String, Sendable, CaseIterable {
        /// `INPUT_PROP_DIRECT` from the `P:` line when present; otherwise a touchpad when the
        /// recording uses touchpad tool keys (`BTN_TOOL_DOUBLETAP` ...), else a touchscreen.
        case auto
        case touchscreen
        case touchpad
    }

    public var device: Device
    /// The viewport in points; `nil` = the axis extents in device units.
    public var viewport: Size?
    /// Overrides (or supplies, for header-less recordings) the x and y axis ranges in device units.
    public var axisX: EvemuRecording.AxisRange?
    public var axisY: EvemuRecording.AxisRange?
    /// Touchpads only: `true` (default) for natural scrolling (content follows the fingers),
    /// `false` for traditional scrolling (the sign flips).
    public var naturalScrolling: Bool
    /// Header values the recording does not hold.
    public var screenScale: Double
    public var refreshRate: Double

    public init(
        device: Device = .auto, viewport: Size? = nil, axisX: EvemuRecording.AxisRange? = nil,
        axisY: EvemuRecording.AxisRange? = nil, naturalScrolling: Bool = true, screenScale: Double = 1,
        refreshRate: Double = 60
    ) {
        self.device = device
        self.viewport = viewport
        self.axisX = axisX
        self.axisY = axisY
        self.naturalScrolling = naturalScrolling
        self.screenScale = screenScale
        self.refreshRate = refreshRate
    }

    /// Parses and converts an evemu capture.
    /// - Parameters:
    ///   - text: the file's contents; `file`: its name, for errors and the header's `source` (`evemu:<name>`).
    /// - Throws: the parse errors of ``EvemuRecording/init(parsing:file:)``;
    ///   ``TraceError/unusable(file:reason:)`` when an axis range is missing (header-less
    ///   recordings need ``axisX``/``axisY``) or no frame has a contact.
    /// - Complexity: O(n) in the length of `text`.
    public func importTrace(from text: String, file: String) throws(TraceError) -> Trace {
        let recording = try EvemuRecording(parsing: text, file: file)
        return try convert(recording, file: file)
    }

    /// Converts a parsed recording; see the type's discussion for the mapping.
    public func convert(_ recording: EvemuRecording, file: String) throws(TraceError) -> Trace {
        typealias Code = EvemuRecording.Code
        guard let rangeX = axisX ?? recording.axes[Code.mtPositionX] ?? recording.axes[Code.absX],
            let rangeY = axisY ?? recording.axes[Code.mtPositionY] ?? recording.axes[Code.absY]
        else {
            throw .unusable(file: file, reason: "no x/y axis ranges (A: lines); give them (--axis-x MIN:MAX --axis-y MIN:MAX)")
        }
        for (name, range) in [("x", rangeX), ("y", rangeY)]
        where !(EvemuRecording.AxisRange.limits.contains(range.minimum) && EvemuRecording.AxisRange.limits.contains(range.maximum)
            && range.minimum < range.maximum)
        {
            throw .unusable(file: file, reason: "\(name) axis range \(range.minimum):\(range.maximum) is not MIN < MAX within 32-bit integers")
        }
        // Within 32 bits, so the extents (at most 2^32) cannot overflow.
        let extentX = Double(rangeX.maximum - rangeX.minimum + 1)
        let extentY = Double(rangeY.maximum - rangeY.minimum + 1)
        let viewport = viewport ?? Size(width: extentX, height: extentY)
        let scaleX = viewport.width / extentX
        let scaleY = viewport.height / extentY
        let isTouchpad: Bool
        switch device {
        case .touchscreen: isTouchpad = false
        case .touchpad: isTouchpad = true
        case .auto: isTouchpad = recording.isDirect.map { !$0 } ?? recording.hasTouchpadToolKeys
        }
        guard recording.frames.contains(where: { !$0.contacts.isEmpty }) else {
            throw .unusable(file: file, reason: "no frame has a finger down")
        }
        let name = file.split(separator: "/").last.map(String.init) ?? file
        let header = TraceHeader(viewport: viewport, screenScale: screenScale, refreshRate: refreshRate, source: "evemu:\(name)")
        /// The mean of the contacts in device units.
        func mean(_ contacts: [EvemuRecording.Contact]) -> (x: Double, y: Double) {
            let n = Double(contacts.count)
            return (contacts.reduce(0) { $0 + Double($1.x) } / n, contacts.reduce(0) { $0 + Double($1.y) } / n)
        }
        func ms(_ frame: EvemuRecording.Frame) -> Double { Double(frame.microseconds) / 1000 }

        var builder = TraceBuilder(file: file, fieldNames: ["t": "time", "x": "value", "y": "value", "dx": "value", "dy": "value"])
        let lines = recording.frameLines.count == recording.frames.count ? recording.frameLines : recording.frames.map { _ in 1 }
        var previous: [EvemuRecording.Contact] = []
        if isTouchpad {
            let sign = naturalScrolling ? -1.0 : 1.0
            for (frame, line) in zip(recording.frames, lines) {
                defer { previous = frame.contacts }
                guard frame.contacts.count >= 2, frame.contacts.map(\.slot) == previous.map(\.slot) else { continue }
                let now = mean(frame.contacts), before = mean(previous)
                let dx = sign * (now.x - before.x) * scaleX, dy = sign * (now.y - before.y) * scaleY
                if dx != 0 || dy != 0 { builder.append(TraceEvent(t: ms(frame), .wheel(dx: dx, dy: dy)), from: .line(line)) }
            }
        } else {
            // The virtual finger = mean + shift; the shift changes only when the set of fingers does.
            var shift = (x: 0.0, y: 0.0)
            var finger = Point.zero
            for (frame, line) in zip(recording.frames, lines) {
                defer { previous = frame.contacts }
                guard !frame.contacts.isEmpty else {
                    if !previous.isEmpty { builder.append(TraceEvent(t: ms(frame), .touchUp(finger)), from: .line(line)) }
                    continue
                }
                let m = mean(frame.contacts)
                if previous.isEmpty {
                    shift = (0, 0)
                } else if frame.contacts.map(\.slot) != previous.map(\.slot) {
                    let old = mean(previous)
                    shift = (shift.x + old.x - m.x, shift.y + old.y - m.y)
                }
                finger = Point(x: (m.x + shift.x - Double(rangeX.minimum)) * scaleX,
                               y: (m.y + shift.y - Double(rangeY.minimum)) * scaleY)
                builder.append(
                    TraceEvent(t: ms(frame), previous.isEmpty ? .touchDown(finger) : .touchMove(finger)), from: .line(line))
            }
            if !previous.isEmpty, let last = recording.frames.last {
                builder.append(TraceEvent(t: ms(last), .touchUp(finger)), from: .line(lines.last ?? 1))
            }
        }
        builder.append(TraceEvent(t: recording.frames.last.map(ms) ?? 0, .end), from: .line(lines.last ?? 1))
        return try builder.trace(header: header, headerOrigin: .line(1))
    }
}
