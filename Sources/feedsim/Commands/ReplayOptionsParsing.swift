import FeedEngine
import FeedReplay
import Foundation

/// The replay options shared by `feedsim replay`, `feedsim demo` and `feedsim load`: page size,
/// prefetch distance, ranges, physics, latency, faults, costs and seed, as a ``ReplayOptions``.
enum ReplayOptionsParsing {
    static let specs: [OptionSpec] = [
        OptionSpec("--page-size", "N", accepts: .integer(1...10_000), default: "20", help: "Items per page."),
        OptionSpec("--initial-pages", "N", accepts: .integer(1...100), default: "3", help: "Pages loaded by Init (as Paging 3)."),
        OptionSpec(
            "--prefetch", .value, "D",
            help: "More fires this close to the end: items:N (fewer than N items below the last visible, as Paging 3's prefetchDistance and react-window-infinite-loader's threshold; N in 1...1000000) | points:P (at most P pt to the end; P ≤ 1000000) | screens:S (at most S viewports, as Texture's leadingScreensForBatching; S ≤ 1000) (default items:<page size>)."),
        OptionSpec(
            "--max-loaded", "N", accepts: .integer(1...100_000_000), help: "Page dropping: keep at most N items loaded (default off)."),
        OptionSpec(
            "--ranges", .value, "PRESET",
            help: "Cell and row ranges: " + RangeConfiguration.presetNames.joined(separator: "|") + " (default uikit)."),
        OptionSpec(
            "--scroll", .value, "PHYSICS",
            help: "Scroll physics: uikit (rubber band, 10 pt pan slop) | android (clamped with an edge effect, 8 dp slop) (default uikit)."),
        OptionSpec(
            "--pull-threshold", "PT", accepts: .number(0.001...100_000),
            help: "Pull to refresh fires when released this far past the top, points (default: uikit 50, the refresh control's height; android 64, SwipeRefreshLayout's DEFAULT_CIRCLE_TARGET, measured on its spinner, which moves half the finger's pull)."),
        OptionSpec(
            "--latency", .value, "MODEL",
            help: "Backend latency: fixed:MS | uniform:MIN,MAX | lognormal:MEDIAN,SIGMA | table:P=MS,... (default lognormal:120,0.5)."),
        OptionSpec(
            "--faults", .value, "SPEC", help: "Failures: error=P,timeout=P,timeout-ms=MS,outage=START-END (default none)."),
        OptionSpec(
            "--row-latency", .value, "MODEL",
            help: "Row fetch latency, as --latency (default: the --latency model; rows and images often come from other servers)."),
        OptionSpec("--row-faults", .value, "SPEC", help: "Row fetch failures, as --faults (default: the --faults model); a failed batch is asked again next frame."),
        OptionSpec("--costs", .value, "SPEC", help: "Frame costs in ms: base=,layout=,create=,reuse=,bind= (default 1,1,3,0.5,0.5: a 120 Hz flagship phone; see CostModel)."),
        OptionSpec("--seed", "S", accepts: .seed, default: "1", help: "Seed of every random draw."),
    ]

    /// - Throws: ``CommandFailure`` naming the option whose value is malformed.
    static func options(from arguments: ParsedArguments) throws -> ReplayOptions {
        let pageSize = try arguments.int("--page-size") ?? 20
        let initialPages = try arguments.int("--initial-pages") ?? 3
        var prefetch: FeedController.PrefetchDistance?
        if let text = arguments.value("--prefetch") {
            prefetch = try parsePrefetch(text)
        }
        let maxLoaded = try arguments.int("--max-loaded")
        let scroll = try scrollPhysics(arguments)
        let threshold = try arguments.double("--pull-threshold") ?? defaultPullThreshold(scroll)
        let controller = FeedController.Configuration(
            pageSize: pageSize, initialLoadPages: initialPages, prefetchDistance: prefetch, refreshThreshold: threshold,
            maxLoadedItems: maxLoaded)
        do { try controller.validate() } catch { throw usageError(error) }
        let rangesName = arguments.value("--ranges") ?? "uikit"
        guard var ranges = RangeConfiguration.preset(named: rangesName) else {
            throw UsageError.badValue(
                "--ranges", "unknown preset '\(rangesName)' (\(RangeConfiguration.presetNames.joined(separator: ", ")))")
        }
        if rangesName == "paging3" { ranges = .paging3(pageSize: pageSize) }
        do {
            return ReplayOptions(
                controller: controller, ranges: ranges, scroll: scroll,
                latency: try LatencyModel.parse(arguments.value("--latency") ?? "lognormal:120,0.5"),
                faults: try FaultModel.parse(arguments.value("--faults") ?? "none"),
                costs: try arguments.value("--costs").map(CostModel.parse) ?? CostModel(),
                seed: try seed(arguments),
                rowLatency: try arguments.value("--row-latency").map { text in
                    try renamed("--row-latency") { try LatencyModel.parse(text) }
                },
                rowFaults: try arguments.value("--row-faults").map { text in
                    try renamed("--row-faults") { try FaultModel.parse(text) }
                })
        } catch let error as ModelParseError {
            throw UsageError(error.description, showsUsage: false)
        }
    }

