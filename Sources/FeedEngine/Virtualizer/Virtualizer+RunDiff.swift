import FeedLayout
import FeedModel

/// Range changes as index-run diffs.
///
/// While the caller passes the same items (the same storage) and a range's cells are one run of
/// consecutive layout indices in increasing order, before and after, what entered the range is
/// the new run minus the old and what left it the old minus the new: a row or two at the ends. The
/// full second pass of ``Virtualizer/update(contentOffset:viewport:items:scrollVelocity:)``
/// hashed every item of the range three times over instead (a set of the range, a lookup per live
/// cell, the claims left behind): in `bench replay`'s flinger trace ~12 k instructions per cell
/// update and as many per row update, on one frame in four.
///
/// The diff is taken only when it gives exactly what the full pass gives:
/// - the old range's items were distinct (the live cells, or the row claims, are as many as the
///   old run is long: every update leaves exactly the ids of its range's items live, or claimed);
/// - no entering item is live (claimed) already, and no two entering items share an id;
/// - the order of work is the full pass's: entering items in layout order (the run's order),
///   leaving cells by cell id, leaving row ids ascending.
/// Otherwise (a list with duplicate ids, a non-contiguous answer, new items) the full pass runs.
/// `VirtualizerRunDiffTests` compares the two on seeded random scrolls.
extension Virtualizer {
    /// `indices` as a run of consecutive increasing indices; `nil` when empty or not one run.
    static func indexRun(_ indices: [Int]) -> ClosedRange<Int>? {
        guard let first = indices.first else { return nil }
        let isRun = indices.withUnsafeBufferPointer { buffer in
            for offset in buffer.indices where buffer[offset] != first &+ offset { return false }
            return true
        }
        return isRun ? first...(first + indices.count - 1) : nil
    }

    /// How many indices two runs share.
    private static func overlapCount(_ a: ClosedRange<Int>, _ b: ClosedRange<Int>) -> Int {
        let low = max(a.lowerBound, b.lowerBound)
        let high = min(a.upperBound, b.upperBound)
        return high >= low ? high - low + 1 : 0
    }

    /// Most entering items a diff handles (their distinctness is checked pairwise); a jump
    /// larger than this takes the full pass.
    static let runDiffLimit = 32

    /// Where, among `candidates` of the layout's answer, the cells that entered (index in `new`,
    /// not in `old`) can lie: all of `candidates`, or when the runs share indices, the positions
    /// before the first shared cell and after the last one. In an answer whose cell indices grow
    /// with position (every layout's answer in axis order) the entering cells are there, so a
    /// diff scans O(entering) positions, not the range (a pass over the range was ~2 k
    /// instructions per run diff in `bench replay`, a quarter of a cell update). A cell that
    /// entered between shared ones (not expected) is missed: the callers compare the count with
    /// the runs' and take the full pass then.
    static func enteringSpans(
        in candidates: Range<Int>, of elements: UnsafeBufferPointer<LayoutAttributes>,
        new: ClosedRange<Int>, old: ClosedRange<Int>, runsShareIndices: Bool
    ) -> (front: Range<Int>, back: Range<Int>) {
        guard runsShareIndices else { return (candidates, candidates.upperBound..<candidates.upperBound) }
        func isShared(_ position: Int) -> Bool {
            guard case .cell = elements[position].category else { return false }
            let index = elements[position].indexPath.item
            return new.contains(index) && old.contains(index)
        }
        var first = candidates.lowerBound
        while first < candidates.upperBound, !isShared(first) { first += 1 }
        guard first < candidates.upperBound else { return (candidates, candidates.upperBound..<candidates.upperBound) }
        var last = candidates.upperBound - 1
        while last > first, !isShared(last) { last -= 1 }
        return (candidates.lowerBound..<first, (last + 1)..<candidates.upperBound)
    }

    /// Calls `body` with the position and the index of each cell of `candidates` that entered
    /// (index in `new`, not in `old`, frame intersecting `rect`), in position order, looking only
    /// where ``enteringSpans(in:of:new:old:runsShareIndices:)`` says they lie.
    /// - Returns: `false` as soon as `body` does (a conflict: the full pass must run), else `true`.
    static func forEachEntering(
        in candidates: Range<Int>, of elements: UnsafeBufferPointer<LayoutAttributes>, rect: Rect,
        new: ClosedRange<Int>, old: ClosedRange<Int>, runsShareIndices: Bool, _ body: (_ position: Int, _ index: Int) -> Bool
    ) -> Bool {
        let spans = enteringSpans(in: candidates, of: elements, new: new, old: old, runsShareIndices: runsShareIndices)
        for span in [spans.front, spans.back] {
            for position in span {
                guard case .cell = elements[position].category else { continue }
                let index = elements[position].indexPath.item
                guard new.contains(index), !old.contains(index), elements[position].frame.intersects(rect) else { continue }
                if !body(position, index) { return false }
            }
        }
        return true
    }

    /// The prefetch range's change as a diff of runs.
    struct CellRunDiff {
        /// The new run.
        var run: ClosedRange<Int>
        /// Items that enter, in layout order, with their index paths.
        var entering: [EnteringCell]
        /// Cells whose item left, ascending.
        var leavingCells: [Int]
    }

