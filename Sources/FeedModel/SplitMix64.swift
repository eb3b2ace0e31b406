/// A seedable random number generator: SplitMix64 (Steele, Lea and Flood, "Fast splittable
/// pseudorandom number generators", OOPSLA 2014; constants as in Vigna's reference `splitmix64.c`).
///
/// Every random choice in FeedSim (seeding, jitter, latency, synthetic traces) draws from one of
/// these, so the same seed gives the same run.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform double in [0, 1) from the top 53 bits.
    public mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// An independent generator derived from this one (for per-session or per-component streams).
    public mutating func split() -> SplitMix64 {
        SplitMix64(seed: next())
    }
}
