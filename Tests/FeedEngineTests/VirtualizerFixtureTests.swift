import FeedLayout
import FeedModel
import Testing

@testable import FeedEngine

/// A brute-force layout for the virtualizer's tests: `columns` columns of equal width; item `i`
/// sits in column `i % columns` of row `i / columns`; a row is as tall as its tallest item; an
/// optional header of `headerHeight` points sits above the first row. Queries filter every
/// element, so it is its own oracle.
final class VirtualizerTestLayout: CollectionLayout {
    let columns: Int
    let headerHeight: Double
    private(set) var sizes: [Size] = []
    private(set) var viewport: Size = .zero
    private(set) var elements: [LayoutAttributes] = []
    /// Overrides: when set, `elements` is exactly this list (hit-test fixtures).
    private var fixed: [LayoutAttributes]?

    init(columns: Int = 1, headerHeight: Double = 0) {
        self.columns = columns
        self.headerHeight = headerHeight
    }

    /// A layout holding exactly `elements` (cells with `indexPath.item` < `itemCount`).
    init(elements: [LayoutAttributes], viewport: Size) {
        columns = 1
        headerHeight = 0
        fixed = elements
        self.elements = elements
        self.viewport = viewport
        sizes = Array(repeating: .zero, count: elements.filter { $0.category == .cell }.count)
    }

    /// A one-column list of the given heights in a viewport of `viewport`.
    static func list(heights: [Double], viewport: Size, headerHeight: Double = 0) -> VirtualizerTestLayout {
        let layout = VirtualizerTestLayout(columns: 1, headerHeight: headerHeight)
        try! layout.prepare(sizes: heights.map { Size(width: viewport.width, height: $0) }, viewport: viewport)
        return layout
    }

    func prepare(sizes: [Size], viewport: Size) throws {
        self.sizes = sizes
        self.viewport = viewport
        rebuild()
    }

    func append(sizes: [Size]) {
        self.sizes += sizes
        rebuild()
    }

    func prepend(sizes: [Size]) {
        self.sizes = sizes + self.sizes
        rebuild()
    }

    func removeFirst(_ n: Int) {
        sizes.removeFirst(n)
        rebuild()
    }

    func removeLast(_ n: Int) {
        sizes.removeLast(n)
        rebuild()
    }

    private func rebuild() {
        guard fixed == nil else { return }
        var result: [LayoutAttributes] = []
        if headerHeight > 0 {
            result.append(
                LayoutAttributes(
                    indexPath: IndexPath(item: 0), category: .supplementary(.header),
                    frame: Rect(x: 0, y: 0, width: viewport.width, height: headerHeight)))
        }
        let width = viewport.width / Double(columns)
        var y = headerHeight
        var rowStart = 0
        while rowStart < sizes.count {
            let rowEnd = min(rowStart + columns, sizes.count)
            var rowHeight = 0.0
            for index in rowStart..<rowEnd {
                rowHeight = max(rowHeight, sizes[index].height)
                result.append(
                    LayoutAttributes(
                        indexPath: IndexPath(item: index),
                        frame: Rect(
                            x: Double(index - rowStart) * width, y: y, width: width, height: sizes[index].height)))
            }
            y += rowHeight
            rowStart = rowEnd
        }
        elements = result
    }

    var itemCount: Int { sizes.count }

    var contentSize: Size {
        Size(width: viewport.width, height: elements.map(\.frame.maxY).max() ?? 0)
    }

    func attributesForElements(in rect: Rect) -> [LayoutAttributes] {
        elements.filter { $0.frame.intersects(rect) }
    }

    func attributesForItem(at index: Int) -> LayoutAttributes? {
        elements.first { $0.category == .cell && $0.indexPath.item == index }
    }

    func attributesForSupplementaryView(ofKind kind: SupplementaryKind) -> LayoutAttributes? {
        elements.first { $0.category == .supplementary(kind) }
    }

    func shouldInvalidateLayout(forBoundsChange newBounds: Rect) -> Bool { false }
    func invalidateLayout(forBoundsChange newBounds: Rect) {}
    func targetContentOffset(forProposed proposed: Point, velocity: Point) -> Point { proposed }
    func setMeasuredSize(_ size: Size, forItemAt index: Int, contentOffset: Point) -> Double { 0 }

    /// Frames of all cells, by index.
    var cellFrames: [Rect] {
        elements.filter { $0.category == .cell }.sorted { $0.indexPath < $1.indexPath }.map(\.frame)
    }
}

/// Item stubs with ids 1000 + index (so ids never equal indices), kinds from `kind(index)`.
func virtualizerTestItems(count: Int, height: Double = 100, kind: (Int) -> String = { _ in "post" }) -> [Item] {
    (0..<count).map { index in
        Item(id: Int64(1000 + index), publishedAt: Int64(10_000 - index), kind: kind(index), width: 320, height: height)
    }
}

/// A row for an item id.
func virtualizerTestRow(_ id: Int64) -> ItemRow {
    ItemRow(id: id, title: "item \(id)", author: "a", payload: "{}")
}

@Suite struct VirtualizerFixtureTests {
    @Test func gridFixturePlacesItemsInRowsAsTallAsTheirTallestItem() throws {
        let layout = VirtualizerTestLayout(columns: 2, headerHeight: 40)
        try layout.prepare(
            sizes: [Size(width: 1, height: 100), Size(width: 1, height: 150), Size(width: 1, height: 80)],
            viewport: Size(width: 300, height: 500))
        // Row 0 starts under the 40 pt header; row 1 starts at 40 + max(100, 150) = 190.
        #expect(layout.attributesForItem(at: 0)?.frame == Rect(x: 0, y: 40, width: 150, height: 100))
        #expect(layout.attributesForItem(at: 1)?.frame == Rect(x: 150, y: 40, width: 150, height: 150))
        #expect(layout.attributesForItem(at: 2)?.frame == Rect(x: 0, y: 190, width: 150, height: 80))
        #expect(layout.contentSize.height == 270)  // 190 + 80
    }
}
