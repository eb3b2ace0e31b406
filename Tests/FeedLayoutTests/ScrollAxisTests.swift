import FeedLayout
import Testing

@Suite struct ScrollAxisTests {
    // A rect at x 10…40 (width 30), y 100…250 (height 150).
    let rect = Rect(x: 10, y: 100, width: 30, height: 150)
    let insets = EdgeInsets(top: 1, left: 2, bottom: 3, right: 4)

    @Test func verticalReadsYHeightAndTopBottom() {
        let axis = ScrollAxis.vertical
        #expect(axis.component(of: Point(x: 7, y: 9)) == 9)
        #expect(axis.length(of: Size(width: 320, height: 640)) == 640)
        #expect(axis.start(of: rect) == 100)
        #expect(axis.end(of: rect) == 250)  // 100 + 150
        #expect(axis.leadingInset(of: insets) == 1)
        #expect(axis.trailingInset(of: insets) == 3)
    }

    @Test func horizontalReadsXWidthAndLeftRight() {
        let axis = ScrollAxis.horizontal
        #expect(axis.component(of: Point(x: 7, y: 9)) == 7)
        #expect(axis.length(of: Size(width: 320, height: 640)) == 320)
        #expect(axis.start(of: rect) == 10)
        #expect(axis.end(of: rect) == 40)  // 10 + 30
        #expect(axis.leadingInset(of: insets) == 2)
        #expect(axis.trailingInset(of: insets) == 4)
    }

    @Test func replacingAndOffsettingLeaveTheCrossAxisAlone() {
        let p = Point(x: 7, y: 9)
        #expect(ScrollAxis.vertical.replacing(p, with: 50) == Point(x: 7, y: 50))
        #expect(ScrollAxis.horizontal.replacing(p, with: 50) == Point(x: 50, y: 9))
        #expect(ScrollAxis.vertical.offsetting(p, by: -4) == Point(x: 7, y: 5))  // 9 − 4
        #expect(ScrollAxis.horizontal.offsetting(p, by: -4) == Point(x: 3, y: 9))  // 7 − 4
        #expect(ScrollAxis.vertical.point(12) == Point(x: 0, y: 12))
        #expect(ScrollAxis.horizontal.point(12) == Point(x: 12, y: 0))
    }

    @Test func extendingGrowsOnlyAlongTheAxis() {
        // Vertical: y 100 − 5 = 95, height 150 + 5 + 20 = 175; x and width kept.
        #expect(ScrollAxis.vertical.extending(rect, before: 5, after: 20) == Rect(x: 10, y: 95, width: 30, height: 175))
        // Horizontal: x 10 − 5 = 5, width 30 + 5 + 20 = 55; y and height kept.
        #expect(
            ScrollAxis.horizontal.extending(rect, before: 5, after: 20) == Rect(x: 5, y: 100, width: 55, height: 150))
    }

    @Test func distanceIsTheGapAlongTheAxisAndZeroWhenExtentsOverlapOrTouch() {
        // Below `rect` (ends at y 250): starts at y 300 → gap 50; its x (500) is irrelevant.
        let below = Rect(x: 500, y: 300, width: 10, height: 10)
        #expect(ScrollAxis.vertical.distance(between: below, and: rect) == 50)
        #expect(ScrollAxis.vertical.distance(between: rect, and: below) == 50)
        // Horizontally `below` starts at 500, `rect` ends at 40 → gap 460.
        #expect(ScrollAxis.horizontal.distance(between: below, and: rect) == 460)
        // Touching at y 250 and overlapping both give 0.
        #expect(ScrollAxis.vertical.distance(between: Rect(x: 0, y: 250, width: 1, height: 1), and: rect) == 0)
        #expect(ScrollAxis.vertical.distance(between: Rect(x: 0, y: 120, width: 1, height: 1), and: rect) == 0)
    }

    @Test func rawValuesAreTheCaseNames() {
        // Encoded configurations and traces spell the axis as "vertical" / "horizontal".
        #expect(ScrollAxis(rawValue: "vertical") == .vertical)
        #expect(ScrollAxis(rawValue: "horizontal") == .horizontal)
    }
}