    /// A controller configuration the options gave that the controller refuses, as a usage error
    /// (exit 64) naming the option, with the controller's field names put in the options' words
    /// (`--max-loaded: 1 must hold an Init plus one page (≥ 40000 = (--initial-pages + 1) × --page-size)`).
    static func usageError(_ error: FeedController.ConfigurationError) -> UsageError {
        let options = [
            "maxLoadedItems": "--max-loaded", "prefetchDistance": "--prefetch", "pageSize": "--page-size",
            "initialLoadPages": "--initial-pages", "refreshThreshold": "--pull-threshold",
        ]
        var reason = error.reason.replacingOccurrences(
            of: "pageSize + 2 × prefetchDistance", with: "--page-size + 2 × --prefetch")
        if reason.hasPrefix("must hold an Init plus one page") {
            reason = reason.replacingOccurrences(of: ")", with: " = (--initial-pages + 1) × --page-size)")
        }
        return UsageError.badValue(options[error.field] ?? error.field, "\(error.value) \(reason)")
    }

    /// Runs a model parser whose errors name the page option, naming `option` instead.
    static func renamed<T>(_ option: String, _ parse: () throws -> T) throws -> T {
        do { return try parse() } catch var error as ModelParseError {
            error.option = option
            throw error
        }
    }

    /// `--scroll`: the platform's scroll physics.
    static func scrollPhysics(_ arguments: ParsedArguments) throws -> ScrollModel.Configuration {
        switch arguments.value("--scroll") ?? "uikit" {
        case "uikit": return .uikit
        case "android": return .android
        case let other: throw UsageError.badValue("--scroll", "expected uikit or android, got '\(other)'")
        }
    }

    /// The pull-to-refresh threshold a platform's physics implies, points:
    /// - UIKit 50 pt: Apple publishes no trigger distance for `UIRefreshControl`; FeedSim uses the
    ///   height of the refresh control's area (the 50 pt inset it holds open while refreshing).
    /// - Android 64 dp: androidx `SwipeRefreshLayout` starts a refresh when the spinner's travel
    ///   `overscrollTop = (y − initialMotionY) · DRAG_RATE` (0.5) exceeds `mTotalDragDistance`,
    ///   which defaults to `DEFAULT_CIRCLE_TARGET` = 64 dp (SwipeRefreshLayout.java); the scroll
    ///   model reports that travel as the pull distance, so 128 dp of finger travel past the top.
    static func defaultPullThreshold(_ scroll: ScrollModel.Configuration) -> Double {
        switch scroll.overscroll {
        case .rubberBand: return 50
        case .edgeEffect: return 64
        }
    }

    /// `--seed`, an unsigned 64-bit integer (default 1).
    static func seed(_ arguments: ParsedArguments) throws -> UInt64 {
        try arguments.seed("--seed") ?? 1
    }

    /// Upper bounds of `--prefetch points:P` and `screens:S`: a million points is some 1,200
    /// screens of a phone; beyond that a distance is a typo, not a setting.
    static let maxPrefetchPoints = 1_000_000.0
    static let maxPrefetchScreens = 1_000.0

    static func parsePrefetch(_ text: String) throws -> FeedController.PrefetchDistance {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2, let value = Double(parts[1]), value.isFinite, value >= 0 else {
            throw UsageError.badValue("--prefetch", "expected items:N, points:P or screens:S, got '\(text)'")
        }
        switch parts[0] {
        case "items":
            guard value == value.rounded(), value >= 1, value <= 1_000_000 else {
                throw UsageError.badValue("--prefetch", "items must be a whole number in 1...1000000, got '\(parts[1])'")
            }
            return .items(Int(value))
        case "points":
            guard value <= Self.maxPrefetchPoints else {
                throw UsageError.badValue(
                    "--prefetch", "points must be in 0...\(Int(Self.maxPrefetchPoints)), got '\(parts[1])'")
            }
            return .points(value)
        case "screens", "screenfuls":
            guard value <= Self.maxPrefetchScreens else {
                throw UsageError.badValue(
                    "--prefetch", "screens must be in 0...\(Int(Self.maxPrefetchScreens)), got '\(parts[1])'")
            }
            return .screenfuls(value)
        default: throw UsageError.badValue("--prefetch", "expected items:N, points:P or screens:S, got '\(text)'")
        }
    }
}
