import FeedEngine
import FeedLayout
import FeedModel

/// What a replay tells a recorder: page and row requests as they are issued and answered, and
/// one ``RecordedFrame`` per frame. The seam the HTML report and the Perfetto export read from
/// (`FeedReport`); a session without a recorder builds none of this (no cost).
///
/// Calls arrive on the session's thread, in virtual-time order.
public protocol ReplayRecorder: AnyObject {
    /// A page or row request was issued or answered.
    func record(_ event: ReplayRecordEvent)
    /// A frame was measured (after the virtualizer's update and the blank-area measure).
    func record(_ frame: RecordedFrame)
    /// The frame recorded last repeats, unchanged but for its index and time, as frames
    /// `frameIndices` (frame k at k · 1000 / `refreshRate` ms): a stretch in which nothing moves,
    /// loads or changes, which idle skipping jumps over instead of stepping (the frame was quiet, so
    /// no cell was created or reused and the content offset stays where it was). Record them as if
    /// each had come through ``record(_:)``.
    func recordRepeated(frameIndices: Range<Int>, refreshRate: Double)
}

/// A request's life on the virtual clock, ms from the start of the session.
public enum ReplayRecordEvent: Sendable, Equatable {
    /// A page request left the controller (attempt 1, or a retry) at `t`.
    case pageIssued(id: Int, kind: FeedController.LoadKind, direction: LoadDirection, attempt: Int, t: Double)
    /// The page request's answer was delivered at `t` (the frame that applied it); `failure` is the
    /// error text of a failed attempt, `nil` for a page.
    case pageAnswered(id: Int, failure: String?, t: Double)
    /// A batch of `count` rows was requested at `t`.
    case rowsIssued(fetchID: Int, count: Int, t: Double)
    /// The batch's rows arrived at `t`.
    case rowsAnswered(fetchID: Int, t: Double)
}

/// One live cell of a recorded frame.
public struct RecordedCell: Sendable, Equatable {
    /// The cell's identity (increasing in creation order); a cell showing an item other than its
    /// first was recycled from the reuse pool.
    public var cellID: Int
    public var itemID: Int64
    /// Layout index of the item.
    public var index: Int
    /// The cell's frame in content coordinates, points.
    public var frame: Rect
    /// Whether the cell shows its row (else a placeholder).
    public var rowShown: Bool
}

/// One frame as a report draws it. Content coordinates and points; times in ms.
public struct RecordedFrame: Sendable, Equatable {
    public var index: Int
    public var t: Double
    /// Content offset along the scroll axis, points, and the part of its change made by anchoring.
    public var offset: Double
    public var anchorShift: Double
    public var viewport: Rect
    public var prefetchRect: Rect
    public var preloadRect: Rect
    public var contentSize: Size
    /// First and last visible item index, `nil` when none is visible.
    public var visibleRange: ClosedRange<Int>?
    /// Items in the loaded list (layout indices 0..<loadedItems).
    public var loadedItems: Int
    /// Shares of the viewport (0...1) covered by cells without their row, and by no content.
    public var rowMissingFraction: Double
    public var noContentFraction: Double
    /// Simulated main-thread cost, ms.
    public var cost: Double
    /// Cells created and reused this frame.
    public var created: Int
    public var reused: Int
    /// Live cells (intersecting the viewport plus the prefetch range), by item id.
    public var cells: [RecordedCell]
}

extension ReplaySession {
    /// Hands the frame just measured to the recorder (only called when one is set).
    func recordFrame(
        _ update: VirtualizerUpdate, rowMissingFraction: Double, noContentFraction: Double, cost: Double,
        recorder: any ReplayRecorder
    ) {
        let cells = virtualizer.liveCells.compactMap { cell -> RecordedCell? in
            guard let itemID = cell.itemID, let index = cell.indexPath?.item,
                let attributes = layout.attributesForItem(at: index)
            else { return nil }
            return RecordedCell(
                cellID: cell.id, itemID: itemID, index: index, frame: attributes.frame, rowShown: cell.isRowBound)
        }
        recorder.record(
            RecordedFrame(
                index: frame, t: now, offset: scroll.offset, anchorShift: anchorShiftThisFrame, viewport: viewportRect,
                prefetchRect: update.prefetchRect, preloadRect: update.preloadRect, contentSize: layout.contentSize,
                visibleRange: virtualizer.visibleCellIndexRange, loadedItems: shown.items.count,
                rowMissingFraction: rowMissingFraction, noContentFraction: noContentFraction, cost: cost,
                created: update.cellsCreated, reused: update.cellsReused, cells: cells))
    }
}
