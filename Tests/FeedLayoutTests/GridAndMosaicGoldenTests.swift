import FeedLayout
import Testing

@Suite struct GridLayoutTests {
    /// W = 320, C = 3, insets (top 8, left 5, bottom 12, right 5), spacing 5, line spacing 10, header 40.
    /// Square side = (320 − 5 − 5 − 2·5) / 3 = 300 / 3 = 100. Columns at x = 5, 5 + 105 = 110, 215.
    /// Rows at y = 40 + 8 = 48, 48 + 110 = 158, 268.
    let configuration = LayoutConfiguration(
        kind: .grid, columns: 3, spacing: 5, lineSpacing: 10,
        insets: EdgeInsets(top: 8, left: 5, bottom: 12, right: 5), headerHeight: 40)

    @Test func sevenItemGridFramesMatchHandComputedValues() throws {
        let layout = try prepared(configuration, sizes: Array(repeating: .zero, count: 7), viewport: Size(width: 320, height: 480))
        expectFrames(layout, [
            Rect(x: 5, y: 48, width: 100, height: 100), Rect(x: 110, y: 48, width: 100, height: 100),
            Rect(x: 215, y: 48, width: 100, height: 100), Rect(x: 5, y: 158, width: 100, height: 100),
            Rect(x: 110, y: 158, width: 100, height: 100), Rect(x: 215, y: 158, width: 100, height: 100),
            Rect(x: 5, y: 268, width: 100, height: 100),
        ])
        // 40 + 8 + 3·100 + 2·10 + 12 = 380; no padding to the 480-pt viewport.
        #expect(layout.contentSize == Size(width: 320, height: 380))
        #expect(layout.attributesForSupplementaryView(ofKind: .header)?.frame == Rect(x: 0, y: 0, width: 320, height: 40))
    }

    @Test func rectBetweenRowsAndColumnsHoldsOnlyWhatItTouches() throws {
        let layout = try prepared(configuration, sizes: Array(repeating: .zero, count: 7), viewport: Size(width: 320, height: 480))
        // y in [100, 160): row 0 (48..<148) and row 1 (158..<258).
        #expect(indices(layout.attributesForElements(in: Rect(x: 0, y: 100, width: 320, height: 60))) == [0, 1, 2, 3, 4, 5])
        // x in [105, 110): the gap between columns 0 and 1; only the full-width header reaches it.
        #expect(indices(layout.attributesForElements(in: Rect(x: 105, y: 0, width: 5, height: 400))) == [-1])
        // y in [148, 158): the line gap; a rect that only touches row 0's bottom edge holds nothing.
        #expect(layout.attributesForElements(in: Rect(x: 0, y: 148, width: 320, height: 10)).isEmpty)
    }

    @Test func emptyGridIsHeaderAndInsetsOnly() throws {
        let layout = try prepared(configuration, sizes: [], viewport: Size(width: 320, height: 480))
        #expect(layout.contentSize.height == 40 + 8 + 12)
        #expect(indices(layout.allAttributes()) == [-1])
    }

    @Test func offsetOnlyBoundsChangeDoesNotInvalidate() throws {
        let layout = try prepared(configuration, sizes: [.zero], viewport: Size(width: 320, height: 480))
        #expect(!layout.shouldInvalidateLayout(forBoundsChange: Rect(x: 0, y: 300, width: 320, height: 480)))
        #expect(layout.shouldInvalidateLayout(forBoundsChange: Rect(x: 0, y: 0, width: 640, height: 480)))
        // 640: side = (640 − 10 − 10) / 3 = 620 / 3.
        layout.invalidateLayout(forBoundsChange: Rect(x: 0, y: 0, width: 640, height: 480))
        #expect(layout.attributesForItem(at: 0)?.frame.width == 620.0 / 3)
    }
}

@Suite struct MosaicLayoutTests {
    /// W = 320, insets 10, s = 10, B = 200: w = (320 − 20 − 10) / 2 = 145, h = (200 − 10) / 2 = 95,
    /// x₀ = 10, x₁ = 10 + 145 + 10 = 165, groups every 2·200 + 2·10 = 420 from y = 10.
    let configuration = LayoutConfiguration(kind: .mosaic, spacing: 10, insets: EdgeInsets(all: 10), bigHeight: 200)

    @Test func sevenItemMosaicFramesMatchHandComputedGroup() throws {
        let layout = try prepared(configuration, sizes: Array(repeating: .zero, count: 7), viewport: Size(width: 320, height: 568))
        expectFrames(layout, [
            Rect(x: 10, y: 10, width: 145, height: 200),  // 0: big left, g = 10
            Rect(x: 165, y: 10, width: 145, height: 95),  // 1: small right, g
            Rect(x: 165, y: 115, width: 145, height: 95),  // 2: g + h + s = 10 + 95 + 10
            Rect(x: 10, y: 220, width: 145, height: 95),  // 3: g + B + s = 10 + 200 + 10
            Rect(x: 10, y: 325, width: 145, height: 95),  // 4: g + B + 2s + h = 10 + 200 + 20 + 95
            Rect(x: 165, y: 220, width: 145, height: 200),  // 5: big right at g + B + s
            Rect(x: 10, y: 430, width: 145, height: 200),  // 6: next group, g = 10 + 420
        ])
        // Lowest frame: item 6, bottom 430 + 200 = 630; + bottom inset 10.
        #expect(layout.contentSize == Size(width: 320, height: 640))
    }

    @Test func partialGroupContentHeightIsLowestFrameNotFullGroup() throws {
        // 4 items: lowest is item 3, bottom 220 + 95 = 315; + 10.
        let layout = try prepared(configuration, sizes: Array(repeating: .zero, count: 4), viewport: Size(width: 320, height: 568))
        #expect(layout.contentSize.height == 325)
        let empty = try prepared(configuration, sizes: [], viewport: Size(width: 320, height: 568))
        #expect(empty.contentSize.height == 20)
    }

    @Test func rectQueryReturnsOnlyIntersectingItemsNotTheFirstN() throws {
        let layout = try prepared(configuration, sizes: Array(repeating: .zero, count: 7), viewport: Size(width: 320, height: 568))
        // [400, 440): item 4 (325..<420), item 5 (220..<420), item 6 (430..<630).
        #expect(indices(layout.attributesForElements(in: Rect(x: 0, y: 400, width: 320, height: 40))) == [4, 5, 6])
        // [420, 430): between the groups; touching edges do not count.
        #expect(layout.attributesForElements(in: Rect(x: 0, y: 420, width: 320, height: 10)).isEmpty)
    }

    @Test func millionthItemFrameIsArithmetic() throws {
        let layout = try prepared(configuration, sizes: [], viewport: Size(width: 320, height: 568))
        layout.append(sizes: Array(repeating: .zero, count: 1_000_000))
        // Item 999,999: group 166,666, slot 3; g = 10 + 166,666·420 = 69,999,730; y = g + 210.
        #expect(layout.attributesForItem(at: 999_999)?.frame == Rect(x: 10, y: 69_999_940, width: 145, height: 95))
    }
}
