import FeedLayout
import Testing

@Suite struct FlowLayoutTests {
    // Figure corrected by issue 12: the last line (items 50 and 20) used to be left-aligned at
    // x = 0, 60; PSTCollectionView's PSTGridLayoutRow.m (the reimplementation of UIKit's flow
    // layout) justifies the last row as if completed with copies of its last item, and here no
    // copy fits, so it is justified like a full line: x = 0, 80.
    @Test func fullLinesJustifyLoneItemsCentreAndLastLineJustifiesLikeAFullOne() throws {
        // W = 100, no insets, spacing 10, line spacing 5, header 10, footer 6.
        let configuration = LayoutConfiguration(
            kind: .flow, spacing: 10, lineSpacing: 5, headerHeight: 10, footerHeight: 6)
        let sizes = [
            Size(width: 30, height: 20), Size(width: 30, height: 10), Size(width: 10, height: 20),
            Size(width: 60, height: 10), Size(width: 50, height: 30), Size(width: 20, height: 10),
        ]
        let layout = try prepared(configuration, sizes: sizes, viewport: Size(width: 100, height: 200))
        // Line 1 (y 10, extent 20): 30 + 10 + 30 + 10 + 10 = 90 ≤ 100; + 10 + 60 > 100. Leftover 10
        //   → gap 10 + 10/2 = 15: x = 0, 45, 90. Item 1 (h 10) is centred: y = 10 + (20 − 10)/2 = 15.
        // Line 2 (y 10 + 20 + 5 = 35, extent 10): 60 + 10 + 50 > 100 → alone → centred, x = (100 − 60)/2 = 20.
        // Line 3 (y 35 + 10 + 5 = 50, extent 30), last: 50 + 10 + 20 = 80, leftover 20; a copy of
        //   the last item needs 10 + 20 = 30 > 20, so q = 2 and gap = 10 + 20/1 = 30: x = 0, 80.
        //   Item 5 (h 10): y = 50 + (30 − 10)/2 = 60.
        expectFrames(layout, [
            Rect(x: 0, y: 10, width: 30, height: 20), Rect(x: 45, y: 15, width: 30, height: 10),
            Rect(x: 90, y: 10, width: 10, height: 20), Rect(x: 20, y: 35, width: 60, height: 10),
            Rect(x: 0, y: 50, width: 50, height: 30), Rect(x: 80, y: 60, width: 20, height: 10),
        ])
        // 50 + 30 (last line) + 0 (bottom inset) + 6 (footer) = 86.
        #expect(layout.contentSize == Size(width: 100, height: 86))
        #expect(layout.attributesForSupplementaryView(ofKind: .footer)?.frame == Rect(x: 0, y: 80, width: 100, height: 6))
        // [40, 55): line 2 (35..<45) and line 3's item 4 (50..<80); item 5 starts at 60.
        #expect(indices(layout.attributesForElements(in: Rect(x: 0, y: 40, width: 100, height: 15))) == [3, 4])
    }

    @Test func uniformLastRowLinesUpWithTheColumnsAbove() throws {
        // W = 110, items 30 × 30, spacing 5: 3 per line (30·3 + 5·2 = 100), leftover 10 → gap 10:
        // x = 0, 40, 80. The last line (2 items) uses the full line's gap: (110 − 3·30) / 2 = 10 → x = 0, 40.
        let sizes = Array(repeating: Size(width: 30, height: 30), count: 5)
        let justified = try prepared(LayoutConfiguration(kind: .flow, spacing: 5), sizes: sizes, viewport: Size(width: 110, height: 100))
        #expect(cellFrames(justified).map(\.minX) == [0, 40, 80, 0, 40])
        // Left-aligned: the minimum spacing everywhere: x = 0, 35, 70.
        let left = try prepared(
            LayoutConfiguration(kind: .flow, spacing: 5, alignment: .left), sizes: sizes, viewport: Size(width: 110, height: 100))
        #expect(cellFrames(left).map(\.minX) == [0, 35, 70, 0, 35])
    }

    /// Issue 12: 9 items of 100 × 100 in a 390-wide view, insets and spacing 10. A line holds 3
    /// (100·3 + 10·2 = 320 ≤ 370; a fourth needs 430); leftover 50 → gap 10 + 50/2 = 35:
    /// x = 10, 145, 280. The last line is full (no copy of its last item fits in the 50 left), so
    /// it is justified the same way — PSTGridLayoutRow.m counts invisible copies only while they fit.
    @Test func aFullLastLineIsJustifiedLikeEveryOtherLine() throws {
        let configuration = LayoutConfiguration(kind: .flow, spacing: 10, insets: EdgeInsets(all: 10))
        let layout = try prepared(
            configuration, sizes: Array(repeating: Size(width: 100, height: 100), count: 9), viewport: Size(width: 390, height: 844))
        #expect(cellFrames(layout).map(\.minX) == [10, 145, 280, 10, 145, 280, 10, 145, 280])
        #expect(cellFrames(layout).map(\.minY) == [10, 10, 10, 120, 120, 120, 230, 230, 230])
    }

