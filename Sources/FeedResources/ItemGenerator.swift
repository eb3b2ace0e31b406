import FeedModel
import Foundation

/// Generates items from a ``Preset``, deterministically: the same preset, seed and start time give
/// the same items, in the same order, on every machine.
///
/// Items are generated **forward in time**: the first one is published at the start time plus
/// one exponential gap, each next one later, so the last generated item is the newest, at the
/// top of the feed. Arrivals are a Poisson process with rate `items_per_hour`: gaps are
/// exponential, `-ln(1 - u) · 3 600 000 / rate` milliseconds (inverse-transform sampling).
/// Several items can share a millisecond; the store breaks ties by id.
///
/// The replay harness inserts "n new items at the head at time t" with
/// ``items(count:notBefore:)``.
public struct ItemGenerator: Sendable {
    public let preset: Preset
    private var random: SplitMix64
    /// The arrival clock, Unix milliseconds (fractional; `published_at` is its floor).
    private var clock: Double
    /// Items generated so far.
    public private(set) var generated: Int = 0
    private let kindWeights: [Double]
    private let ratioWeights: [[Double]]

    /// Default start time: 2026-01-01T00:00:00Z = 1 767 225 600 000 ms (fixed, so default runs repeat).
    public static let defaultStart: Int64 = 1_767_225_600_000

    /// - Parameters:
    ///   - start: Unix milliseconds; every item is published after it.
    public init(preset: Preset, seed: UInt64, start: Int64 = ItemGenerator.defaultStart) {
        self.preset = preset
        self.random = SplitMix64(seed: seed)
        self.clock = Double(start)
        self.kindWeights = preset.kinds.map(\.weight)
        self.ratioWeights = preset.kinds.map { $0.aspectRatios?.map(\.weight) ?? [] }
    }

    /// The publication time of the last generated item (or the start), Unix milliseconds.
    public var lastPublishedAt: Int64 { Self.milliseconds(clock) }

    /// The clock's whole milliseconds, saturating at `Int64.max` (a store may hold items that
    /// late; the head after them stays there, ties broken by id).
    static func milliseconds(_ clock: Double) -> Int64 {
        clock >= 9.223_372_036_854_775e18 ? Int64.max : Int64(clock.rounded(.down))
    }

    /// The next item, published one exponential gap after the previous one.
    public mutating func next() -> NewItem {
        let gap = -log(1 - random.nextUnit()) * 3_600_000 / preset.itemsPerHour
        clock += gap
        generated += 1
        let publishedAt = Self.milliseconds(clock)
        let payload = "{\"seq\":\(generated)}"
        if let ad = preset.ad, generated % ad.every == 0 {
            return NewItem(
                publishedAt: publishedAt, kind: ad.kind, width: ad.width, height: ad.height,
                title: "Sponsored", author: "Sponsor", payload: payload)
        }
        let kindIndex = pick(kindWeights)
        let spec = preset.kinds[kindIndex]
        let height: Double
        if let ratios = spec.aspectRatios {
            height = (spec.width / ratios[pick(ratioWeights[kindIndex])].value).rounded()
        } else if let distribution = spec.height {
            height = Swift.min(
                distribution.max,
                Swift.max(distribution.min, (distribution.median * exp(distribution.sigma * normal())).rounded()))
        } else {
            preconditionFailure("validated preset has aspect ratios or a height distribution")
        }
        return NewItem(
            publishedAt: publishedAt, kind: spec.kind, width: spec.width, height: height, title: title(),
            author: preset.authors[Int(random.next() % UInt64(preset.authors.count))], payload: payload)
    }

    /// `count` new items, all published at or after `time` (Unix ms) when given: the clock first
    /// jumps forward to `time` if it is behind.
    public mutating func items(count: Int, notBefore time: Int64? = nil) -> [NewItem] {
        if let time { clock = Swift.max(clock, Double(time)) }
        return (0..<count).map { _ in next() }
    }

    /// An index drawn with probability proportional to its weight.
    private mutating func pick(_ weights: [Double]) -> Int {
        var target = random.nextUnit() * weights.reduce(0, +)
        for (index, weight) in weights.enumerated() {
            target -= weight
            if target < 0 { return index }
        }
        return weights.count - 1
    }

    /// A standard normal draw (Box–Muller transform, one of the pair).
    private mutating func normal() -> Double {
        let u1 = 1 - random.nextUnit()  // (0, 1]: log is finite
        let u2 = random.nextUnit()
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }

    private mutating func title() -> String {
        let range = preset.titleLength
        let count = range.min + Int(random.next() % UInt64(range.max - range.min + 1))
        var text = ""
        for index in 0..<count {
            let word = preset.titleWords[Int(random.next() % UInt64(preset.titleWords.count))]
            if index == 0 {
                text += word.prefix(1).uppercased() + word.dropFirst()
            } else {
                text += " " + word
            }
        }
        return text
    }
}
