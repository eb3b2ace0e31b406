import FeedLayout
import Testing

@Suite struct ListLayoutTests {
    /// W = 320, insets (top 10, left 16, bottom 10, right 16), spacing 8, header 20, footer 30:
    /// row width 320 − 32 = 288, first row at y = 20 + 10 = 30.
    let configuration = LayoutConfiguration(
        kind: .list, spacing: 8, insets: EdgeInsets(top: 10, left: 16, bottom: 10, right: 16),
        headerHeight: 20, footerHeight: 30)
    let viewport = Size(width: 320, height: 100)
    let sizes = [Size(width: 1, height: 50), Size(width: 1, height: 100), Size(width: 1, height: 30)]

    @Test func rowsStackWithSpacingBetweenHeaderAndFooter() throws {
        let layout = try prepared(configuration, sizes: sizes, viewport: viewport)
        // y = 30; 30 + 50 + 8 = 88; 88 + 100 + 8 = 196.
        expectFrames(layout, [
            Rect(x: 16, y: 30, width: 288, height: 50), Rect(x: 16, y: 88, width: 288, height: 100),
            Rect(x: 16, y: 196, width: 288, height: 30),
        ])
        // 20 + 10 + (50 + 100 + 30 + 2·8) + 10 + 30 = 266; footer at 266 − 30 = 236.
        #expect(layout.contentSize == Size(width: 320, height: 266))
        #expect(layout.attributesForSupplementaryView(ofKind: .footer)?.frame == Rect(x: 0, y: 236, width: 320, height: 30))
        #expect(indices(layout.attributesForElements(in: Rect(x: 0, y: 0, width: 320, height: 40))) == [-1, 0])
        #expect(indices(layout.attributesForElements(in: Rect(x: 0, y: 226, width: 320, height: 100))) == [-2])
    }

    @Test func measuringARowAboveTheOffsetReportsTheAdjustment() throws {
        var estimated = configuration
        estimated.estimatedHeight = 44
        let layout = try prepared(estimated, sizes: sizes, viewport: viewport)
        // Estimates: y = 30, 82, 134.
        #expect(layout.attributesForItem(at: 2)?.frame.minY == 134)
        // Row 0 (top 30) is above the offset 100: it grows 44 → 60, so the offset moves by 16.
        #expect(layout.setMeasuredSize(Size(width: 288, height: 60), forItemAt: 0, contentOffset: Point(x: 0, y: 100)) == 16)
        // Row 1 now at 30 + 60 + 8 = 98, row 2 at 98 + 44 + 8 = 150.
        #expect(layout.attributesForItem(at: 1)?.frame.minY == 98)
        #expect(indices(layout.attributesForElements(in: Rect(x: 0, y: 150, width: 320, height: 1))) == [2])
        // Row 2 (top 150) is below the offset 100: no adjustment; the content grows by 30 − 44 = −14.
        let before = layout.contentSize.height
        #expect(layout.setMeasuredSize(Size(width: 288, height: 30), forItemAt: 2, contentOffset: Point(x: 0, y: 100)) == 0)
        #expect(layout.contentSize.height == before - 14)
    }

    @Test func prependKeepsExistingRowsAndShiftsThemByTheNewRows() throws {
        let layout = try prepared(configuration, sizes: sizes, viewport: viewport)
        layout.prepend(sizes: [Size(width: 1, height: 40), Size(width: 1, height: 12)])
        // New rows: 30..70, 78..90; old row 0 now item 2 at 90 + 8 = 98.
        #expect(cellFrames(layout).map(\.minY) == [30, 78, 98, 156, 264])
        layout.removeFirst(3)
        // Old rows 1 and 2 become items 0 and 1: y = 30 and 30 + 100 + 8 = 138.
        #expect(cellFrames(layout).map(\.minY) == [30, 138])
        #expect(layout.contentSize.height == 20 + 10 + 100 + 8 + 30 + 10 + 30)
    }
}

@Suite struct LayoutValidationTests {
    @Test(arguments: [
        (LayoutConfiguration(kind: .grid, columns: 0), Size(width: 320, height: 480), "columns"),
        (LayoutConfiguration(kind: .waterfall, columns: -2), Size(width: 320, height: 480), "columns"),
        (LayoutConfiguration(kind: .grid, spacing: .nan), Size(width: 320, height: 480), "spacing"),
        (LayoutConfiguration(kind: .grid, columns: 3, spacing: 200), Size(width: 320, height: 480), "spacing"),
        (LayoutConfiguration(kind: .mosaic, spacing: 400), Size(width: 320, height: 480), "big-height"),
        (LayoutConfiguration(kind: .mosaic, spacing: 330, bigHeight: 400), Size(width: 320, height: 480), "spacing"),
        (LayoutConfiguration(kind: .list, insets: EdgeInsets(all: 200)), Size(width: 320, height: 480), "insets"),
        (LayoutConfiguration(kind: .list, insets: EdgeInsets(top: -1, left: 0, bottom: 0, right: 0)), Size(width: 320, height: 480), "insets"),
        (LayoutConfiguration(kind: .carousel), Size(width: 320, height: 480), "item-size"),
        (LayoutConfiguration(kind: .carousel, itemSize: Size(width: 400, height: 10)), Size(width: 320, height: 480), "item-size"),
        (LayoutConfiguration(kind: .grid, itemSize: Size(width: -5, height: 10)), Size(width: 320, height: 480), "item-size"),
        (LayoutConfiguration(kind: .flow), Size(width: 0, height: 480), "viewport"),
        (LayoutConfiguration(kind: .strip), Size(width: 320, height: .infinity), "viewport"),
        (LayoutConfiguration(kind: .list, estimatedHeight: 0), Size(width: 320, height: 480), "estimated-height"),
    ])
    func badParameterThrowsErrorNamingIt(configuration: LayoutConfiguration, viewport: Size, name: String) {
        #expect {
            let layout = try configuration.makeLayout()
            try layout.prepare(sizes: [Size(width: 10, height: 10)], viewport: viewport)
        } throws: { error in
            guard case LayoutError.invalidParameter(let actual, _, _) = error else { return false }
            return actual == name
        }
    }

    @Test func negativeOrNaNIntrinsicSizeIsNamedByIndex() throws {
        let layout = try LayoutConfiguration(kind: .waterfall).makeLayout()
        #expect(throws: LayoutError.self) {
            try layout.prepare(sizes: [Size(width: 1, height: 1), Size(width: .nan, height: 1)], viewport: Size(width: 320, height: 480))
        }
        do {
            try layout.prepare(sizes: [Size(width: 1, height: 1), Size(width: 1, height: -3)], viewport: Size(width: 320, height: 480))
        } catch LayoutError.invalidParameter(let name, _, _) {
            #expect(name == "sizes[1]")
        }
    }
}
