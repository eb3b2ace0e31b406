import FeedLayout
import FeedModel
import Testing

@testable import FeedEngine

@Suite struct ElementAxisOrderTests {
    /// The binary-search run and window of an answer in axis order, against the pass over every
    /// element (the oracle: `Rect.intersects` per element and ``MembershipWindow``'s scan), on
    /// seeded random answers: rows of equal cells (ordered), rows with ragged ends or an empty or
    /// out-of-order element (not ordered: no run), and rects that land on element edges, miss
    /// elements across the axis, or are empty.
    /// The branch-free search against a linear scan (the first value above x, or at least x with
    /// `orEqual`), on seeded random non-decreasing arrays of 0...40 values with many repeats, for
    /// x below, between, on and above the values.
    @Test func theFirstPositionIsThatOfALinearScan() {
        var rng = SplitMix64(seed: 0x51_f1a7)
        for _ in 0..<2000 {
            let count = Int(rng.next() % 41)
            var values: [Double] = []
            var value = Double(rng.next() % 5)
            for _ in 0..<count {
                value += Double(rng.next() % 3)  // steps of 0, 1 or 2: repeats are common
                values.append(value)
            }
            for _ in 0..<8 {
                let x = Double(rng.next() % UInt64(2 * count + 12)) / 2 - 1
                for orEqual in [false, true] {
                    let scan = values.firstIndex { $0 > x || (orEqual && $0 == x) } ?? values.count
                    let found = values.withUnsafeBufferPointer { ElementAxisOrder.firstPosition(in: $0, above: x, orEqual: orEqual) }
                    #expect(found == scan, "\(values) x \(x) orEqual \(orEqual)")
                }
            }
        }
    }

    @Test func theRunAndWindowAreThoseOfThePassOverEveryElement() {
        var rng = SplitMix64(seed: 0xa815_0bde)
        var runs = 0
        var unordered = 0
        for axis in [ScrollAxis.vertical, .horizontal] {
            for _ in 0..<400 {
                let elements = Self.answer(&rng, axis: axis)
                let order = ElementAxisOrder()
                order.rebuild(elements, axis: axis)
                for _ in 0..<20 {
                    let rect = Self.rect(&rng, axis: axis)
                    guard let run = order.run(intersecting: rect) else {
                        if !order.isOrdered { unordered += 1 }
                        continue
                    }
                    runs += 1
                    let brute = elements.indices.filter { elements[$0].frame.intersects(rect) }
                    #expect(Array(run) == brute, "\(axis) \(rect) \(elements.map(\.frame))")
                    let window = elements.withUnsafeBufferPointer {
                        MembershipWindow(rect: rect, elements: $0, axis: axis)
                    }
                    let fast = order.window(of: rect)
                    // Same window: the same rects are inside it (probed at its edges and around).
                    for probe in Self.probes(around: rect, elements: elements, axis: axis) {
                        #expect(fast?.contains(probe, axis: axis) == window.contains(probe, axis: axis), "\(probe)")
                    }
                }
            }
        }
        // The comparison means something: many runs, and unordered answers met too.
        #expect(runs > 5_000, "\(runs) runs compared")
        #expect(unordered > 1_000, "\(unordered) rects over unordered answers")
    }

    /// An answer as the layouts give it: rows of cells along the axis, sometimes a header before
    /// and a footer after; a third of the time disordered (a ragged row, an empty element, a swap).
    private static func answer(_ rng: inout SplitMix64, axis: ScrollAxis) -> [LayoutAttributes] {
        let columns = 1 + Int(rng.next() % 4)
        let rows = Int(rng.next() % 12)
        let pitch = Double(20 + rng.next() % 120)
        let gap = Double(rng.next() % 3) * 4
        let width = 360.0 / Double(columns)
        var frames: [Rect] = []
        if rng.next() % 3 == 0 { frames.append(Rect(x: 0, y: -50, width: 360, height: 50)) }
        for row in 0..<rows {
            for column in 0..<columns {
                frames.append(
                    Rect(x: Double(column) * width, y: Double(row) * (pitch + gap), width: width - 2, height: pitch))
            }
        }
        if rng.next() % 3 == 0 {
            frames.append(Rect(x: 0, y: Double(rows) * (pitch + gap), width: 360, height: 40))
        }
        if !frames.isEmpty, rng.next() % 3 == 0 {
            let victim = Int(rng.next() % UInt64(frames.count))
            switch rng.next() % 3 {
            case 0: frames[victim].size.height += Double(1 + rng.next() % 60)  // a ragged end
            case 1: frames[victim].size.height = 0  // an empty element
            default: frames.swapAt(victim, Int(rng.next() % UInt64(frames.count)))
            }
        }
        return frames.enumerated().map { position, frame in
            let along =
                axis == .vertical ? frame : Rect(x: frame.minY, y: frame.minX, width: frame.height, height: frame.width)
            return LayoutAttributes(indexPath: IndexPath(item: position), category: .cell, frame: along)
        }
    }

    /// A rect along the axis, its edges often on multiples of 10 (element edges); its cross extent
    /// usually the viewport's, sometimes narrower (missing elements), sometimes empty.
    private static func rect(_ rng: inout SplitMix64, axis: ScrollAxis) -> Rect {
        let start = rng.next() % 2 == 0 ? Double(Int(rng.next() % 200) * 10) - 100 : rng.nextUnit() * 2_000 - 100
        let length = rng.next() % 10 == 0 ? 0 : Double(10 + rng.next() % 900)
        let crossStart = rng.next() % 4 == 0 ? Double(rng.next() % 300) : 0
        let crossLength = 360 - crossStart - (rng.next() % 4 == 0 ? Double(rng.next() % 200) : 0)
        let vertical = Rect(x: crossStart, y: start, width: max(0, crossLength), height: length)
        return axis == .vertical
            ? vertical : Rect(x: vertical.minY, y: vertical.minX, width: vertical.height, height: vertical.width)
    }

    /// Rects moved along the axis to every element edge near `rect`'s edges, and a little past them.
    private static func probes(around rect: Rect, elements: [LayoutAttributes], axis: ScrollAxis) -> [Rect] {
        var edges: [Double] = []
        for element in elements { edges += [axis.start(of: element.frame), axis.end(of: element.frame)] }
        var result: [Rect] = [rect]
        for edge in edges {
            for delta in [edge - axis.start(of: rect), edge - axis.end(of: rect)] {
                for nudge in [-0.5, 0, 0.5] {
                    let shift = delta + nudge
                    result.append(
                        axis == .vertical
                            ? Rect(x: rect.minX, y: rect.minY + shift, width: rect.width, height: rect.height)
                            : Rect(x: rect.minX + shift, y: rect.minY, width: rect.width, height: rect.height))
                }
            }
        }
        return result
    }
}
