import FeedEngine
import FeedLayout
import FeedModel

extension ReplaySession {
    /// The viewport rect in content coordinates, points.
    var viewportRect: Rect { Rect(origin: scroll.contentOffset, size: scroll.viewport) }

    /// Lets the layout follow an offset change when its attributes depend on it (carousel zoom).
    func invalidateForBounds() {
        let bounds = viewportRect
        if layout.shouldInvalidateLayout(forBoundsChange: bounds) {
            layout.invalidateLayout(forBoundsChange: bounds)
        }
    }

    /// Tells the controller where the viewport is (the More trigger checks the distance to the end).
    /// - Parameter fromVirtualizer: take the visible index range from the virtualizer's last
    ///   update (it has just asked the layout), else ask the layout.
    func reportViewport(fromVirtualizer: Bool = false) {
        let viewport: FeedController.Viewport
        if fromVirtualizer {
            let visible = virtualizer.visibleCellIndexRange
            viewport = FeedController.Viewport(
                contentOffset: axis.component(of: scroll.contentOffset), viewportLength: axis.length(of: scroll.viewport),
                contentLength: axis.length(of: layout.contentSize), firstVisibleIndex: visible?.lowerBound,
                lastVisibleIndex: visible?.upperBound)
        } else {
            viewport = FeedController.Viewport(layout: layout, contentOffset: scroll.contentOffset, axis: axis)
        }
        process(controller.viewportChanged(viewport, now: now))
    }

    /// Applies one change of the loaded list to the layout, keeps the anchor item still, checks the
    /// invariants against the backend's ground truth; the new geometry goes to the controller once
    /// the current action list is done (``process(_:)``).
    func applyChange(_ change: FeedChange, load: FeedController.LoadKind?) {
        checkInvariants(of: change)
        // One query of the viewport for the anchor measured here and the one ScrollAnchoring keeps
        // still (the same rect of the same layout: the layout changes only inside `apply`). A
        // replace anchors nothing and asks neither. With the elements read in place (not copied
        // out, their kind strings retained and released), this function went 14.2M → 12.1M
        // instructions in the 60-s flinger replay (callgrind, 1M photos, grid, --max-loaded 600).
        let viewportElements: [LayoutAttributes]?
        if case .replace = change { viewportElements = nil } else {
            viewportElements = layout.attributesForElements(in: viewportRect)
        }
        let anchor = viewportElements.flatMap { anchorBefore(change, load: load, viewportElements: $0) }
        // The change is made in place: the virtualizer lets go of the list meanwhile, then holds the
        // edited one, which the layout describes once the change is applied below (a tap before the
        // next update hits the item the layout shows there). Holding the old list made every page
        // copy the whole loaded list: at each More page (about 2 % of a 16-session grid load's
        // instructions with freeing the copies, in callgrind) and each drop of page dropping.
        virtualizer.editItems {
            shown.apply(change)
            return shown.items
        }
        do {
            let outcome = try ScrollAnchoring.apply(
                change, to: layout, contentOffset: scroll.contentOffset, viewport: scroll.viewport, axis: axis,
                load: load, viewportElements: viewportElements)
            if outcome.adjustment != 0 {
                scroll.adjustOffset(by: outcome.adjustment)
                anchorShiftThisFrame += outcome.adjustment
            }
        } catch {
            violations.append(.init(kind: "layout_error", tMs: round6(now), detail: "\(error)"))
        }
        scroll.setContentSize(layout.contentSize)
        layoutChangedThisFrame = true
        if let anchor { measureDrift(anchor, change: change) }
        viewportReportPending = true
    }

