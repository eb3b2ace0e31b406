import Foundation
import FeedLayout
import Testing

/// Refresh, header and footer (load-more) views of the vertical layouts, frames worked out by hand.
@Suite struct SupplementaryViewTests {
    /// Grid, 3 columns in 320 wide, spacing 10: side (320 − 2·10) / 3 = 100. Header 40, footer 44,
    /// refresh 50, 7 items → rows at y = 40, 150, 260; content 40 + 3·100 + 2·10 + 44 = 404.
    @Test func gridPlacesRefreshAboveHeaderAtTopAndFooterAtTheEnd() throws {
        let configuration = LayoutConfiguration(
            kind: .grid, spacing: 10, headerHeight: 40, footerHeight: 44, refreshHeight: 50)
        let layout = try prepared(configuration, sizes: Array(repeating: Size(width: 1, height: 1), count: 7), viewport: Size(width: 320, height: 600))
        #expect(layout.contentSize == Size(width: 320, height: 404))
        #expect(layout.attributesForSupplementaryView(ofKind: .refresh)?.frame == Rect(x: 0, y: -50, width: 320, height: 50))
        #expect(layout.attributesForSupplementaryView(ofKind: .header)?.frame == Rect(x: 0, y: 0, width: 320, height: 40))
        #expect(layout.attributesForSupplementaryView(ofKind: .footer)?.frame == Rect(x: 0, y: 360, width: 320, height: 44))
        // [−50, 10): the refresh view and the header; the first row starts at 40.
        #expect(indices(layout.attributesForElements(in: Rect(x: 0, y: -50, width: 320, height: 60))) == [-4, -1])
        // [350, 450): item 6 (260..<360) and the footer.
        let bottom = layout.attributesForElements(in: Rect(x: 0, y: 350, width: 320, height: 100))
        #expect(indices(bottom) == [6, -2])
        #expect(bottom.last?.category == .supplementary(.footer))
        #expect(bottom.last?.category.categoryName == "supplementary")
        #expect(bottom.last?.isHidden == false)
        // At the end of the feed the load-more view is hidden in place.
        layout.setSupplementaryView(ofKind: .footer, hidden: true)
        let hidden = layout.attributesForSupplementaryView(ofKind: .footer)
        #expect(hidden?.isHidden == true && hidden?.frame == Rect(x: 0, y: 360, width: 320, height: 44))
        #expect(layout.contentSize == Size(width: 320, height: 404))
    }

    /// Mosaic, spacing 4, B = 200 in 320 wide: w = (320 − 4) / 2 = 158. Header 30 moves the first
    /// group to y = 30; one item → content 30 + 200 + footer 20 = 250.
    @Test func mosaicHeaderPushesTheGroupsDownAndFooterEndsTheContent() throws {
        let configuration = LayoutConfiguration(kind: .mosaic, spacing: 4, headerHeight: 30, footerHeight: 20)
        let layout = try prepared(configuration, sizes: [Size(width: 1, height: 1)], viewport: Size(width: 320, height: 600))
        expectFrames(layout, [Rect(x: 0, y: 30, width: 158, height: 200)])
        #expect(layout.contentSize == Size(width: 320, height: 250))
        #expect(layout.attributesForSupplementaryView(ofKind: .footer)?.frame == Rect(x: 0, y: 230, width: 320, height: 20))
        #expect(layout.attributesForSupplementaryView(ofKind: .refresh) == nil)
    }

    /// Waterfall, 2 columns in 210 wide, spacing 10: width 100; a 100 × 100 item is 100 tall at
    /// y = header 20; content 120 + footer 30 = 150.
    @Test func waterfallFooterFollowsTheLowestColumn() throws {
        let configuration = LayoutConfiguration(kind: .waterfall, columns: 2, spacing: 10, headerHeight: 20, footerHeight: 30)
        let layout = try prepared(configuration, sizes: [Size(width: 100, height: 100)], viewport: Size(width: 210, height: 300))
        expectFrames(layout, [Rect(x: 0, y: 20, width: 100, height: 100)])
        #expect(layout.contentSize == Size(width: 210, height: 150))
        #expect(layout.attributesForSupplementaryView(ofKind: .footer)?.frame == Rect(x: 0, y: 120, width: 210, height: 30))
    }

