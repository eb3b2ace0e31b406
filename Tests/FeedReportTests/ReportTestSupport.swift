import FeedEngine
import FeedLayout
import FeedModel
import FeedReplay
import Foundation

@testable import FeedReport

/// The hand-computable replay every report test reads (the same set-up as FeedReplayTests'
/// `ReplayScenarioTests`): 100 items of 100 × 100 pt (ids 1…100, one second apart), a 3-column
/// grid without spacing in a 300 × 600 viewport (rows 100 pt, 6 rows on screen), pages of 30
/// (Init one page), UIKit ranges (cells 0.5 screenful ahead, rows 1 screenful ahead), a fixed
/// 200 ms latency, 60 Hz, and the frame costs this scenario was worked out with (base 2, layout 3,
/// create 6, reuse 1.5, bind 1 ms: `ReplayScenarioTests`' hitch scenario; not the calibrated
/// defaults, under which its two jumps are not hitches). The trace sets the offset to 900 at 500 ms and to 2400 at 1000 ms and
/// ends at 1500 ms.
///
/// Worked out by hand:
/// - frames 0…90 (k · 1000/60 ms up to 1500; nothing is in flight at 1500): 91 frames.
/// - pages: Init 0 → 200; More 200 → 400 (last visible item 17, 17 + 30 ≥ 29); More 500 → 700;
///   More 1000 → 1200 (the last ten items, end of feed).
/// - row batches (preload = viewport + 600 pt ahead, only loaded items):
///   200 → 400: rows 0–9 = 30 items; 400 → 600: rows 10–11 = 6; 500 → 700: rows 12–19 = 24;
///   700 → 900: row 20 = 3; 1000 → 1200: rows 24–29 = 18; 1200 → 1400: rows 30–33 = 10.
/// - items are visible from frame 12 (200 ms, Init applied): 79 frames with a visible range.
/// - frame 60 (1000 ms): offset 2400, live cells are rows 24–29 = items at indices 72…89 (the
///   0.5-screen prefetch ahead reaches rows 30–32, not loaded yet), all placeholders (their rows
///   arrive at 1200), and all 18 recycled: the 27 cells of rows 9–17 left the range in the same
///   update and are dequeued before any cell is created.
enum TinyReplay {
    static let items: [Item] = (1...100).map {
        Item(id: Int64($0), publishedAt: 1_000_000 + Int64($0) * 1000, kind: "photo", width: 100, height: 100)
    }

    static let trace = Trace(
        header: TraceHeader(
            version: 1, viewport: Size(width: 300, height: 600), screenScale: 1, refreshRate: 60, source: "tiny"),
        events: [
            TraceEvent(t: 500, .offset(Point(x: 0, y: 900))),
            TraceEvent(t: 1000, .offset(Point(x: 0, y: 2400))),
            TraceEvent(t: 1500, .end),
        ])

    static func options(latency: LatencyModel = .fixed(ms: 200), pageSize: Int = 30) -> ReplayOptions {
        ReplayOptions(
            controller: FeedController.Configuration(pageSize: pageSize, initialLoadPages: 1), ranges: .uikit,
            latency: latency, costs: CostModel(base: 2, layout: 3, cellCreation: 6, cellReuse: 1.5, rowBinding: 1),
            settleMs: 1000)
    }

    /// Runs the replay; with `record`, a ``ReplayRecording`` is attached.
    static func run(record: Bool = true, options: ReplayOptions = options()) throws -> (ReplayReport, ReplayRecording?)
    {
        let layout = try LayoutConfiguration(kind: .grid, columns: 3).makeLayout()
        let session = try ReplaySession(
            trace: trace, layout: layout, layoutDescription: "grid columns=3", backend: MemoryBackend(items: items),
            options: options)
        let recording = record ? ReplayRecording(refreshRate: 60) : nil
        session.recorder = recording
        return (try session.run().report, recording)
    }
}

/// Counts of `needle` in `text`.
func occurrences(of needle: String, in text: String) -> Int {
    text.components(separatedBy: needle).count - 1
}
