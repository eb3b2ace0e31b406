import FeedModel

/// Page dropping, as Paging 3's `maxSize`: when a load at one end pushes the loaded count over
/// ``FeedController/Configuration/maxLoadedItems``, whole pages at the other end are unloaded.
///
/// A page is dropped only when at least the prefetch distance stays loaded beyond the viewport after
/// it (Paging 3's `dropEventOrNull`: "Do not drop pages that would fulfill prefetchDistance"), so
/// the edge left behind does not immediately trigger a load back (a load needs fewer than that), and only when that end has no load
/// in flight or waiting (its cursor would no longer match the list). The dropped end becomes loadable.
/// The prefetch distance is counted in items: `.items(d)` is `d`; a distance in points or screenfuls
/// is converted with the number of items the last viewport showed per screen, rounded up.
extension FeedController {
    mutating func dropPagesAtTop(in running: inout Running) {
        guard let maxLoaded = configuration.maxLoadedItems, items.count > maxLoaded, running.top.allowsDropping,
            let viewport = running.geometry.viewport, let firstVisible = viewport.firstVisibleIndex
        else { return }
        let margin = prefetchMarginInItems(viewport)
        var dropped = 0
        var pages = 0
        while items.count - dropped > maxLoaded, pages < pageSizes.count - 1 {
            let next = dropped + pageSizes[pages]
            // After the drop at least `margin` items must stay above the first visible one, so the
            // drop does not fire a prepend (PageFetcherSnapshotState.dropEventOrNull: no drop when
            // itemsAfterDrop < prefetchDistance).
            guard firstVisible - next >= margin else { break }
            dropped = next
            pages += 1
        }
        guard dropped > 0 else { return }
        items.removeFirst(dropped)
        pageSizes.removeFirst(pages)
        counters.pagesDropped += pages
        emit(.dropFirst(dropped), in: &running)
        running.top = .idle
    }

    mutating func dropPagesAtBottom(in running: inout Running) {
        guard let maxLoaded = configuration.maxLoadedItems, items.count > maxLoaded, running.bottom.allowsDropping,
            let viewport = running.geometry.viewport, let lastVisible = viewport.lastVisibleIndex
        else { return }
        let margin = prefetchMarginInItems(viewport)
        var dropped = 0
        var pages = 0
        while items.count - dropped > maxLoaded, pages < pageSizes.count - 1 {
            let next = dropped + pageSizes[pageSizes.count - 1 - pages]
            // After the drop at least `margin` items must remain below the last visible one.
            guard (items.count - next) - 1 - lastVisible >= margin else { break }
            dropped = next
            pages += 1
        }
        guard dropped > 0 else { return }
        items.removeLast(dropped)
        pageSizes.removeLast(pages)
        counters.pagesDropped += pages
        emit(.dropLast(dropped), in: &running)
        running.bottom = .idle
    }

    /// The prefetch distance in items for the last viewport.
    func prefetchMarginInItems(_ viewport: Viewport) -> Int {
        let screens: Double
        switch configuration.prefetchDistance {
        case .items(let distance):
            return distance
        case .points(let points):
            screens = viewport.viewportLength > 0 ? points / viewport.viewportLength : 0
        case .screenfuls(let count):
            screens = count
        }
        guard let first = viewport.firstVisibleIndex, let last = viewport.lastVisibleIndex else { return 0 }
        return Int((screens * Double(last - first + 1)).rounded(.up))
    }
}
