import FeedLayout
import Foundation

/// Every importer option in one value, so `trace import`, `replay` and `load` read a recording the
/// same way, plus the header overrides `replay` accepts for any trace (viewport, refresh rate).
///
/// An import that had to assume a unit records it in ``ImportedTrace/guesses``: touch-csv read with
/// no pixels-per-point (coordinates taken as points), evemu with no viewport (one device unit taken
/// as one point). Callers print the guesses on stderr and put them in the report's `options`.
public struct TraceImportSettings: Sendable {
    /// Viewport in points: the importer's viewport, and for any format the header's (an override).
    public var viewport: Size?
    /// Pixels per point written to the header. (Not a divisor of touch-csv coordinates: a
    /// recording may be in logical pixels already, as Flutter's is; that is ``pixelsPerPoint``.)
    public var screenScale: Double?
    /// Display refresh rate, Hz, written to the header (an override for any format).
    public var refreshRate: Double?
    /// evemu: which device the recording is.
    public var device: EvemuImporter.Device = .auto
    /// evemu: axis ranges in device units (needed without `A:` lines).
    public var axisX: EvemuRecording.AxisRange?
    public var axisY: EvemuRecording.AxisRange?
    /// evemu touchpads: natural scrolling (content follows fingers).
    public var naturalScrolling = true
    /// chrome: emit touch drags as scroll deltas at this speed, points per second.
    public var dragSpeed: Double?
    /// touch-csv: pixels per point.
    public var pixelsPerPoint: Double?
    /// touch-csv: pause placed between gestures, ms.
    public var pause: Double?
    /// touch-csv: points per AXIS_SCROLL unit.
    public var rotaryStep: Double = 64
    /// rrweb: node id of the feed's scroller.
    public var scrollTarget: Int?

    public init() {}

    /// Reads `path` in `format` with these settings.
    /// - Throws: ``TraceError`` naming the file, line and field.
    public func load(_ format: TraceFormat, path: String) throws(TraceError) -> ImportedTrace {
        var guesses: [String] = []
        let rate = refreshRate ?? 60
        var trace: Trace
        switch format {
        case .canonical:
            trace = try Trace.read(contentsOf: path)
        case .evemu:
            if viewport == nil {
                guesses.append("evemu: no --viewport, one device unit read as one point")
            }
            let importer = EvemuImporter(
                device: device, viewport: viewport, axisX: axisX, axisY: axisY, naturalScrolling: naturalScrolling,
                screenScale: screenScale ?? 1, refreshRate: rate)
            trace = try importer.importTrace(from: try TraceFormat.text(path), file: path)
        case .chrome:
            var importer = ChromeTraceImporter(dragSpeed: dragSpeed, refreshRate: rate)
            if let viewport { importer.viewport = viewport }
            if let screenScale { importer.screenScale = screenScale }
            trace = try importer.importTrace(from: try TraceFormat.data(path), file: path)
        case .touchCSV:
            let perPoint = pixelsPerPoint
            var importer = TouchCSVImporter(
                pixelsPerPoint: perPoint ?? 1, pause: pause, rotaryPointsPerStep: rotaryStep, screenScale: screenScale,
                refreshRate: rate)
            if let viewport { importer.viewport = viewport }
            trace = try importer.importTrace(from: try TraceFormat.text(path), file: path)
            if perPoint == nil {
                var note = "touch-csv: no --px-per-pt, coordinates read as points (1 px = 1 pt)"
                let reach = trace.touchReach
                let side = trace.header.viewport
                if reach.x > side.width + 0.5 || reach.y > side.height + 0.5 {
                    note += "; they reach \(formatNumber(reach.x))×\(formatNumber(reach.y)), beyond the "
                        + "\(formatNumber(side.width))×\(formatNumber(side.height)) pt viewport: likely pixels"
                }
                guesses.append(note)
            }
        case .rrweb:
            let importer = RRWebImporter(
                scrollTarget: scrollTarget, viewport: viewport, screenScale: screenScale ?? 1, refreshRate: rate)
            trace = try importer.importTrace(from: try TraceFormat.data(path), file: path)
        }
        // Header overrides: a canonical trace (or any importer's default) takes the given ones.
        if let viewport { trace.header.viewport = viewport }
        if let refreshRate { trace.header.refreshRate = refreshRate }
        if let screenScale { trace.header.screenScale = screenScale }
        return ImportedTrace(trace: trace, guesses: guesses)
    }
}

/// A trace read by ``TraceImportSettings/load(_:path:)`` and the units it had to assume.
public struct ImportedTrace: Sendable {
    public var trace: Trace
    /// One line per unit the import assumed (empty when every unit was given or recorded).
    public var guesses: [String]
}

extension Trace {
    /// The largest x and y of any touch in the trace, points (0, 0 with no touches).
    var touchReach: (x: Double, y: Double) {
        var reach = (x: 0.0, y: 0.0)
        for event in events {
            switch event.kind {
            case .touchDown(let p), .touchMove(let p):
                reach.x = max(reach.x, p.x)
                reach.y = max(reach.y, p.y)
            default:
                break
            }
        }
        return reach
    }
}