    /// The prefetch range's change as a run diff, `nil` when the full pass must run (see the
    /// extension's notes). Call only with the items of the last update (same storage).
    /// - Complexity: O(e) for the e elements of the layout's answer, plus O(k²) for k ≤
    ///   ``runDiffLimit`` entering items; no hashing but a lookup per entering and leaving item.
    func prefetchRunDiff(
        prefetchIndices: [Int], items: [Item], elements: [LayoutAttributes], prefetchRect: Rect
    ) -> CellRunDiff? {
        guard let old = Self.indexRun(lastPrefetchIndices), cellOfItem.count == old.count,
            let new = Self.indexRun(prefetchIndices)
        else { return nil }
        let shared = Self.overlapCount(old, new)
        let enteringCount = new.count - shared
        guard enteringCount <= Self.runDiffLimit else { return nil }
        var entering: [EnteringCell] = []
        entering.reserveCapacity(enteringCount)
        let candidates = positions(mayIntersect: prefetchRect, in: elements)
        let complete = elements.withUnsafeBufferPointer { elements in
            items.withUnsafeBufferPointer { items in
                Self.forEachEntering(
                    in: candidates, of: elements, rect: prefetchRect, new: new, old: old, runsShareIndices: shared > 0
                ) { position, index in
                    let item = items[index]
                    if cellOfItem[item.id] != nil || entering.contains(where: { $0.item.id == item.id }) { return false }
                    entering.append(EnteringCell(indexPath: elements[position].indexPath, item: item))
                    return true
                }
            }
        }
        guard complete, entering.count == enteringCount else { return nil }
        var leavingCells: [Int] = []
        leavingCells.reserveCapacity(old.count - shared)
        for index in old where !new.contains(index) {
            guard let cellID = cellOfItem[items[index].id] else { return nil }
            leavingCells.append(cellID)
        }
        leavingCells.sort()
        return CellRunDiff(run: new, entering: entering, leavingCells: leavingCells)
    }

    /// The preload range's change as a diff of runs.
    struct RowRunDiff {
        /// The new run.
        var run: ClosedRange<Int>
        /// Items that enter, in layout order, with their distance from the viewport (points) and index.
        var entering: [PreloadEntry]
        /// Ids that left, ascending.
        var leftIDs: [Int64]
    }

    /// The preload range's change as a run diff, `nil` when the full pass must run (see the
    /// extension's notes; also while failed fetches left the claims stale). Call only with the
    /// items of the last update (same storage).
    /// - Complexity: as ``prefetchRunDiff(prefetchIndices:items:elements:prefetchRect:)``.
    func preloadRunDiff(
        preloadIndices: [Int], items: [Item], elements: [LayoutAttributes], preloadRect: Rect, visibleRect: Rect
    ) -> RowRunDiff? {
        guard !preloadClaimsStale, let old = Self.indexRun(lastPreloadIndices), preloadItemIDs.count == old.count,
            let new = Self.indexRun(preloadIndices)
        else { return nil }
        let shared = Self.overlapCount(old, new)
        let enteringCount = new.count - shared
        guard enteringCount <= Self.runDiffLimit else { return nil }
        var entering: [PreloadEntry] = []
        entering.reserveCapacity(enteringCount)
        let axis = self.axis
        let candidates = positions(mayIntersect: preloadRect, in: elements)
        let complete = elements.withUnsafeBufferPointer { elements in
            items.withUnsafeBufferPointer { items in
                Self.forEachEntering(
                    in: candidates, of: elements, rect: preloadRect, new: new, old: old, runsShareIndices: shared > 0
                ) { position, index in
                    let item = items[index]
                    if preloadItemIDs.contains(item.id) || entering.contains(where: { $0.item.id == item.id }) { return false }
                    let distance = axis.distance(between: elements[position].frame, and: visibleRect)
                    entering.append(PreloadEntry(item: item, distance: distance, index: index))
                    return true
                }
            }
        }
        guard complete, entering.count == enteringCount else { return nil }
        var leftIDs: [Int64] = []
        leftIDs.reserveCapacity(old.count - shared)
        for index in old where !new.contains(index) { leftIDs.append(items[index].id) }
        leftIDs.sort()
        return RowRunDiff(run: new, entering: entering, leftIDs: leftIDs)
    }

    /// Claims the rows of a preload run diff (the entering items, the ids that left) as the full
    /// pass would, and keeps the new run's ids as the last preload list.
    func applyPreloadRunDiff(_ diff: RowRunDiff, items: [Item]) -> RowChange {
        let change = applyRowChange(preloadEntries: diff.entering, leftIDs: diff.leftIDs)
        for id in diff.leftIDs { preloadItemIDs.remove(id) }
        for entry in diff.entering { preloadItemIDs.insert(entry.item.id) }
        lastPreloadIDs = items[diff.run].map(\.id)
        runDiffs.rows += 1
        return change
    }

    /// Claims the rows of a preload range that changed: as a run diff where one applies (a row or
    /// two entered and left at the ends of one run), else by the full pass over the range. The
    /// full and the rows-only update share it.
    func claimPreload(
        preloadIndices: [Int], sameItems: Bool, items: [Item], elements: [LayoutAttributes], preloadRect: Rect,
        visibleRect: Rect
    ) -> RowChange {
        if sameItems, usesRunDiffs,
            let diff = preloadRunDiff(
                preloadIndices: preloadIndices, items: items, elements: elements, preloadRect: preloadRect,
                visibleRect: visibleRect)
        {
            return applyPreloadRunDiff(diff, items: items)
        }
        return refillPreload(
            from: elements, items: items, capacity: preloadIndices.count, preloadRect: preloadRect,
            visibleRect: visibleRect)
    }
}