    /// List: header 20, two rows of 100 with spacing 5, footer 30, refresh 50 → content 255.
    @Test func listHasARefreshViewAboveTheContent() throws {
        let configuration = LayoutConfiguration(kind: .list, spacing: 5, headerHeight: 20, footerHeight: 30, refreshHeight: 50)
        let layout = try prepared(configuration, sizes: Array(repeating: Size(width: 10, height: 100), count: 2), viewport: Size(width: 300, height: 600))
        #expect(layout.contentSize == Size(width: 300, height: 255))
        #expect(indices(layout.allAttributes()) == [-4, -1, 0, 1, -2])
        #expect(layout.attributesForSupplementaryView(ofKind: .footer)?.frame == Rect(x: 0, y: 225, width: 300, height: 30))
    }

    /// The element kinds are UIKit's: `UICollectionView.elementKindSectionHeader` is the string
    /// "UICollectionElementKindSectionHeader", `elementKindSectionFooter`
    /// "UICollectionElementKindSectionFooter" (developer.apple.com/documentation/uikit/uicollectionview/elementkindsectionheader).
    @Test func elementKindsAreUIKitsStrings() {
        #expect(SupplementaryKind.header.elementKind == "UICollectionElementKindSectionHeader")
        #expect(SupplementaryKind.footer.elementKind == "UICollectionElementKindSectionFooter")
        #expect(ElementCategory.supplementary(.refresh).elementKind == "FeedSimElementKindRefresh")
        #expect(ElementCategory.cell.elementKind == nil)
    }
}

/// The SVG drawing: paint order and what it includes.
@Suite struct LayoutSVGTests {
    /// Labels of the drawn elements, in paint order.
    func paintedLabels(_ svg: String) -> [String] {
        svg.components(separatedBy: "dominant-baseline=\"middle\">").dropFirst().map { String($0.prefix { $0 != "<" }) }
    }

    /// Carousel 100 × 100 items, spacing 10, zoom 0.5 in a 300-wide viewport at offset 110
    /// (item 1 centred). Half width 150; item i's centre is 150 + 110·i, the viewport's 260:
    /// distances 110, 0, 110, 220, 330 → zIndex round(1000·max(0, 1 − d/150)) = 267, 1000, 267, 0, 0.
    /// Painted lowest first, index order among equals: 3, 4, 0, 2, 1 (the zoomed item on top).
    @Test func svgPaintsInZIndexOrder() throws {
        let configuration = LayoutConfiguration(kind: .carousel, itemSize: Size(width: 100, height: 100), spacing: 10, zoom: 0.5)
        let layout = try prepared(configuration, sizes: Array(repeating: .zero, count: 5), viewport: Size(width: 300, height: 200))
        let bounds = Rect(x: 110, y: 0, width: 300, height: 200)
        layout.invalidateLayout(forBoundsChange: bounds)
        #expect((0..<5).compactMap { layout.attributesForItem(at: $0)?.zIndex } == [267, 1000, 267, 0, 0])
        #expect(paintedLabels(layout.svgDrawing(viewport: bounds)) == ["3", "4", "0", "2", "1"])
    }

    /// The refresh view (y −50) is inside the drawing: the view box starts 10 pt (the margin) above it.
    @Test func svgIncludesTheRefreshViewAndMarksAHiddenFooter() throws {
        let configuration = LayoutConfiguration(kind: .grid, spacing: 10, headerHeight: 40, footerHeight: 44, refreshHeight: 50)
        let layout = try prepared(configuration, sizes: Array(repeating: .zero, count: 2), viewport: Size(width: 320, height: 600))
        layout.setSupplementaryView(ofKind: .footer, hidden: true)
        let svg = layout.svgDrawing(viewport: Rect(x: 0, y: 0, width: 320, height: 600))
        #expect(svg.contains("viewBox=\"-10 -60 "))
        #expect(paintedLabels(svg) == ["refresh", "header", "0", "1", "footer (hidden)"])
    }
}
