import FeedLayout
import Testing

@Suite struct FlowLayoutTests {
    @Test func fullLinesJustifyLoneItemsCentreAndLastLineLeftAligns() throws {
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
        // Line 3 (y 35 + 10 + 5 = 50, extent 30), last: 50 + 10 + 20 = 80, widths differ → left-aligned
        //   with the minimum spacing: x = 0, 60. Item 5 (h 10): y = 50 + (30 − 10)/2 = 60.
        expectFrames(layout, [
            Rect(x: 0, y: 10, width: 30, height: 20), Rect(x: 45, y: 15, width: 30, height: 10),
            Rect(x: 90, y: 10, width: 10, height: 20), Rect(x: 20, y: 35, width: 60, height: 10),
            Rect(x: 0, y: 50, width: 50, height: 30), Rect(x: 60, y: 60, width: 20, height: 10),
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
