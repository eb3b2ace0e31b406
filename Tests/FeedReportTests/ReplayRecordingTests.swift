import FeedEngine
import FeedReplay
import Testing

@testable import FeedReport

@Suite struct ReplayRecordingTests {
    @Test func recordsOneFramePerSimulatedFrame() throws {
        let (report, recording) = try TinyReplay.run()
        let frames = try #require(recording).frames
        #expect(frames.count == 91)
        #expect(report.frames == 91)
        #expect(frames.map(\.index) == Array(0...90))
        #expect(frames[60].t == 1000)
        #expect(frames[60].offset == 2400)
        #expect(frames.filter { $0.visibleRange != nil }.count == 79)
        #expect(frames[11].visibleRange == nil)
        // Frame 12: rows 0–5 visible = items 0…17.
        #expect(frames[12].visibleRange == 0...17)
    }

    @Test func pageSpansRunFromRequestToArrival() throws {
        let recording = try #require(try TinyReplay.run().1)
        let spans = recording.pages.map { [$0.kind.rawValue, String($0.issued), String($0.answered ?? -1)] }
        #expect(
            spans == [
                ["init", "0.0", "200.0"], ["more", "200.0", "400.0"], ["more", "500.0", "700.0"],
                ["more", "1000.0", "1200.0"],
            ])
        #expect(recording.pages.allSatisfy { $0.attempt == 1 && $0.failure == nil })
    }

    @Test func rowBatchesAreTheHandComputedOnes() throws {
        let recording = try #require(try TinyReplay.run().1)
        #expect(recording.rows.map(\.count) == [30, 6, 24, 3, 18, 10])
        #expect(recording.rows.map(\.issued) == [200, 400, 500, 700, 1000, 1200])
        #expect(recording.rows.map(\.answered) == [400, 600, 700, 900, 1200, 1400])
    }

    @Test func frameSixtyHoldsRowsTwentyFourToTwentyNineAsRecycledPlaceholders() throws {
        let recording = try #require(try TinyReplay.run().1)
        let cells = recording.cells(ofFrame: 60)
        #expect(cells.map(\.index) == Array(72...89))
        #expect(cells.allSatisfy { $0.state == .placeholder && $0.recycled })
        // Item at index 72 is row 24, column 0: (0, 2400) 100 × 100.
        #expect(cells[0].frame.minY == 2400 && cells[0].frame.minX == 0 && cells[0].frame.width == 100)
        // Frame 12: the first 27 cells (rows 0–8: viewport rows 0–5 and the prefetch rows 6–8), new, rows not loaded.
        let first = recording.cells(ofFrame: 12)
        #expect(first.map(\.index) == Array(0...26))
        #expect(first.allSatisfy { $0.state == .placeholder && !$0.recycled })
        // Frame 24 (400 ms): rows 0–9 (items 0…29) arrived, rows 10–11 were never requested: 27 live, 27 shown.
        #expect(recording.cells(ofFrame: 24).filter { $0.state == .shown }.count == 27)
    }

    @Test func framesShareSnapshotsWhileTheirCellsDoNotChange() throws {
        let recording = try #require(try TinyReplay.run().1)
        // Frames 0–11 (no cells) share one; frames 13–23 share frame 12's.
        #expect(recording.frames[0].snapshotIndex == recording.frames[11].snapshotIndex)
        #expect(recording.frames[13].snapshotIndex == recording.frames[23].snapshotIndex)
        #expect(recording.snapshots.count < 15)
    }

    @Test func recordingLeavesTheReportUnchanged() throws {
        let (withRecorder, _) = try TinyReplay.run(record: true)
        let (without, _) = try TinyReplay.run(record: false)
        #expect(try withRecorder.jsonData() == without.jsonData())
    }

    @Test func failedAttemptsAndRetriesAreRecorded() throws {
        // error=1 until 300 ms: the Init attempt at 0 fails when its answer lands (200 ms); the retry follows.
        var options = TinyReplay.options()
        options.faults = try FaultModel.parse("outage=0-300")
        let recording = try #require(try TinyReplay.run(options: options).1)
        let initial = recording.pages.filter { $0.kind == .initial }
        #expect(initial.count >= 2)
        #expect(initial[0].failure != nil && initial[0].attempt == 1)
        #expect(initial[1].attempt == 2)
        #expect(initial.last?.failure == nil)
    }

    @Test func nearestRankPercentileMatchesHandValues() {
        // 20 values 1…20: p95 → rank ceil(19) = 19 → 19; p50 → rank 10 → 10; p100 → 20.
        let values = (1...20).map(Double.init).reversed().map { $0 }
        #expect(nearestRankPercentile(values, 0.95) == 19)
        #expect(nearestRankPercentile(values, 0.5) == 10)
        #expect(nearestRankPercentile(values, 1) == 20)
        #expect(nearestRankPercentile([0.3], 0.95) == 0.3)
        #expect(nearestRankPercentile([], 0.95) == 0)
    }
}
