/// How a simulated user scrolls in a load session: bursts of scrolling at a steady speed with
/// pauses between them, for a fixed session length. All times are session (virtual) time.
///
/// The three presets follow the user models of the trace synthesizer (reader, skimmer,
/// flinger); their numbers are round figures chosen for load, not measurements: a reader reads
/// most of a screen between short scrolls, a skimmer scrolls a screen or two per glance, a
/// flinger moves several screens per fling.
public struct ScrollProfile: Hashable, Sendable, Codable {
    public var name: String
    /// Scroll speed during a burst, points per second.
    public var pointsPerSecond: Double
    /// Length of a burst, milliseconds.
    public var burstMilliseconds: Double
    /// Pause after a burst, milliseconds.
    public var pauseMilliseconds: Double
    /// Session length, milliseconds.
    public var sessionMilliseconds: Double

    public init(
        name: String, pointsPerSecond: Double, burstMilliseconds: Double, pauseMilliseconds: Double,
        sessionMilliseconds: Double
    ) {
        self.name = name
        self.pointsPerSecond = pointsPerSecond
        self.burstMilliseconds = burstMilliseconds
        self.pauseMilliseconds = pauseMilliseconds
        self.sessionMilliseconds = sessionMilliseconds
    }

    /// 400 pt/s for 1 s, then 3 s reading: ~100 pt/s on average.
    public static let reader = ScrollProfile(
        name: "reader", pointsPerSecond: 400, burstMilliseconds: 1_000, pauseMilliseconds: 3_000,
        sessionMilliseconds: 60_000)
    /// 1 500 pt/s for 0.8 s, then 1 s: ~670 pt/s on average.
    public static let skimmer = ScrollProfile(
        name: "skimmer", pointsPerSecond: 1_500, burstMilliseconds: 800, pauseMilliseconds: 1_000,
        sessionMilliseconds: 60_000)
    /// 5 000 pt/s for 0.5 s, then 0.5 s: ~2 500 pt/s on average.
    public static let flinger = ScrollProfile(
        name: "flinger", pointsPerSecond: 5_000, burstMilliseconds: 500, pauseMilliseconds: 500,
        sessionMilliseconds: 60_000)

    public static let presets = [reader, skimmer, flinger]

    /// The preset called `name`, or `nil`.
    public static func named(_ name: String) -> ScrollProfile? {
        presets.first { $0.name == name }
    }
}
