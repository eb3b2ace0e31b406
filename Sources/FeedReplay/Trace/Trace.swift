import FeedLayout

/// A recorded or synthetic scroll session in FeedSim's canonical form: a header and a list of
/// timed input events, replayed on a virtual clock.
///
/// On disk a trace is JSON Lines (see `docs/trace-format.md`, version 1): the header line, then
/// one event per line. ``Trace/read(from:file:)`` and ``Trace/jsonLines()`` convert both ways;
/// the importers (``TraceImporter``) and ``TraceSynthesizer`` produce values of this type.
public struct Trace: Equatable, Sendable {
    /// Device facts: format version, viewport, screen scale, refresh rate, where it came from.
    public var header: TraceHeader
    /// Input events, ordered by ``TraceEvent/t`` (non-decreasing).
    public var events: [TraceEvent]

    public init(header: TraceHeader, events: [TraceEvent]) {
        self.header = header
        self.events = events
    }

    /// The longest session a trace may describe: 24 hours in milliseconds. A later event is
    /// refused by every reader and importer (a replay steps every frame up to the last event, so
    /// an event at `t = 10^12` would mean a replay of weeks).
    public static let maximumDurationMilliseconds = 86_400_000.0

    /// The session's length in milliseconds: the time of the `end` event, else of the last event, else 0.
    public var durationMilliseconds: Double {
        events.last?.t ?? 0
    }
}

/// The first line of a trace file.
public struct TraceHeader: Equatable, Sendable {
    /// The only format version this build reads and writes.
    public static let currentVersion = 1

    /// Format version; ``currentVersion`` for everything this build writes.
    public var version: Int
    /// The viewport (the scroll view's bounds size) in points at the start of the session.
    public var viewport: Size
    /// Pixels per point of the recording device (UIKit's `UIScreen.scale`, Android's density / 160).
    public var screenScale: Double
    /// Display refresh rate in hertz (60 or 120 for the devices modelled); the replay steps frames at this rate.
    public var refreshRate: Double
    /// Where the trace came from: `evemu:<file>`, `chrome:<file>`, `touch-csv:<file>`, `rrweb:<file>`,
    /// `synth:<model> seed=<seed> duration=<s>`, or free text for hand-written traces.
    public var source: String

    public init(
        version: Int = TraceHeader.currentVersion, viewport: Size, screenScale: Double, refreshRate: Double,
        source: String
    ) {
        self.version = version
        self.viewport = viewport
        self.screenScale = screenScale
        self.refreshRate = refreshRate
        self.source = source
    }
}

/// One input event at a time `t` in milliseconds from the start of the session.
///
/// Touch coordinates are viewport points (origin at the viewport's top-left, y downward);
/// `offset` is an absolute content offset in content points; `wheel` deltas are points with the
/// DOM's sign (positive `dy` moves the content offset toward the end of the feed).
public struct TraceEvent: Equatable, Sendable {
    /// Most items one `insert` event may write (a burst far beyond any real feed's).
    public static let maxInsertCount = 100_000

    /// Milliseconds from the start of the session (finite, ≥ 0, non-decreasing along a trace).
    public var t: Double
    /// What happened.
    public var kind: Kind

    public init(t: Double, _ kind: Kind) {
        self.t = t
        self.kind = kind
    }

    /// The event kinds of format version 1; the JSON `type` of each is given by ``typeName``.
    public enum Kind: Equatable, Sendable {
        /// A finger lands at this viewport point (`down`). Only one touch is modelled at a time.
        case touchDown(Point)
        /// The finger moves to this viewport point (`move`).
        case touchMove(Point)
        /// The finger lifts at this viewport point (`up`); usually the last `move`'s position.
        case touchUp(Point)
        /// The content offset is set to this absolute value in points (`offset`), as a programmatic
        /// `setContentOffset` or a recorded `scrollTop`.
        case offset(Point)
        /// A wheel or touchpad scroll by `dx`, `dy` points (`wheel`); positive `dy` scrolls toward the end.
        case wheel(dx: Double, dy: Double)
        /// The viewport becomes this size in points (`resize`), e.g. a rotation.
        case resize(Size)
        /// A tap at this viewport point (`tap`), no scrolling.
        case tap(Point)
        /// `count` new items (≥ 1) are written upstream at the feed's head at this moment (`insert`).
        case insert(count: Int)
        /// The session ends (`end`); nothing may follow.
        case end

        /// The JSON `type` string of this kind.
        public var typeName: String {
            switch self {
            case .touchDown: "down"
            case .touchMove: "move"
            case .touchUp: "up"
            case .offset: "offset"
            case .wheel: "wheel"
            case .resize: "resize"
            case .tap: "tap"
            case .insert: "insert"
            case .end: "end"
            }
        }
    }
}
