import FeedLayout
import FeedModel

/// Random layout inputs from a fixed seed, for the property tests.
struct RandomLayouts {
    var rng: SplitMix64
    /// Whether lengths are whole points (exact arithmetic, for comparing incremental and fresh layouts).
    var integral: Bool

    init(seed: UInt64, integral: Bool = false) {
        rng = SplitMix64(seed: seed)
        self.integral = integral
    }

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
    mutating func chance(_ p: Double) -> Bool { rng.nextUnit() < p }

    mutating func length(_ range: ClosedRange<Double>) -> Double {
        let value = range.lowerBound + rng.nextUnit() * (range.upperBound - range.lowerBound)
        return integral ? value.rounded(.down) : value
    }

    /// 0, 1, 2 or up to 300 items.
    mutating func count() -> Int {
        switch int(0...5) {
        case 0: return 0
        case 1: return 1
        case 2: return 2
        default: return int(3...300)
        }
    }

    mutating func size() -> Size {
        if chance(0.05) { return Size(width: 0, height: length(0...200)) }
        if chance(0.05) { return Size(width: length(1...300), height: 0) }
        return Size(width: length(1...400), height: length(1...400))
    }

    mutating func sizes(_ count: Int) -> [Size] { (0..<count).map { _ in size() } }

    mutating func viewport() -> Size { Size(width: length(60...800), height: length(60...1000)) }

    mutating func insets() -> EdgeInsets {
        chance(0.3) ? .zero : EdgeInsets(top: length(0...20), left: length(0...20), bottom: length(0...20), right: length(0...20))
    }

    mutating func configuration(_ kind: LayoutKind, viewport: Size) -> LayoutConfiguration {
        var configuration = LayoutConfiguration(
            kind: kind, columns: int(1...5), spacing: chance(0.2) ? 0 : length(0...12),
            lineSpacing: chance(0.5) ? nil : length(0...12), insets: insets(),
            headerHeight: chance(0.5) ? 0 : length(1...60), footerHeight: chance(0.5) ? 0 : length(1...60))
        if kind.parameters.contains("refresh-height"), chance(0.5) { configuration.refreshHeight = length(1...80) }
        switch kind {
        case .grid:
            if chance(0.3) { configuration.itemSize = Size(width: length(10...60), height: length(10...200)) }
        case .flow:
            configuration.direction = chance(0.3) ? .horizontal : .vertical
            configuration.alignment = chance(0.5) ? .left : .justified
            if chance(0.2) { configuration.itemSize = Size(width: length(10...150), height: length(10...150)) }
        case .mosaic:
            configuration.bigHeight = configuration.spacing + length(1...300)
        case .carousel:
            configuration.itemSize = Size(
                width: length(10...viewport.width), height: length(10...viewport.height))
            configuration.zoom = chance(0.3) ? 0 : rng.nextUnit()
            configuration.fade = chance(0.5)
        case .list:
            if chance(0.4) { configuration.estimatedHeight = length(10...120) }
        case .strip, .waterfall:
            break
        }
        return configuration
    }

    /// A rect to query: random, empty, the whole content, or starting exactly on an element's edge.
    mutating func rect(in layout: any CollectionLayout) -> Rect {
        let content = layout.contentSize
        let viewport = layout.viewport
        switch int(0...5) {
        case 0:
            return Rect(x: -10, y: -10, width: content.width + 20, height: content.height + 20)
        case 1:
            return Rect(x: length(0...content.width), y: length(0...content.height), width: 0, height: length(0...100))
        case 2, 3:
            let all = layout.allAttributes()
            if let element = all.isEmpty ? nil : all[int(0...(all.count - 1))] {
                // Touching edges: the rect starts where the element ends, or ends where it starts.
                let frame = element.frame
                switch int(0...3) {
                case 0: return Rect(x: frame.minX, y: frame.maxY, width: viewport.width, height: viewport.height)
                case 1: return Rect(x: frame.maxX, y: frame.minY, width: length(1...50), height: length(1...50))
                case 2: return Rect(x: 0, y: frame.minY - 40, width: content.width, height: 40)
                default: return Rect(x: frame.minX - 40, y: frame.minY, width: 40, height: frame.height)
                }
            }
            fallthrough
        default:
            return Rect(
                x: length(-50...(content.width + 50)), y: length(-50...(content.height + 50)),
                width: length(0...(viewport.width * 1.5)), height: length(0...(viewport.height * 1.5)))
        }
    }
}
