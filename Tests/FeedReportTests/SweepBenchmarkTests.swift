import FeedSimTestSupport
import Testing

@testable import FeedReport

@Suite struct SweepBenchmarkTests {
    @Test func benchmarkRunsEightCombinationsBothWaysWithTheSameRows() throws {
        let report = try SweepBenchmark.run(items: 1000, traceSeconds: 2, threads: 2, repetitions: 1)
        #expect(report.combinations == 8)
        #expect(report.threads == 2)
        #expect(report.sameRows)
        #expect(report.oneThreadS > 0 && report.nThreadsS > 0)
        #expect(abs(report.speedup - report.oneThreadS / report.nThreadsS) < 1e-9)
        #expect(report.text.contains("--jobs 2:"))
    }
}
