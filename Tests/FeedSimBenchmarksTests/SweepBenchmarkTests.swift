import Testing

@testable import FeedSimBenchmarks

@Suite struct SweepBenchmarkTests {
    @Test func benchmarkRunsEightCombinationsBothWaysWithTheSameRows() throws {
        let report = try SweepBenchmark.run(items: 1000, traceSeconds: 2, threads: 2, repetitions: 1)
        #expect(report.combinations == 8)
        #expect(report.threads == 2)
        #expect(report.sameRows)
        #expect(report.one.wallS > 0 && report.many.wallS > 0)
        #expect(abs(report.speedup - report.one.wallS / report.many.wallS) < 1e-9)
        #expect(report.text.contains("--jobs 2:"))
    }

    @Test func eachSideMeasuresEveryJobInCombinationOrder() throws {
        let report = try SweepBenchmark.run(items: 1000, traceSeconds: 2, threads: 2, repetitions: 1)
        for side in [report.one, report.many] {
            #expect(side.perJob.map(\.index) == Array(0..<8))
            #expect(side.perJob.allSatisfy { $0.cpuS > 0 && $0.wallS > 0 && $0.voluntarySwitches >= 0 })
            // A job's thread cannot use more CPU than the wall time it ran (1 ms of clock granularity).
            #expect(side.perJob.allSatisfy { $0.cpuS <= $0.wallS + 1e-3 })
            #expect(abs(side.coresObtained - side.cpuS / side.wallS) < 1e-9)
        }
        // The one-thread side never has two jobs at once: its jobs' wall times add up to at most its own.
        #expect(report.one.perJob.map(\.wallS).reduce(0, +) <= report.one.wallS + 1e-6)
        #expect(Set(report.one.perJob.map(\.thread)) == [0])
        #expect(Set(report.many.perJob.map(\.thread)).isSubset(of: [0, 1]))
        // One thread: the busiest thread did all the jobs.
        #expect(abs(report.one.busiestThreadCPUS - report.one.perJob.map(\.cpuS).reduce(0, +)) < 1e-9)
        let perThread = Dictionary(grouping: report.many.perJob, by: \.thread).values.map { $0.map(\.cpuS).reduce(0, +) }
        #expect(report.many.busiestThreadCPUS == perThread.max())
    }

    @Test func theLoadAverageIsTheFirstFieldOfProcLoadavg() {
        // proc(5): the 1, 5 and 15-minute load averages, runnable / all tasks, the last pid.
        #expect(SweepBenchmark.loadAverage(procLoadavg: "0.52 0.58 0.59 1/467 12345\n") == 0.52)
        #expect(SweepBenchmark.loadAverage(procLoadavg: "19.75 12.01 9.30 21/300 4242") == 19.75)
        #expect(SweepBenchmark.loadAverage(procLoadavg: "") == nil)
        #expect(SweepBenchmark.loadAverage(procLoadavg: "busy 1 2") == nil)
    }
}
