import FeedLayout
import FeedModel
import Testing

@testable import FeedEngine

@Suite struct VirtualizerHitTestTests {
    let viewport = Size(width: 320, height: 300)

    @Test func aPointHitsTheItemWhoseFrameContainsItHalfOpen() throws {
        let layout = VirtualizerTestLayout.list(heights: Array(repeating: 100, count: 10), viewport: viewport)
        let v = try Virtualizer(layout: layout, configuration: .uikit)
        _ = v.update(contentOffset: .zero, viewport: viewport, items: virtualizerTestItems(count: 10))
        // Item 2 spans 200..<300; y = 300 belongs to item 3.
        #expect(v.element(at: Point(x: 10, y: 250))?.itemID == 1002)
        #expect(v.element(at: Point(x: 10, y: 300))?.indexPath == IndexPath(item: 3))
        #expect(v.element(at: Point(x: 10, y: 1000)) == nil)  // below the content (10 × 100)
        #expect(v.element(at: Point(x: 320, y: 50)) == nil)  // right edge is outside
    }

    @Test func theTopmostElementByZIndexWinsAndHiddenOnesAreSkipped() throws {
        let header = LayoutAttributes(
            indexPath: IndexPath(item: 0), category: .supplementary(.header),
            frame: Rect(x: 0, y: 0, width: 320, height: 60), zIndex: 10)
        let cell0 = LayoutAttributes(indexPath: IndexPath(item: 0), frame: Rect(x: 0, y: 0, width: 320, height: 100))
        // Cell 1 overlaps cell 0 (40..140) at the same zIndex: later in layout order is on top.
        let cell1 = LayoutAttributes(indexPath: IndexPath(item: 1), frame: Rect(x: 0, y: 40, width: 320, height: 100))
        // Cell 2 would be on top of everything but is hidden.
        let cell2 = LayoutAttributes(
            indexPath: IndexPath(item: 2), frame: Rect(x: 0, y: 0, width: 320, height: 300), zIndex: 99,
            isHidden: true)
        let layout = VirtualizerTestLayout(elements: [header, cell0, cell1, cell2], viewport: viewport)
        let v = try Virtualizer(layout: layout, configuration: .uikit)
        _ = v.update(contentOffset: .zero, viewport: viewport, items: virtualizerTestItems(count: 3))

        #expect(v.element(at: Point(x: 5, y: 50))?.category == .supplementary(.header))  // zIndex 10 over 0
        #expect(v.element(at: Point(x: 5, y: 70))?.itemID == 1001)  // cells 0 and 1 tie: 1 is later
        #expect(v.element(at: Point(x: 5, y: 20))?.category == .supplementary(.header))
        #expect(v.element(at: Point(x: 5, y: 200)) == nil)  // only the hidden cell 2 is there
    }

    @Test func aScaledElementIsHitWhereItIsDrawn() throws {
        // 100 × 100 at (100, 100), scaled 1.5 about its center (150, 150): drawn 75..<225.
        let cell = LayoutAttributes(
            indexPath: IndexPath(item: 0), frame: Rect(x: 100, y: 100, width: 100, height: 100),
            transform: Transform(scaleX: 1.5, scaleY: 1.5))
        let layout = VirtualizerTestLayout(elements: [cell], viewport: viewport)
        let v = try Virtualizer(layout: layout, configuration: .uikit)
        _ = v.update(contentOffset: .zero, viewport: viewport, items: virtualizerTestItems(count: 1))
        #expect(v.element(at: Point(x: 80, y: 80))?.frame == Rect(x: 75, y: 75, width: 150, height: 150))
        #expect(v.element(at: Point(x: 224, y: 150)) != nil)
        #expect(v.element(at: Point(x: 225, y: 150)) == nil)
    }

    @Test func aTapSelectsTheItemAndATapOnAHeaderKeepsTheSelection() throws {
        let layout = VirtualizerTestLayout.list(
            heights: Array(repeating: 100, count: 10), viewport: viewport, headerHeight: 50)
        let v = try Virtualizer(layout: layout, configuration: .uikit)
        _ = v.update(contentOffset: Point(x: 0, y: 100), viewport: viewport, items: virtualizerTestItems(count: 10))
        // Items start under the 50 pt header: item 1 spans 150..<250.
        let hit = v.tap(at: Point(x: 100, y: 200))
        #expect(hit?.indexPath == IndexPath(item: 1))
        #expect(hit?.itemID == 1001)
        #expect(v.selection?.itemID == 1001)
        #expect(v.tap(at: Point(x: 100, y: 10))?.category == .supplementary(.header))
        #expect(v.selection?.itemID == 1001)
        #expect(v.counters.taps == 1)
    }

    /// A caller that edits its list in place (``Virtualizer/editItems(_:)``) after changing the
    /// layout the same way: until the next update, a hit test maps the layout's index to the edited
    /// list (UIKit's `indexPathForItem(at:)` reads the updated layout, the app its updated data
    /// source), and ``Virtualizer/visibleElements`` still lists what the last update found (from its
    /// own record, not the edited list).
    @Test func aListEditedInPlaceIsReadByHitTestsAndVisibleElementsKeepsTheLastUpdate() throws {
        let size = Size(width: viewport.width, height: 100)
        // An append: the appended cell under the point is its item.
        let appendLayout = VirtualizerTestLayout.list(heights: [100, 100], viewport: viewport)
        let appending = try Virtualizer(layout: appendLayout, configuration: .uikit)
        _ = appending.update(contentOffset: .zero, viewport: viewport, items: virtualizerTestItems(count: 2))
        appendLayout.append(sizes: Array(repeating: size, count: 3))
        appending.editItems { virtualizerTestItems(count: 5) }
        #expect(appending.element(at: Point(x: 10, y: 250))?.itemID == 1002)
        #expect(appending.visibleElements.map(\.itemID) == [1000, 1001])

        // A drop at the top: index 0 is now item 1002; the visible elements are still the last
        // update's (reading the shortened list by the old indices would be wrong, or out of range).
        let items = virtualizerTestItems(count: 5)
        let dropLayout = VirtualizerTestLayout.list(heights: Array(repeating: 100, count: 5), viewport: viewport)
        let dropping = try Virtualizer(layout: dropLayout, configuration: .uikit)
        _ = dropping.update(contentOffset: Point(x: 0, y: 200), viewport: viewport, items: items)
        let before = dropping.visibleElements
        #expect(before.map(\.itemID) == [1002, 1003, 1004])
        dropLayout.removeFirst(2)
        dropping.editItems { Array(items.dropFirst(2)) }
        #expect(dropping.visibleElements == before)
        #expect(dropping.element(at: Point(x: 10, y: 50))?.itemID == 1002)
        #expect(dropping.element(at: Point(x: 10, y: 250))?.itemID == 1004)
        #expect(dropping.element(at: Point(x: 10, y: 350)) == nil)  // past the 3 items left
        // The next update reads the edited list.
        _ = dropping.update(contentOffset: .zero, viewport: viewport, items: Array(items.dropFirst(2)))
        #expect(dropping.visibleElements.map(\.itemID) == [1002, 1003, 1004])
    }
}
