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

    /// A caller that appends in place (``Virtualizer/releaseItems()``, then
    /// ``Virtualizer/holdItems(_:readingFirst:)``) gets the answers the virtualizer gave holding its
    /// last update's list, up to the next update: the cells appended to the layout meanwhile hit
    /// no item, as they did when the old list was held; the old ones hit their items.
    @Test func anAppendedListHeldUntilTheNextUpdateAnswersAsTheOldList() throws {
        let old = virtualizerTestItems(count: 2)
        let new = virtualizerTestItems(count: 5)
        func virtualizer(appendingInPlace: Bool) throws -> Virtualizer {
            let layout = VirtualizerTestLayout.list(heights: [100, 100], viewport: viewport)
            let v = try Virtualizer(layout: layout, configuration: .uikit)
            _ = v.update(contentOffset: .zero, viewport: viewport, items: old)
            layout.append(sizes: Array(repeating: Size(width: viewport.width, height: 100), count: 3))
            if appendingInPlace {
                v.releaseItems()
                v.holdItems(new, readingFirst: old.count)
            }
            return v
        }
        let inPlace = try virtualizer(appendingInPlace: true)
        let holdingOld = try virtualizer(appendingInPlace: false)
        for y in stride(from: 10.0, to: 300, by: 50) {
            let point = Point(x: 10, y: y)
            #expect(inPlace.element(at: point) == holdingOld.element(at: point), "y = \(y)")
        }
        #expect(inPlace.element(at: Point(x: 10, y: 150))?.itemID == 1001)
        #expect(inPlace.element(at: Point(x: 10, y: 250))?.itemID == nil)  // item 2: appended, not updated yet
        #expect(inPlace.visibleElements.map(\.itemID) == holdingOld.visibleElements.map(\.itemID))
        // The next update reads the whole list.
        _ = inPlace.update(contentOffset: .zero, viewport: viewport, items: new)
        #expect(inPlace.element(at: Point(x: 10, y: 250))?.itemID == 1002)
    }
}
