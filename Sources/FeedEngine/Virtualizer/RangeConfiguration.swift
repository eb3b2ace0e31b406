import FeedLayout

/// How far a range reaches beyond the viewport along the scroll axis.
///
/// *Leading* is the side the user is scrolling toward, *trailing* the side they come from, as in
/// Texture's `ASRangeTuningParameters` (`leadingBufferScreenfuls`, `trailingBufferScreenfuls`): a
/// feed scrolled downward reaches `leading` below the viewport and `trailing` above it; scrolled
/// upward, the other way round.
///
/// ```
///   trailing  ┆ ▲  (behind: where the user came from)
///   ──────────┼──────────
///   viewport  │ │  scrolling forward (down)
///   ──────────┼─▼────────
///   leading   ┆    (ahead)
/// ```
///
/// An extent resolves to a rect: the viewport grown along the scroll axis, never across it. An
/// item extent grows the viewport until it covers the frames of the `leading` items after the last
/// visible one (in index order) and the `trailing` items before the first visible one; in a grid
/// the rect then also covers the other items of those rows. With no visible item an item extent
/// adds nothing.
public enum RangeExtent: Hashable, Sendable, Codable {
    /// Points beyond each edge of the viewport.
    case points(leading: Double, trailing: Double)
    /// Viewport lengths (along the scroll axis) beyond each edge of the viewport.
    case screenfuls(leading: Double, trailing: Double)
    /// Items beyond the last (leading) and first (trailing) visible item, in index order.
    case items(leading: Int, trailing: Int)

    /// The viewport itself: no margin.
    public static let viewportOnly = RangeExtent.points(leading: 0, trailing: 0)

    /// Whether every amount is finite and non-negative.
    public var isValid: Bool {
        switch self {
        case .points(let leading, let trailing), .screenfuls(let leading, let trailing):
            return leading.isFinite && trailing.isFinite && leading >= 0 && trailing >= 0
        case .items(let leading, let trailing):
            return leading >= 0 && trailing >= 0
        }
    }

    /// Text form for reports and options: `240pt/120pt`, `1.0sf/0.5sf`, `2it/1it` (leading/trailing).
    public var description: String {
        switch self {
        case .points(let leading, let trailing): return "\(format(leading))pt/\(format(trailing))pt"
        case .screenfuls(let leading, let trailing): return "\(format(leading))sf/\(format(trailing))sf"
        case .items(let leading, let trailing): return "\(leading)it/\(trailing)it"
        }
    }

    private func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}

/// The virtualizer's ranges, as Texture's range controller has them:
///
/// - **visible**: the viewport (bounds) itself;
/// - **prefetch**: cells exist for every element intersecting it (overscan, Texture's *display*
///   range, RecyclerView's GapWorker prefetch plus item view cache, react-window's `overscanCount`,
///   FlashList's `drawDistance`);
/// - **preload**: full rows are fetched for every item intersecting it (UIKit's
///   `prefetchItemsAt`, Texture's *preload* range, Paging 3's `prefetchDistance`).
///
/// Both ranges always contain the viewport. The named presets reproduce each framework's defaults;
/// see ``RangeConfiguration/presets``.
public struct RangeConfiguration: Hashable, Sendable, Codable {
    /// Preset name for reports (`"custom"` when built by hand).
    public var name: String
    /// Where cells are created ahead (overscan).
    public var prefetch: RangeExtent
    /// Where rows are fetched ahead.
    public var preload: RangeExtent
    /// Most cells the reuse pool keeps per reuse identifier; `nil`: every enqueued cell is kept.
    /// Default 5 (`RecyclerView.RecycledViewPool.DEFAULT_MAX_SCRAP`); each preset sets its
    /// framework's policy (see ``RangeConfiguration/presets``).
    public var reusePoolLimit: Int?

    public init(
        name: String = "custom", prefetch: RangeExtent, preload: RangeExtent,
        reusePoolLimit: Int? = Virtualizer.defaultReusePoolLimit
    ) {
        self.name = name
        self.prefetch = prefetch
        self.preload = preload
        self.reusePoolLimit = reusePoolLimit
    }

    /// The pool policy as text for reports: `5/kind`, `unbounded`, `none` (0).
    public var reusePoolDescription: String {
        switch reusePoolLimit {
        case nil: return "unbounded"
        case 0?: return "none"
        case let limit?: return "\(limit)/kind"
        }
    }

    /// Whether both extents are finite and non-negative.
    public var isValid: Bool { prefetch.isValid && preload.isValid }
}

/// A virtualizer configuration that cannot run.
public enum VirtualizerConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `parameter` (e.g. `"prefetch"`, `"reusePoolLimit"`) has an invalid value.
    case invalidParameter(name: String, value: String, reason: String)

    public var description: String {
        switch self {
        case .invalidParameter(let name, let value, let reason):
            return "invalid virtualizer parameter \(name)=\(value): \(reason)"
        }
    }
}
