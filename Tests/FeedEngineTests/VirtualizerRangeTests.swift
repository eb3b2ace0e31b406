import FeedLayout
import FeedModel
import Testing

@testable import FeedEngine

@Suite struct VirtualizerRangeTests {
    let viewport = Size(width: 320, height: 800)

    private func virtualizer(_ configuration: RangeConfiguration, count: Int = 100) throws -> Virtualizer {
        let layout = VirtualizerTestLayout.list(heights: Array(repeating: 100, count: count), viewport: viewport)
        return try Virtualizer(layout: layout, configuration: configuration)
    }

    @Test func screenfulExtentsFollowTheScrollDirectionLikeTexture() throws {
        let v = try virtualizer(.texture)  // prefetch 1.0 ahead, 0.5 behind
        let items = virtualizerTestItems(count: 100)
        let down = v.update(
            contentOffset: Point(x: 0, y: 1000), viewport: viewport, items: items, scrollVelocity: Point(x: 0, y: 500))
        // Forward: 0.5 × 800 = 400 above (1000 − 400 = 600), 1.0 × 800 = 800 below (1800 + 800 = 2600).
        #expect(down.direction == .forward)
        #expect(down.prefetchRect == Rect(x: 0, y: 600, width: 320, height: 2000))
        // Preload: 1.5 × 800 = 1200 above (−200), 2.5 × 800 = 2000 below (3800).
        #expect(down.preloadRect == Rect(x: 0, y: -200, width: 320, height: 4000))

        let up = v.update(
            contentOffset: Point(x: 0, y: 1000), viewport: viewport, items: items, scrollVelocity: Point(x: 0, y: -500))
        // Backward: leading 800 above (200), trailing 400 below (2200).
        #expect(up.direction == .backward)
        #expect(up.prefetchRect == Rect(x: 0, y: 200, width: 320, height: 2000))
    }

    @Test func pointExtentsGrowOnlyAlongTheHorizontalAxisForACarousel() throws {
        let layout = VirtualizerTestLayout(elements: [], viewport: Size(width: 400, height: 300))
        let v = try Virtualizer(
            layout: layout,
            configuration: RangeConfiguration(
                prefetch: .points(leading: 100, trailing: 30),
                preload: .viewportOnly), axis: .horizontal)
        let update = v.update(
            contentOffset: Point(x: 500, y: 0), viewport: Size(width: 400, height: 300), items: [],
            scrollVelocity: Point(x: 10, y: -999))
        // Rightward: 30 to the left (470), 100 to the right (900 + 100 = 1000); y untouched.
        #expect(update.prefetchRect == Rect(x: 470, y: 0, width: 530, height: 300))
        #expect(update.preloadRect == Rect(x: 500, y: 0, width: 400, height: 300))
    }

    @Test func itemExtentsCoverTheNextAndPreviousItemsInIndexOrder() throws {
        let v = try virtualizer(RangeConfiguration(prefetch: .items(leading: 2, trailing: 1), preload: .viewportOnly))
        let update = v.update(
            contentOffset: Point(x: 0, y: 250), viewport: Size(width: 320, height: 300),
            items: virtualizerTestItems(count: 100), scrollVelocity: Point(x: 0, y: 1))
        // Viewport 250..<550 holds items 2 (200..300) to 5 (500..600). Two ahead: items 6, 7 end
        // at 800. One behind: item 1 starts at 100.
        #expect(update.prefetchRect == Rect(x: 0, y: 100, width: 320, height: 700))
        #expect(v.liveCells.map(\.itemID) == (1...7).map { Int64(1000 + $0) })
    }

    @Test func itemExtentsStopAtTheEndsOfTheFeed() throws {
        let v = try virtualizer(
            RangeConfiguration(prefetch: .items(leading: 5, trailing: 5), preload: .viewportOnly),
            count: 4)
        let update = v.update(
            contentOffset: .zero, viewport: Size(width: 320, height: 150), items: virtualizerTestItems(count: 4))
        // Items 0 and 1 visible; 5 ahead only reaches item 3 (ends at 400); none before item 0.
        #expect(update.prefetchRect == Rect(x: 0, y: 0, width: 320, height: 400))
    }

