import FeedEngine
import FeedLayout
import FeedModel
import Testing

@testable import FeedReplay

/// A load session's virtualizer keeps no cells (``FeedEngine/Virtualizer/updateRowsOnly(contentOffset:viewport:items:scrollVelocity:)``):
/// it must give every figure a load report prints, and every row fetch, exactly as the virtualizer
/// with cells does. The oracle is the same replay with ``ReplayOptions/skipsCellsForLoadSummary``
/// off (the full ``FeedEngine/Virtualizer/update(contentOffset:viewport:items:scrollVelocity:)``),
/// frame by frame as a load session steps it, over layouts, range presets, seeds and fault models.
@Suite struct RowsOnlyVirtualizerTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var layout: LayoutConfiguration
        var ranges: String
        var model: SynthModel
        var seed: UInt64
        var faults: String
        var rowFaults: String?
        var testDescription: String {
            "\(layout.summary) \(ranges) \(model.rawValue) seed \(seed) faults \(faults) rows \(rowFaults ?? "-")"
        }
    }

    static let cases: [Case] = {
        let layouts: [LayoutConfiguration] = [
            LayoutConfiguration(kind: .grid, columns: 3),
            LayoutConfiguration(kind: .grid, columns: 2, spacing: 4, headerHeight: 120, footerHeight: 60),
            LayoutConfiguration(kind: .list, spacing: 8),
            LayoutConfiguration(kind: .waterfall, columns: 2),
            LayoutConfiguration(kind: .mosaic),
            LayoutConfiguration(kind: .flow),
            LayoutConfiguration(kind: .carousel, itemSize: Size(width: 280, height: 360), direction: .horizontal),
            LayoutConfiguration(kind: .strip, direction: .horizontal),
        ]
        let ranges = ["uikit", "texture", "paging3", "react-window", "flashlist"]
        let models: [SynthModel] = [.flinger, .skimmer, .reader, .refresher]
        let faults = ["none", "error=0.2,timeout=0.05,timeout-ms=1500"]
        var cases: [Case] = []
        for (n, layout) in layouts.enumerated() {
            for (r, range) in ranges.enumerated() where (n + r) % 2 == 0 || layout.kind == .grid {
                let seed = UInt64(1 + n * 7 + r)
                cases.append(
                    Case(layout: layout, ranges: range, model: models[(n + r) % models.count], seed: seed,
                         faults: faults[(n + r) % 2], rowFaults: (n + r) % 3 == 0 ? "error=0.3" : nil))
            }
        }
        return cases
    }()

    static func items() -> [Item] {
        (1...1500).map { n in
            let height = Double(80 + (n * 37) % 160)
            let width = Double(90 + (n * 53) % 140)
            return Item(
                id: Int64(n), publishedAt: 1_000_000 + Int64(n) * 10, kind: ["photo", "video", "text"][n % 3],
                width: width, height: height)
        }
    }

    static func replay(_ testCase: Case, skipsCells: Bool) throws -> (ReplayReport, ReplaySession) {
        let trace = TraceSynthesizer(model: testCase.model, duration: 25, seed: testCase.seed).generate()
        let layout = try testCase.layout.makeLayout()
        var options = ReplayOptions(
            controller: FeedController.Configuration(pageSize: 20, maxLoadedItems: 300),
            ranges: RangeConfiguration.preset(named: testCase.ranges)!,
            latency: .logNormal(median: 150, sigma: 0.7), faults: try FaultModel.parse(testCase.faults),
            seed: testCase.seed, rowFaults: try testCase.rowFaults.map { try FaultModel.parse($0) })
        options.measures = .loadSummary
        options.skipsCellsForLoadSummary = skipsCells
        let session = try ReplaySession(
            trace: trace, layout: layout, layoutDescription: testCase.layout.summary,
            backend: MemoryBackend(items: items()), options: options, axis: testCase.layout.scrollAxis)
        while try session.advanceFrame() {}
        return (session.result.report, session)
    }

    @Test func everyPresetsPreloadRangeContainsItsPrefetchRange() {
        for name in RangeConfiguration.presetNames {
            #expect(RangeConfiguration.preset(named: name)?.preloadContainsPrefetch == true, "\(name)")
        }
        // Mixed kinds or a prefetch reaching further than the preload: the virtualizer keeps its cells.
        let mixed = RangeConfiguration(
            name: "mixed", prefetch: .points(leading: 100, trailing: 0), preload: .screenfuls(leading: 1, trailing: 0))
        #expect(!mixed.preloadContainsPrefetch)
        let further = RangeConfiguration(
            name: "further", prefetch: .items(leading: 3, trailing: 2), preload: .items(leading: 2, trailing: 5))
        #expect(!further.preloadContainsPrefetch)
    }

    @Test func theLoadSummaryRunsWithoutCellsOnlyWhereItGivesTheSameFigures() throws {
        let grid = Case(
            layout: LayoutConfiguration(kind: .grid), ranges: "uikit", model: .flinger, seed: 3, faults: "none")
        #expect(try Self.replay(grid, skipsCells: true).1.virtualizer.keepsCells == false)
        #expect(try Self.replay(grid, skipsCells: false).1.virtualizer.keepsCells == true)
        // A self-sizing list measures the cells that enter: it keeps them.
        var selfSizing = grid
        selfSizing.layout = LayoutConfiguration(kind: .list, estimatedHeight: 120)
        #expect(try Self.replay(selfSizing, skipsCells: true).1.virtualizer.keepsCells == true)
    }

    @Test(arguments: cases)
    func aLoadSessionWithoutCellsPrintsWhatTheVirtualizerWithCellsGives(_ testCase: Case) throws {
        let (full, fullSession) = try Self.replay(testCase, skipsCells: false)
        let (rowsOnly, rowsOnlySession) = try Self.replay(testCase, skipsCells: true)
        #expect(fullSession.virtualizer.keepsCells && !rowsOnlySession.virtualizer.keepsCells)
        // The comparison means something: content was shown, with blank frames, and rows fetched.
        // First content waits for the Init page and then its rows (two latency draws after the first
        // frame, at 0 ms), and lands within the 25-s trace.
        let firstContent = try #require(full.timeToFirstContentMs)
        #expect(firstContent > 0 && firstContent < 25_000)
        #expect(full.rows.fetched > 0)
        // What a load report prints (blank mean and its two parts, first content, violations,
        // frames), and everything the row fetches decide.
        #expect(rowsOnly.frames == full.frames)
        #expect(rowsOnly.blank.meanFraction == full.blank.meanFraction)
        #expect(rowsOnly.blank.rowMissingFraction == full.blank.rowMissingFraction)
        #expect(rowsOnly.blank.noContentFraction == full.blank.noContentFraction)
        #expect(rowsOnly.timeToFirstContentMs == full.timeToFirstContentMs)
        #expect(rowsOnly.violations == full.violations)
        #expect(rowsOnly.pages == full.pages)
        #expect(rowsOnly.rows.fetched == full.rows.fetched)
        #expect(rowsOnly.rows.batches == full.rows.batches)
        #expect(rowsOnly.rows.redundant == full.rows.redundant)
        #expect(rowsOnly.rows.cancelledBatches == full.rows.cancelledBatches)
        #expect(rowsOnly.rows.failedBatches == full.rows.failedBatches)
        #expect(rowsOnly.transitions == full.transitions)
        #expect(rowsOnly.phaseTransitions == full.phaseTransitions)
        #expect(rowsOnly.taps == full.taps)
        #expect(rowsOnly.final == full.final)
        let a = fullSession.virtualizer.counters
        let b = rowsOnlySession.virtualizer.counters
        #expect(b.rowFetchesIssued == a.rowFetchesIssued && b.rowsRequested == a.rowsRequested)
        #expect(b.rowsReceived == a.rowsReceived && b.rowsMissing == a.rowsMissing && b.rowsEvicted == a.rowsEvicted)
        #expect(b.rowFetchesFailed == a.rowFetchesFailed && b.rowBatchesDropped == a.rowBatchesDropped)
        // And no cell was made.
        #expect(rowsOnly.cells.created == 0 && rowsOnlySession.virtualizer.liveCellCount == 0)
    }
}
