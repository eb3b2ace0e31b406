/// The behaviours ``TraceSynthesizer`` can generate, each a kind of person using a feed.
///
/// All numbers are points, milliseconds and points per second. Pauses are log-normal
/// (`median × e^(σ·N(0,1))`: positive, with the long right tail dwell times have); every other
/// range is uniform. Fling release speeds are anchored on the real recordings in
/// `../shared/data/real/`: Flutter's flicks leave the screen at 2,100–4,300 pt/s (expected `vy`
/// of gestures 3–12) and the AOSP *sailfish* "slow" flings at about 1,100–1,400 pt/s.
///
/// | model | pause between gestures | gestures | release |
/// |---|---|---|---|
/// | reader | median 3,000 ms, σ 0.5 | drags of 25–50 % of the viewport height over 350–700 ms, then a 50–150 ms hold; 10 % go back up | finger at rest (no fling) |
/// | skimmer | median 900 ms, σ 0.5 | 70 % flings at 800–2,000 pt/s, 30 % reader drags of 30–60 %; 5 % go back up | fling or rest |
/// | flinger | median 250 ms, σ 0.4 | flings at 2,000–4,500 pt/s; 10 % go back up | fling |
/// | refresher | median 1,500 ms, σ 0.5 | cycles: pull to refresh, 2–4 reader drags down the feed, drags back to the top | rest |
///
/// The refresher's pull starts in the top quarter of the viewport and drags the finger down
/// 150–240 pt from a content offset of 0, then holds 200–400 ms: with UIKit's rubber band
/// (`offset = (1 − 1/(0.55·x/h + 1))·h`) and a 10 pt touch slop that is an on-screen pull of
/// more than 50 pt (the usual refresh threshold) on any viewport from 568 pt tall (iPhone SE)
/// up to 1,366 pt. Its return drags cover what the reading drags moved plus 40 pt, a rubber
/// band of under 25 pt that triggers nothing. Every pull is preceded by an `insert` of 1–5
/// items in the middle of the pause before it, so the Refresh finds new items.
public enum SynthModel: String, Sendable, CaseIterable {
    case reader
    case skimmer
    case flinger
    case refresher

    /// Log-normal pause parameters: median in ms and σ.
    var pause: (median: Double, sigma: Double) {
        switch self {
        case .reader: (3000, 0.5)
        case .skimmer: (900, 0.5)
        case .flinger: (250, 0.4)
        case .refresher: (1500, 0.5)
        }
    }

    /// Chance that a gesture is a fling rather than a drag that ends at rest.
    var flingShare: Double {
        switch self {
        case .reader, .refresher: 0
        case .skimmer: 0.7
        case .flinger: 1
        }
    }

    /// Fling release speeds in pt/s.
    var flingSpeed: ClosedRange<Double> {
        switch self {
        case .skimmer: 800...2000
        case .flinger: 2000...4500
        case .reader, .refresher: 0...0
        }
    }

    /// Drag length as a share of the viewport height.
    var dragShare: ClosedRange<Double> {
        switch self {
        case .skimmer: 0.3...0.6
        case .reader, .refresher, .flinger: 0.25...0.5
        }
    }

    /// Chance that a gesture scrolls back toward the top (finger moving down).
    var backShare: Double {
        switch self {
        case .reader, .flinger: 0.1
        case .skimmer: 0.05
        case .refresher: 0
        }
    }
}
