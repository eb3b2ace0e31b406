/// Simulated main-thread work per frame, in milliseconds, for hitch detection.
///
/// A frame's cost is `base + layout (when the layout changed) + created·cellCreation +
/// reused·cellReuse + bound·rowBinding`; a frame whose cost exceeds the frame budget
/// (1000 / refresh rate: 16.67 ms at 60 Hz, 8.33 ms at 120 Hz) is a hitch, late by
/// `cost − budget` ms. The defaults are rough figures for a mid-range phone: dequeuing a
/// reused cell and binding a row are cheap, creating a cell (view hierarchy, constraints) is not.
public struct CostModel: Hashable, Sendable {
    /// Fixed per-frame work (scroll, compositing handoff), ms.
    public var base: Double
    /// Extra work on a frame where the layout was invalidated or items were added or removed, ms.
    public var layout: Double
    /// Per newly created cell, ms.
    public var cellCreation: Double
    /// Per cell taken from the reuse pool, ms.
    public var cellReuse: Double
    /// Per row bound to a cell (content configuration, image decode handoff), ms.
    public var rowBinding: Double

    public init(base: Double = 2, layout: Double = 3, cellCreation: Double = 6, cellReuse: Double = 1.5, rowBinding: Double = 1) {
        self.base = base
        self.layout = layout
        self.cellCreation = cellCreation
        self.cellReuse = cellReuse
        self.rowBinding = rowBinding
    }

    /// Cost of one frame, ms.
    public func frameCost(layoutChanged: Bool, created: Int, reused: Int, bound: Int) -> Double {
        base + (layoutChanged ? layout : 0) + Double(created) * cellCreation + Double(reused) * cellReuse
            + Double(bound) * rowBinding
    }

    /// Parses `base=2,layout=3,create=6,reuse=1.5,bind=1` (any subset).
    /// - Throws: ``ModelParseError`` naming the bad entry.
    public static func parse(_ text: String) throws -> CostModel {
        var model = CostModel()
        for entry in text.split(separator: ",") {
            let pair = entry.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2, let ms = Double(pair[1]), ms.isFinite, ms >= 0, ms <= 10_000 else {
                throw ModelParseError(option: "--costs", text: text, reason: "entry '\(entry)' is not key=ms with 0 ≤ ms ≤ 10000")
            }
            switch pair[0] {
            case "base": model.base = ms
            case "layout": model.layout = ms
            case "create": model.cellCreation = ms
            case "reuse": model.cellReuse = ms
            case "bind": model.rowBinding = ms
            default:
                throw ModelParseError(option: "--costs", text: text, reason: "unknown key '\(pair[0])' (base, layout, create, reuse, bind)")
            }
        }
        return model
    }
}

/// Apple's hitch-time-ratio bands (WWDC 2020 "Eliminate animation hitches with XCTest"):
/// good below 5 ms/s, warning 5–10 ms/s, critical above 10 ms/s.
public enum HitchBand: String, Sendable, Codable {
    case good
    case warning
    case critical

    /// The band of a hitch time ratio in ms per second.
    public init(ratioMsPerS ratio: Double) {
        if ratio < 5 {
            self = .good
        } else if ratio <= 10 {
            self = .warning
        } else {
            self = .critical
        }
    }
}
