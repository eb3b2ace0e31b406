import Testing

@testable import FeedSimBenchmarks

@testable import FeedLoad

/// A tiny `bench load` (2,000 items, 1 and 2 threads, 50 ms a measure): the report's shape, not its speed.
@Suite struct LoadBenchmarkTests {
    @Test func theHeadlineReusesUnchangedSpansAndTheSecondMeasureReadsEveryOne() throws {
        let report = try LoadBenchmark.run(
            count: 2_000, threads: 2, seconds: 0.3, rounds: 1, pageSize: 10, pagesPerSession: 5)
        let pagination = report.pagination
        #expect(pagination.load.map(\.threads) == [1, 2] && pagination.raw.map(\.threads) == [1, 2])
        #expect(pagination.load[0].pages > 0 && pagination.raw[0].pages > 0)
        // No writers: every session walks the same 5 pages from the top, so after the first check
        // on a connection the span is answered from the kept one.
        let breakdown = try #require(pagination.breakdown.last)
        #expect(breakdown.spansRead >= 1)
        #expect(breakdown.spansReused > breakdown.spansRead)
        // The second measure reads every span from the index.
        let every = report.paginationEverySpanRead
        #expect(every.load.threads == 2 && every.load.pages > 0)
        #expect(every.spansReused == 0)
        #expect(every.spansRead > 1)
        #expect(every.ratio == every.load.pagesPerSecond / pagination.raw[1].pagesPerSecond)
        #expect(report.text.contains("with every consistency check reading its span from the index"))
    }
}