    /// The item the user is looking at before a change that should not move it: the first cell
    /// fully inside the viewport, with its distance from the viewport's leading edge (points).
    /// `nil` for changes that do not anchor (replace) or when the user is at the very top and a
    /// Refresh's prepend is meant to show the new items (pages restored after dropping, `load ==
    /// .prepend`, are anchored even there).
    /// - Parameter viewportElements: the layout's answer for ``viewportRect``.
    private func anchorBefore(
        _ change: FeedChange, load: FeedController.LoadKind?, viewportElements: [LayoutAttributes]
    ) -> (id: Int64, index: Int, screen: Double)? {
        if case .replace = change { return nil }
        let rect = viewportRect
        // One pass over the answer: the first cell fully inside along the axis, else the first
        // cell (by index), and whether item 0 shows; no filtered copies, fields read in place.
        var firstFull: (index: Int, start: Double)?
        var firstAny: (index: Int, start: Double)?
        var showsItemZero = false
        let axis = self.axis
        viewportElements.withUnsafeBufferPointer { elements in
            for position in elements.indices {
                guard case .cell = elements[position].category else { continue }
                let index = elements[position].indexPath.item
                let frame = elements[position].frame
                let start = axis.start(of: frame)
                if index == 0 { showsItemZero = true }
                if firstAny == nil || index < firstAny!.index { firstAny = (index, start) }
                if start >= axis.start(of: rect) && axis.end(of: frame) <= axis.end(of: rect),
                    firstFull == nil || index < firstFull!.index
                {
                    firstFull = (index, start)
                }
            }
        }
        if case .prepend = change, load != .prepend {
            if scroll.offset <= 0 || showsItemZero { return nil }
        }
        guard let first = firstFull ?? firstAny else { return nil }
        guard shown.items.indices.contains(first.index) else { return nil }
        return (shown.items[first.index].id, first.index, first.start - scroll.offset)
    }

    /// Measures how far the anchor moved on screen across the change (anchor drift, points).
    /// Content that fits the viewport cannot scroll (a strip): its items resize in place, which is
    /// not drift (``ScrollAnchoring``'s `fits` rule).
    private func measureDrift(_ anchor: (id: Int64, index: Int, screen: Double), change: FeedChange) {
        guard axis.length(of: layout.contentSize) > axis.length(of: scroll.viewport) else { return }
        let newIndex: Int
        switch change {
        case .prepend(let items): newIndex = anchor.index + items.count
        case .dropFirst(let n): newIndex = anchor.index - n
        case .append, .dropLast: newIndex = anchor.index
        case .replace: return
        }
        guard shown.items.indices.contains(newIndex), shown.items[newIndex].id == anchor.id,
            let attributes = layout.attributesForItem(at: newIndex)
        else { return }
        let drift = abs(axis.start(of: attributes.frame) - scroll.offset - anchor.screen)
        anchorDriftMax = max(anchorDriftMax, drift)
        if drift > 0.5 {
            violations.append(
                .init(kind: "anchor_drift", tMs: round6(now), detail: "item \(anchor.id) moved \(fixed(drift, 2)) pt on screen"))
        }
    }

    /// Self-sizing (a list with `--estimated-height`): a cell configured for an item measures it, as
    /// UIKit's `preferredLayoutAttributesFitting` does; the real height (the item's intrinsic height)
    /// replaces the estimate, and when the row lies above the viewport the offset moves by the change
    /// so nothing visible moves. Cells measured this frame change the layout for the next one.
    func measureConfiguredCells(_ update: VirtualizerUpdate) {
        guard layout.isSelfSizing, !update.enteredItemIDs.isEmpty else { return }
        let before = layout.contentSize
        for id in update.enteredItemIDs {
            guard let index = virtualizer.cell(forItem: id)?.indexPath?.item, shown.items.indices.contains(index) else {
                continue
            }
            let item = shown.items[index]
            let adjustment = layout.setMeasuredSize(
                Size(width: item.width, height: item.height), forItemAt: index, contentOffset: scroll.contentOffset)
            if adjustment != 0 {
                scroll.adjustOffset(by: adjustment)
                anchorShiftThisFrame += adjustment
            }
        }
        if layout.contentSize != before {
            scroll.setContentSize(layout.contentSize)
            layoutChangedThisFrame = true
        }
    }

    /// Updates cells and row fetches for the current viewport.
    func updateVirtualizer() -> VirtualizerUpdate {
        let velocity = scroll.velocityInPlace()
        guard virtualizer.keepsCells else {
            return virtualizer.updateRowsOnly(
                contentOffset: scroll.contentOffset, viewport: scroll.viewport, items: shown.items,
                scrollVelocity: velocity)
        }
        return virtualizer.update(
            contentOffset: scroll.contentOffset, viewport: scroll.viewport, items: shown.items,
            scrollVelocity: velocity)
    }
}
