import FeedEngine
import FeedLayout
import FeedModel
import FeedReplay

/// The per-frame record and the request spans of one replay, kept compactly for the HTML report
/// and the Perfetto export: each frame's figures in one small value, and its live cells as an
/// index into a table of distinct cell snapshots (consecutive frames that show the same cells in
/// the same states share one; a scroll only adds a snapshot when a cell enters, leaves or
/// changes state).
///
/// Attach one to a session with ``ReplaySession/recorder`` (or the `recorder:` parameter of
/// `ReplaySession.run`). A session without it records nothing.
///
/// - Complexity: O(k) per frame for k live cells; memory O(frames + distinct snapshots × k).
public final class ReplayRecording: ReplayRecorder {
    /// What a frame's cell was showing.
    public enum CellState: Int, Sendable, Comparable {
        /// Placeholder: the cell is configured, its row has not arrived.
        case placeholder = 0
        /// The row is shown.
        case shown = 1
        public static func < (a: CellState, b: CellState) -> Bool { a.rawValue < b.rawValue }
    }

    /// One live cell of a snapshot.
    public struct Cell: Sendable, Equatable {
        public var index: Int
        /// Content coordinates, points.
        public var frame: Rect
        public var state: CellState
        /// The cell came from the reuse pool (it showed another item before).
        public var recycled: Bool
    }

    /// One frame's figures: the recorder's ``FeedReplay/RecordedFrame`` without its cells (those
    /// are in ``snapshotIndex``), read through it (`frame.offset`, `frame.cost`, …), plus what the
    /// recording derives.
    @dynamicMemberLookup
    public struct Frame: Sendable, Equatable {
        /// The recorded figures; `cells` is always empty here.
        public var figures: RecordedFrame
        /// Whether the frame was a hitch: late (cost > budget) while the content moved, as the report counts it.
        public var hitch: Bool
        public var liveCells: Int
        /// Index into ``ReplayRecording/snapshots``.
        public var snapshotIndex: Int

        public subscript<T>(dynamicMember keyPath: WritableKeyPath<RecordedFrame, T>) -> T {
            get { figures[keyPath: keyPath] }
            set { figures[keyPath: keyPath] = newValue }
        }
    }

    /// One page request attempt, from issue to answer (ms); `answered` is `nil` when the replay
    /// ended first or the answer was never delivered.
    public struct PageSpan: Sendable, Equatable {
        public var id: Int
        public var kind: FeedController.LoadKind
        public var direction: LoadDirection
        public var attempt: Int
        public var issued: Double
        public var answered: Double?
        public var failure: String?
    }

    /// One row batch, from request to arrival (ms).
    public struct RowSpan: Sendable, Equatable {
        public var fetchID: Int
        public var count: Int
        public var issued: Double
        public var answered: Double?
    }

    /// Frame budget, ms (1000 / refresh rate).
    public let budget: Double
    public private(set) var frames: [Frame] = []
    public private(set) var snapshots: [[Cell]] = []
    public private(set) var pages: [PageSpan] = []
    public private(set) var rows: [RowSpan] = []

    private var firstItemOfCell: [Int: Int64] = [:]
    private var openPage: [Int: Int] = [:]
    private var openRows: [Int: Int] = [:]
    private var lastOffset: Double?

    /// - Parameter refreshRate: the trace's refresh rate, Hz (the frame budget is 1000 / rate ms).
    public init(refreshRate: Double) {
        budget = 1000 / refreshRate
    }

    public func record(_ event: ReplayRecordEvent) {
        switch event {
        case .pageIssued(let id, let kind, let direction, let attempt, let t):
            openPage[id] = pages.count
            pages.append(PageSpan(id: id, kind: kind, direction: direction, attempt: attempt, issued: t))
        case .pageAnswered(let id, let failure, let t):
            guard let at = openPage.removeValue(forKey: id) else { return }
            pages[at].answered = t
            pages[at].failure = failure
        case .rowsIssued(let fetchID, let count, let t):
            openRows[fetchID] = rows.count
            rows.append(RowSpan(fetchID: fetchID, count: count, issued: t))
        case .rowsAnswered(let fetchID, let t):
            guard let at = openRows.removeValue(forKey: fetchID) else { return }
            rows[at].answered = t
        }
    }

    public func record(_ frame: RecordedFrame) {
        var cells: [Cell] = []
        cells.reserveCapacity(frame.cells.count)
        for cell in frame.cells {
            let first = firstItemOfCell[cell.cellID] ?? cell.itemID
            firstItemOfCell[cell.cellID] = first
            cells.append(
                Cell(
                    index: cell.index, frame: cell.frame, state: cell.rowShown ? .shown : .placeholder,
                    recycled: first != cell.itemID))
        }
        cells.sort { $0.index < $1.index }
        if snapshots.last != cells { snapshots.append(cells) }
        // The report's rule (FrameMetrics): a hitch is a late frame while the content moved.
        let moved = lastOffset.map { abs(frame.offset - $0 - frame.anchorShift) } ?? 0
        lastOffset = frame.offset
        var figures = frame
        figures.cells = []
        frames.append(
            Frame(
                figures: figures, hitch: moved > 1e-9 && frame.cost > budget + 1e-9, liveCells: frame.cells.count,
                snapshotIndex: snapshots.count - 1))
    }

    /// The last frame again for each of `frameIndices`: same figures and cells (the same snapshot,
    /// no copy), its own index and time; not a hitch, as a frame whose content did not move is not.
    /// - Complexity: O(frameIndices.count), nothing per cell.
    public func recordRepeated(frameIndices: Range<Int>, refreshRate: Double) {
        guard var frame = frames.last else { return }
        frame.hitch = false
        for k in frameIndices {
            frame.index = k
            frame.t = Double(k) * 1000 / refreshRate
            frames.append(frame)
        }
    }

    /// The cells of frame `n`.
    public func cells(ofFrame n: Int) -> [Cell] { snapshots[frames[n].snapshotIndex] }

    /// Blank fraction (row missing + no content, capped at 1) of each frame, as the report sums it.
    public var blankFractions: [Double] { frames.map { min(1, $0.rowMissingFraction + $0.noContentFraction) } }
}