    @Test func directionComesFromVelocityThenOffsetChangeThenStaysAsItWas() throws {
        let v = try virtualizer(.uikit)
        let items = virtualizerTestItems(count: 100)
        #expect(v.update(contentOffset: Point(x: 0, y: 500), viewport: viewport, items: items).direction == .forward)
        #expect(v.update(contentOffset: Point(x: 0, y: 400), viewport: viewport, items: items).direction == .backward)
        // No velocity and no movement: keeps backward.
        #expect(v.update(contentOffset: Point(x: 0, y: 400), viewport: viewport, items: items).direction == .backward)
        // Velocity wins over the offset change.
        let update = v.update(
            contentOffset: Point(x: 0, y: 300), viewport: viewport, items: items, scrollVelocity: Point(x: 0, y: 20))
        #expect(update.direction == .forward)
        // uikit: half a screen (400) ahead below, nothing above.
        #expect(update.prefetchRect == Rect(x: 0, y: 300, width: 320, height: 1200))
    }

    @Test func presetsCarryTheirFrameworksDocumentedDefaults() {
        #expect(RangeConfiguration.presetNames == ["flashlist", "paging3", "react-window", "texture", "uikit"])
        // ASAbstractLayoutController: display {1.0, 0.5}, preload {2.5, 1.5}.
        #expect(RangeConfiguration.texture.prefetch == .screenfuls(leading: 1.0, trailing: 0.5))
        #expect(RangeConfiguration.texture.preload == .screenfuls(leading: 2.5, trailing: 1.5))
        // react-window overscanCount 2 (1 behind while scrolling); InfiniteLoader threshold 15.
        #expect(RangeConfiguration.reactWindow.prefetch == .items(leading: 2, trailing: 1))
        #expect(RangeConfiguration.reactWindow.preload == .items(leading: 15, trailing: 15))
        // FlashList drawDistance 250 on native.
        #expect(RangeConfiguration.flashlist.prefetch == .points(leading: 250, trailing: 250))
        // Paging 3: prefetchDistance = pageSize.
        #expect(RangeConfiguration.paging3(pageSize: 30).preload == .items(leading: 30, trailing: 30))
        for name in RangeConfiguration.presetNames {
            #expect(RangeConfiguration.preset(named: name)?.name == name)
            #expect(RangeConfiguration.preset(named: name)?.isValid == true)
        }
    }

    @Test(arguments: [
        (RangeConfiguration(prefetch: .points(leading: -1, trailing: 0), preload: .viewportOnly), 5, 50, "prefetch"),
        (
            RangeConfiguration(prefetch: .viewportOnly, preload: .screenfuls(leading: .nan, trailing: 0)), 5, 50,
            "preload"
        ),
        (RangeConfiguration(prefetch: .viewportOnly, preload: .items(leading: 0, trailing: -2)), 5, 50, "preload"),
        (RangeConfiguration.uikit, -1, 50, "reusePoolLimit"),
        (RangeConfiguration.uikit, 5, 0, "rowBatchLimit"),
    ])
    func invalidConfigurationsAreRejectedNamingTheParameter(
        configuration: RangeConfiguration, poolLimit: Int, batchLimit: Int, parameter: String
    ) {
        let layout = VirtualizerTestLayout.list(heights: [100], viewport: viewport)
        #expect {
            _ = try Virtualizer(
                layout: layout, configuration: configuration, reusePoolLimit: poolLimit, rowBatchLimit: batchLimit)
        } throws: { error in
            guard case .invalidParameter(let name, _, _) = error as? VirtualizerConfigurationError else { return false }
            return name == parameter
        }
    }
}
