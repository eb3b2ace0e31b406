import FeedEngine
import FeedLayout
import FeedModel
import Testing

/// Scroll anchoring on a stacked list of 100 pt items in a 320 × 800 pt viewport.
@Suite struct AnchoringTests {
    static let viewport = Size(width: 320, height: 800)

    static func layout(_ count: Int) throws -> ControllerStackLayout {
        let layout = ControllerStackLayout()
        try layout.prepare(sizes: Array(repeating: Size(width: 320, height: 100), count: count), viewport: viewport)
        return layout
    }

    @Test func anchorIsTheFirstFullyVisibleItem() throws {
        let layout = try Self.layout(20)
        // Offset 150: item 1 spans 100..<200 (cut), item 2 spans 200..<300 (whole).
        let anchor = ScrollAnchoring.anchorIndex(
            in: layout, contentOffset: Point(x: 0, y: 150), viewport: Self.viewport, among: 0..<20)
        #expect(anchor == 2)
    }

    // Prepend, drop, append, replace, empty and viewport cases run against the real ListLayout in
    // AnchoringListRealLayoutTests and AnchoringGridRealLayoutTests.
}
