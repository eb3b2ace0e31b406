import FeedLayout
import Testing

@Suite struct CarouselLayoutTests {
    /// W × H = 300 × 200, item 100 × 80, s = 20, zoom 0.5, fading on.
    /// leading = (300 − 100) / 2 = 100, pitch 120, y = (200 − 80) / 2 = 60, half-width 150.
    let configuration = LayoutConfiguration(
        kind: .carousel, itemSize: Size(width: 100, height: 80), spacing: 20, zoom: 0.5, fade: true)
    let viewport = Size(width: 300, height: 200)

    @Test func framesLeaveRoomToCentreTheFirstAndLastItems() throws {
        let layout = try prepared(configuration, sizes: Array(repeating: .zero, count: 5), viewport: viewport)
        expectFrames(layout, (0..<5).map { Rect(x: 100 + 120 * Double($0), y: 60, width: 100, height: 80) })
        // 100 + 5·100 + 4·20 + 100 = 780.
        #expect(layout.contentSize == Size(width: 780, height: 200))
    }

    @Test func scaleAndAlphaFollowDistanceToViewportCentre() throws {
        let layout = try prepared(configuration, sizes: Array(repeating: .zero, count: 5), viewport: viewport)
        // Offset 0: centre 150. Item 0 centre 150 → d = 0: scale 1.5, alpha 1.
        // Item 1 centre 270 → d = 120: 1 − 120/150 = 0.2 → scale 1.1, alpha max(0.6, 0.2) = 0.6.
        let atZero = layout.attributesForElements(in: Rect(x: 0, y: 0, width: 300, height: 200))
        #expect(indices(atZero) == [0, 1])
        #expect(atZero[0].transform.scaleX == 1.5 && atZero[0].alpha == 1)
        #expect(abs(atZero[1].transform.scaleX - 1.1) < 1e-12 && atZero[1].alpha == 0.6)
        // Offset 60 is a bounds change that invalidates; centre 210: items 0 and 1 both at d = 60,
        // 1 − 60/150 = 0.6 → scale 1.3, alpha 0.6.
        let bounds = Rect(x: 60, y: 0, width: 300, height: 200)
        #expect(layout.shouldInvalidateLayout(forBoundsChange: bounds))
        layout.invalidateLayout(forBoundsChange: bounds)
        let moved = layout.attributesForElements(in: bounds)
        #expect(abs(moved[0].transform.scaleX - 1.3) < 1e-12 && abs(moved[1].transform.scaleY - 1.3) < 1e-12)
        #expect(moved[0].alpha == 0.6)
    }

    @Test(arguments: [
        (170.0, 120.0),  // centre 320: item 1 (centre 270, d 50) beats item 2 (390, d 70) → 1·120
        (190.0, 240.0),  // centre 340: item 2 (d 50) beats item 1 (d 70) → 2·120
        (1_000.0, 480.0),  // past the end → last item, 4·120 = 480 = 780 − 300
        (-50.0, 0.0),  // pulled past the start → item 0 at 0
    ])
    func targetOffsetCentresNearestItemWithinBounds(proposed: Double, expected: Double) throws {
        let layout = try prepared(configuration, sizes: Array(repeating: .zero, count: 5), viewport: viewport)
        let target = layout.targetContentOffset(forProposed: Point(x: proposed, y: 0), velocity: Point(x: 500, y: 0))
        #expect(target == Point(x: expected, y: 0))
    }
}

@Suite struct StripLayoutTests {
    @Test func heightLimitedSquaresSpreadLeftoverOverNPlusOneGaps() throws {
        // 300 × 50, n = 4: W/n = 75 > 50 → side 50; gap = (300 − 200) / 5 = 20; x = 20 + 70i.
        let layout = try prepared(LayoutConfiguration(kind: .strip), sizes: Array(repeating: .zero, count: 4), viewport: Size(width: 300, height: 50))
        expectFrames(layout, [20.0, 90, 160, 230].map { Rect(x: $0, y: 0, width: 50, height: 50) })
        #expect(layout.contentSize == Size(width: 300, height: 50))
    }

    @Test func widthLimitedSquaresTouchAndAreTopAligned() throws {
        // 300 × 50, n = 10: W/n = 30 < 50 → side 30, no gap, y = 0.
        let layout = try prepared(LayoutConfiguration(kind: .strip), sizes: Array(repeating: .zero, count: 10), viewport: Size(width: 300, height: 50))
        expectFrames(layout, (0..<10).map { Rect(x: 30 * Double($0), y: 0, width: 30, height: 30) })
    }

    @Test func everySizeChangeInvalidatesButOffsetDoesNot() throws {
        let layout = try prepared(LayoutConfiguration(kind: .strip), sizes: [.zero, .zero], viewport: Size(width: 300, height: 50))
        #expect(layout.shouldInvalidateLayout(forBoundsChange: Rect(x: 0, y: 0, width: 300, height: 60)))
        #expect(!layout.shouldInvalidateLayout(forBoundsChange: Rect(x: 10, y: 0, width: 300, height: 50)))
        // 300 × 200, n = 2: side min(150, 200) = 150.
        layout.invalidateLayout(forBoundsChange: Rect(x: 0, y: 0, width: 300, height: 200))
        #expect(layout.attributesForItem(at: 1)?.frame == Rect(x: 150, y: 0, width: 150, height: 150))
    }
}