    /// A partial last line, as PSTCollectionView's PSTGridLayoutRow.m places it ("the last row
    /// should justify as if it is filled with more (invisible) items"): 7 items of 100 in the same
    /// view, so the last line holds item 6 alone; two copies of it still fit (q = 3), leftover 50,
    /// gap 35: item 6 sits at x = 10 under the first column, not centred. With 5 items the last
    /// line holds 3 and 4: q = 3 again, x = 10, 145.
    @Test func aPartialLastLineLinesUpWithTheColumnsAbove() throws {
        let configuration = LayoutConfiguration(kind: .flow, spacing: 10, insets: EdgeInsets(all: 10))
        let seven = try prepared(
            configuration, sizes: Array(repeating: Size(width: 100, height: 100), count: 7), viewport: Size(width: 390, height: 844))
        #expect(cellFrames(seven).map(\.minX) == [10, 145, 280, 10, 145, 280, 10])
        let five = try prepared(
            configuration, sizes: Array(repeating: Size(width: 100, height: 100), count: 5), viewport: Size(width: 390, height: 844))
        #expect(cellFrames(five).map(\.minX) == [10, 145, 280, 10, 145])
    }

    /// A line holding one item with no room for a second is centred (PSTGridLayoutRow.m: "Special
    /// case one item row to split leftover space in half"), whether or not it is the last line:
    /// items 250, 250 in W 390, insets 10 → available 370, leftover 120 → x = 10 + 60 = 70 for both.
    @Test func aLineHoldingOneItemIsCentred() throws {
        let configuration = LayoutConfiguration(kind: .flow, spacing: 10, insets: EdgeInsets(all: 10))
        let layout = try prepared(
            configuration, sizes: Array(repeating: Size(width: 250, height: 50), count: 2), viewport: Size(width: 390, height: 844))
        #expect(cellFrames(layout).map(\.minX) == [70, 70])
    }

    @Test func horizontalFlowFillsColumnsTopToBottom() throws {
        // 100 × 50 viewport, items 20 × 20, spacing 10, line spacing 5: a column holds 20 + 10 + 20 = 50.
        // Column 0 at x = 0: y = 0, 30. Column 1 at x = 20 + 5 = 25: item 2 (last line, uniform: the
        // full line's gap (50 − 40)/1 = 10) at y = 0. Content width 45, height = the viewport's 50.
        let configuration = LayoutConfiguration(kind: .flow, spacing: 10, lineSpacing: 5, direction: .horizontal)
        let layout = try prepared(configuration, sizes: Array(repeating: Size(width: 20, height: 20), count: 3), viewport: Size(width: 100, height: 50))
        expectFrames(layout, [
            Rect(x: 0, y: 0, width: 20, height: 20), Rect(x: 0, y: 30, width: 20, height: 20),
            Rect(x: 25, y: 0, width: 20, height: 20),
        ])
        #expect(layout.contentSize == Size(width: 45, height: 50))
        #expect(!layout.shouldInvalidateLayout(forBoundsChange: Rect(x: 0, y: 0, width: 300, height: 50)))
    }

    @Test func itemWiderThanTheLineIsClampedToIt() throws {
        let layout = try prepared(LayoutConfiguration(kind: .flow, insets: EdgeInsets(all: 10)), sizes: [Size(width: 4000, height: 30)], viewport: Size(width: 100, height: 100))
        #expect(layout.attributesForItem(at: 0)?.frame == Rect(x: 10, y: 10, width: 80, height: 30))
    }
}

@Suite struct WaterfallLayoutTests {
    @Test func eachItemGoesToTheShortestColumnLeftmostOnTies() throws {
        // W = 210, C = 2, s = 10 → column width 100, columns at x = 0 and 110.
        // Heights from aspect: 50×100 → 200, 100×50 → 50, 100×100 → 100, 200×100 → 50, 10×10 → 100.
        // 0 → col 0 (tie, leftmost) y 0..200; 1 → col 1 y 0..50; 2 → col 1 y 60..160;
        // 3 → col 1 (160 < 200) y 170..220; 4 → col 0 (200 < 220) y 210..310.
        let sizes = [
            Size(width: 50, height: 100), Size(width: 100, height: 50), Size(width: 100, height: 100),
            Size(width: 200, height: 100), Size(width: 10, height: 10),
        ]
        let layout = try prepared(LayoutConfiguration(kind: .waterfall, columns: 2, spacing: 10), sizes: sizes, viewport: Size(width: 210, height: 300))
        expectFrames(layout, [
            Rect(x: 0, y: 0, width: 100, height: 200), Rect(x: 110, y: 0, width: 100, height: 50),
            Rect(x: 110, y: 60, width: 100, height: 100), Rect(x: 110, y: 170, width: 100, height: 50),
            Rect(x: 0, y: 210, width: 100, height: 100),
        ])
        #expect(layout.contentSize == Size(width: 210, height: 310))
        // [205, 215): item 3 (170..<220) and item 4 (210..<310), merged into index order.
        #expect(indices(layout.attributesForElements(in: Rect(x: 0, y: 205, width: 210, height: 10))) == [3, 4])
    }
}
