import FeedEngine
import FeedLayout
import FeedModel
import FeedReplay
import Foundation
import Testing

@testable import FeedReport

/// A recorder attached to a replay (`--html`, `--perfetto`) takes a run of identical idle frames
/// at once, as the timeline does, instead of the session stepping each one: the HTML report and the
/// Perfetto trace stay byte for byte what stepping every frame gives.
@Suite struct RecordingIdleFramesTests {
    /// The tiny report's feed (``TinyReplay``) with a drag, two minutes of nothing, a wheel step, the end.
    static let pauseTrace = Trace(
        header: TraceHeader(viewport: Size(width: 300, height: 600), screenScale: 1, refreshRate: 60, source: "pause"),
        events: [
            TraceEvent(t: 0, .touchDown(Point(x: 150, y: 500))),
            TraceEvent(t: 50, .touchMove(Point(x: 150, y: 400))),
            TraceEvent(t: 100, .touchMove(Point(x: 150, y: 300))),
            TraceEvent(t: 100, .touchUp(Point(x: 150, y: 300))),
            TraceEvent(t: 120_000, .wheel(dx: 0, dy: 200)),
            TraceEvent(t: 120_500, .end),
        ])

    struct Outputs {
        var html: String
        var perfetto: String
        var frames: Int
        var skipped: Int
        var recorded: Int
    }

    static func replay(skipping: Bool) throws -> Outputs {
        let layout = try LayoutConfiguration(kind: .grid, columns: 3).makeLayout()
        var options = TinyReplay.options()
        options.skipsIdleFrames = skipping
        let session = try ReplaySession(
            trace: pauseTrace, layout: layout, layoutDescription: "grid columns=3",
            backend: MemoryBackend(items: TinyReplay.items), options: options)
        let recording = ReplayRecording(refreshRate: 60)
        session.recorder = recording
        let report = try session.run().report
        return Outputs(
            html: try ReplayHTMLReport.html(report: report, recording: recording, title: "pause"),
            perfetto: PerfettoTrace.json(recording: recording, source: report.source), frames: report.frames,
            skipped: session.framesSkipped, recorded: recording.frames.count)
    }

    /// FNV-1a, 64 bits, of the UTF-8 bytes (http://www.isthe.com/chongo/tech/comp/fnv/: offset
    /// basis 0xcbf29ce484222325, prime 0x100000001b3): a fingerprint of outputs too long to keep.
    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }

    @Test func aLongPauseGivesTheSameHTMLAndPerfettoBytesAsSteppingEveryFrame() throws {
        let stepped = try Self.replay(skipping: false)
        let skipped = try Self.replay(skipping: true)
        #expect(stepped.skipped == 0)
        #expect(skipped.html == stepped.html)
        #expect(skipped.perfetto == stepped.perfetto)
        // 60 Hz from 0 to the end event at 120,500 ms: frames 0…7,230, every one recorded.
        #expect(skipped.frames == 7_231)
        #expect(skipped.recorded == 7_231)
    }

    @Test func aLongPauseIsNotSteppedFrameByFrameWhileRecording() throws {
        let skipped = try Self.replay(skipping: true)
        // Two minutes at rest: all but a few dozen frames (the drag, its deceleration, the loads
        // in flight, the wheel step) are taken as runs.
        #expect(skipped.skipped > 7_000)
    }

    /// The bytes the HTML report and the Perfetto trace of ``pauseTrace`` had before the recorder
    /// took idle runs (captured from the build that stepped every frame while recording, commit
    /// 7c29f28: length and FNV-1a). The HTML has since gained one CSS line of the load report's stage
    /// boundaries (`.stage-boundary{…}`, 68 bytes with its indent and newline, shared by every page):
    /// 1,301,603 + 68 bytes, digest taken again with only that line added. Its summary table then
    /// listed the final content offset and size as `.count 2` (a figure that was wrong); they are now
    /// four rows of coordinates (`final.content_offset.x`/`.y`, `final.content_size.width`/`.height`):
    /// 108 bytes more, digest taken again with only those rows changed.
    @Test func aLongPauseGivesTheBytesCapturedBeforeIdleRunsWereRecorded() throws {
        let outputs = try Self.replay(skipping: true)
        #expect(outputs.html.utf8.count == 1_301_603 + 68 + 108)
        #expect(Self.fnv1a(outputs.html) == 15_237_551_638_384_980_472)
        #expect(outputs.perfetto.utf8.count == 1_420_703)
        #expect(Self.fnv1a(outputs.perfetto) == 11_543_841_120_020_804_279)
    }
}
