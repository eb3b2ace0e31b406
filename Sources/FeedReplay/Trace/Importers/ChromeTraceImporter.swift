import FeedLayout
import Foundation

/// Turns a Chrome Trace Event Format file (the JSON that `chrome://tracing` and Perfetto save:
/// an object with `traceEvents`, or a bare array) into a ``Trace``.
///
/// - Wheel: every `InputHandlerProxy::handle_input wheel scroll` instant event becomes a `wheel`
///   event with its `args.deltaX`/`args.deltaY`. Chrome's compositor records the scroll delta
///   there (the negated `WebMouseWheelEvent` delta, hence the `-0.0`s), so a positive `deltaY`
///   scrolls toward the end of the page, the canonical sign. Deltas are taken as points (CSS px).
/// - Touch drags: the trace holds no touch coordinates and no touch scroll deltas, only the
///   timing of `GestureScrollBegin`/`GestureScrollUpdate` (the `InputLatency` async steps).
///   By default they are left out. With ``dragSpeed`` set, each update becomes a synthetic
///   `wheel` event whose `dy` is `dragSpeed × (time since the previous update or begin)`,
///   i.e. a drag toward the end of the feed at a constant, documented speed: real rhythm,
///   invented distance.
/// - `t` is `(ts − first emitted ts) / 1000`: `ts` is in microseconds; the trace starts at the
///   first emitted event. Events are taken in `ts` order (the file is not sorted).
/// - The viewport is not in the trace; ``viewport`` defaults to 412 × 732 pt (a 2015-era Android
///   phone in dp, as the trace's Chrome on Android), scale 2.625, 60 Hz.
public struct ChromeTraceImporter: Sendable {
    /// Points per second for the synthetic deltas of touch drags; `nil` drops touch drags.
    public var dragSpeed: Double?
    public var viewport: Size
    public var screenScale: Double
    public var refreshRate: Double

    public init(
        dragSpeed: Double? = nil, viewport: Size = Size(width: 412, height: 732), screenScale: Double = 2.625,
        refreshRate: Double = 60
    ) {
        self.dragSpeed = dragSpeed
        self.viewport = viewport
        self.screenScale = screenScale
        self.refreshRate = refreshRate
    }

    static let wheelName = "InputHandlerProxy::handle_input wheel scroll"

    /// Parses and converts a Chrome trace.
    /// - Throws: ``TraceError/syntax(file:line:column:reason:)`` when the data is not JSON;
    ///   ``TraceError/unusable(file:reason:)`` when it is not a trace, or
    ///   holds no usable input; ``TraceError/malformedEvent(file:index:field:reason:)`` naming the
    ///   0-based index in `traceEvents` and the field (`ts`, `args.deltaY`, ...) of a bad input event.
    /// - Complexity: O(n log n) in the number of trace events (sorting by `ts`).
    public func importTrace(from data: Data, file: String) throws(TraceError) -> Trace {
        let root = try TraceInput.json(data, file: file)
        let list: [Any]
        if let array = root as? [Any] {
            list = array
        } else if let object = root as? [String: Any], let array = object["traceEvents"] as? [Any] {
            list = array
        } else {
            throw .unusable(file: file, reason: "not a Chrome trace: expected an array or an object with 'traceEvents'")
        }

        enum Input { case wheel(dx: Double, dy: Double), scrollBegin, scrollUpdate }
        var inputs: [(ts: Double, index: Int, input: Input)] = []
        for (index, element) in list.enumerated() {
            guard let event = element as? [String: Any] else {
                throw .malformedEvent(file: file, index: index, field: "(event)", reason: "not an object")
            }
            let name = event["name"] as? String
            let step = (event["args"] as? [String: Any])?["step"] as? String
            let input: Input
            if name == Self.wheelName {
                input = .wheel(dx: try number(event, "deltaX", index, file), dy: try number(event, "deltaY", index, file))
            } else if dragSpeed != nil, name == "InputLatency", event["ph"] as? String == "T", step == "GestureScrollBegin" {
                input = .scrollBegin
            } else if dragSpeed != nil, name == "InputLatency", event["ph"] as? String == "T", step == "GestureScrollUpdate" {
                input = .scrollUpdate
            } else {
                continue
            }
            guard let ts = (event["ts"] as? NSNumber)?.doubleValue, ts.isFinite, ts >= 0 else {
                throw .malformedEvent(file: file, index: index, field: "ts", reason: "missing or not a finite number of microseconds ≥ 0")
            }
            inputs.append((ts, index, input))
        }
        inputs.sort { ($0.ts, $0.index) < ($1.ts, $1.index) }
        guard let origin = inputs.first?.ts else {
            throw .unusable(file: file, reason: dragSpeed == nil
                ? "no wheel scroll events ('\(Self.wheelName)'); touch drags need a drag speed"
                : "no wheel scroll or gesture scroll events")
        }
        var builder = TraceBuilder(file: file, fieldNames: ["t": "ts", "dx": "args.deltaX", "dy": "args.deltaY"])
        var lastGesture: Double?
        for item in inputs {
            let t = (item.ts - origin) / 1000
            guard t <= Trace.maximumDurationMilliseconds else {
                throw .malformedEvent(
                    file: file, index: item.index, field: "ts",
                    reason: "\(item.ts) µs is more than 24 h after the first input event (the maximum trace duration)")
            }
            switch item.input {
            case let .wheel(dx, dy):
                builder.append(TraceEvent(t: t, .wheel(dx: dx, dy: dy)), from: .event(item.index))
            case .scrollBegin:
                lastGesture = t
            case .scrollUpdate:
                let dy = (dragSpeed ?? 0) * (t - (lastGesture ?? t)) / 1000
                lastGesture = t
                if dy > 0 { builder.append(TraceEvent(t: t, .wheel(dx: 0, dy: dy)), from: .event(item.index)) }
            }
        }
        builder.append(TraceEvent(t: builder.last?.t ?? 0, .end), from: builder.lastOrigin ?? .event(inputs[0].index))
        let name = file.split(separator: "/").last.map(String.init) ?? file
        var source = "chrome:\(name)"
        if let dragSpeed { source += " drag-speed=\(TraceNumberFormat.describe(dragSpeed))pt/s" }
        return try builder.trace(
            header: TraceHeader(viewport: viewport, screenScale: screenScale, refreshRate: refreshRate, source: source),
            headerOrigin: .event(inputs[0].index))
    }

    private func number(_ event: [String: Any], _ key: String, _ index: Int, _ file: String) throws(TraceError) -> Double {
        guard let args = event["args"] as? [String: Any] else {
            throw .malformedEvent(file: file, index: index, field: "args", reason: "missing")
        }
        guard let value = (args[key] as? NSNumber)?.doubleValue, value.isFinite else {
            throw .malformedEvent(file: file, index: index, field: "args.\(key)", reason: "missing or not a finite number")
        }
        return value
    }
}
