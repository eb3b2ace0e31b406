import FeedLayout
import Foundation

/// Turns an rrweb session recording (a JSON array of `{type, data, timestamp}` events, as
/// `rrweb.record` emits them; types and sources from rrweb's `EventType` and `IncrementalSource`)
/// into a ``Trace``.
///
/// - Meta (`type` 4, `data.width`/`data.height`): the first gives the header's viewport, later
///   ones a `resize`; so does a viewport-resize incremental snapshot (`type` 3, `data.source` 4).
/// - Scroll (`type` 3, `data.source` 3, `{id, x, y}`): an `offset` event at `(x, y)` (CSS px = points)
///   when `id` is the scrolled node: ``scrollTarget``, else the document node of the first full
///   snapshot (`type` 2, `data.node.id`), else the `id` of the first scroll event. Scrolls of
///   other nodes (inner scrollers) are dropped.
/// - Click (`type` 3, `data.source` 2, `data.type` 2, `{x, y}` in viewport px): a `tap`.
/// - `t = timestamp − timestamp of the first event` (rrweb timestamps are Unix milliseconds).
public struct RRWebImporter: Sendable {
    /// The node id whose scrolls are the feed's; `nil` = automatic (see above).
    public var scrollTarget: Int?
    /// The viewport when the recording has no Meta event; `nil` makes a missing Meta an error.
    public var viewport: Size?
    public var screenScale: Double
    public var refreshRate: Double

    public init(scrollTarget: Int? = nil, viewport: Size? = nil, screenScale: Double = 1, refreshRate: Double = 60) {
        self.scrollTarget = scrollTarget
        self.viewport = viewport
        self.screenScale = screenScale
        self.refreshRate = refreshRate
    }

    /// Parses and converts an rrweb recording.
    /// - Throws: ``TraceError/unusable(file:reason:)`` for data that is not a JSON array or has no
    ///   viewport; ``TraceError/malformedEvent(file:index:field:reason:)`` naming the 0-based event
    ///   index and the field (`timestamp`, `data.x`, `data.width`, ...).
    /// - Complexity: O(n) in the number of events.
    public func importTrace(from data: Data, file: String) throws(TraceError) -> Trace {
        let root = try TraceInput.json(data, file: file)
        guard let list = root as? [Any] else { throw .unusable(file: file, reason: "not an rrweb recording: expected a JSON array of events") }

        var viewport: Size?
        var viewportIndex = 0
        var target = scrollTarget
        var builder = TraceBuilder(
            file: file,
            fieldNames: ["t": "timestamp", "x": "data.x", "y": "data.y", "width": "data.width", "height": "data.height"])
        var origin: Double?
        var lastTimestamp = -Double.infinity
        for (index, element) in list.enumerated() {
            func fail(_ field: String, _ reason: String) -> TraceError {
                .malformedEvent(file: file, index: index, field: field, reason: reason)
            }
            guard let event = element as? [String: Any] else { throw fail("(event)", "not an object") }
            guard let type = TraceInput.integer(event["type"]) else { throw fail("type", "missing or not an integer") }
            guard let timestamp = (event["timestamp"] as? NSNumber)?.doubleValue, timestamp.isFinite else {
                throw fail("timestamp", "missing or not a finite number")
            }
            guard timestamp >= lastTimestamp else { throw fail("timestamp", "time goes backwards (\(timestamp) after \(lastTimestamp))") }
            lastTimestamp = timestamp
            let t = timestamp - (origin ?? timestamp)
            origin = origin ?? timestamp
            guard t <= Trace.maximumDurationMilliseconds else {
                throw fail("timestamp", "\(timestamp) ms is more than 24 h after the first event (the maximum trace duration)")
            }
            let payload = event["data"] as? [String: Any]
            func value(_ key: String) throws(TraceError) -> Double {
                guard let payload else { throw fail("data", "missing or not an object") }
                guard let number = payload[key] as? NSNumber, number.doubleValue.isFinite else {
                    throw fail("data.\(key)", "missing or not a finite number")
                }
                return number.doubleValue
            }
            func size() throws(TraceError) -> Size {
                let size = Size(width: try value("width"), height: try value("height"))
                guard size.width > 0 else { throw fail("data.width", "must be > 0") }
                guard size.height > 0 else { throw fail("data.height", "must be > 0") }
                return size
            }
            switch type {
            case 4:
                let new = try size()
                if viewport == nil { viewport = new; viewportIndex = index } else { builder.append(from: .event(index), TraceEvent(t: t, .resize(new))) }
            case 2:
                if target == nil, let node = payload?["node"] as? [String: Any], let id = TraceInput.integer(node["id"]) {
                    target = id
                }
            case 3:
                let source = try value("source")
                switch source {
                case 3:
                    guard let id = TraceInput.integer(payload?["id"]) else {
                        throw fail("data.id", "missing or not an integer node id")
                    }
                    let point = Point(x: try value("x"), y: try value("y"))
                    if target == nil { target = id }
                    if id == target { builder.append(from: .event(index), TraceEvent(t: t, .offset(point))) }
                case 4:
                    let new = try size()
                    if viewport == nil { viewport = new; viewportIndex = index } else { builder.append(from: .event(index), TraceEvent(t: t, .resize(new))) }
                case 2 where try value("type") == 2:
                    builder.append(from: .event(index), TraceEvent(t: t, .tap(Point(x: try value("x"), y: try value("y")))))
                default:
                    continue
                }
            default:
                continue
            }
        }
        guard let origin else { throw .unusable(file: file, reason: "no events") }
        guard let viewport = viewport ?? self.viewport else {
            throw .unusable(file: file, reason: "no Meta event (type 4) with the viewport size; give one (--viewport WxH)")
        }
        builder.append(from: builder.lastOrigin ?? .event(list.count - 1), TraceEvent(t: lastTimestamp - origin, .end))
        let name = file.split(separator: "/").last.map(String.init) ?? file
        return try builder.trace(
            header: TraceHeader(viewport: viewport, screenScale: screenScale, refreshRate: refreshRate, source: "rrweb:\(name)"),
            headerOrigin: .event(viewportIndex))
    }
}
