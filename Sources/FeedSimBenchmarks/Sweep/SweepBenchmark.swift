import FeedEngine
import FeedLayout
import FeedModel
import FeedReplay
import FeedReport
import FeedResources
import FeedStore
import Foundation
import Synchronization

/// `feedsim bench sweep`: the same sweep of 8 combinations (page size 20 | 50 × More trigger
/// items:5 | items:20 × ranges uikit | texture) run with `--jobs 1` and with `--jobs N` in one
/// process, each job on a read-only connection of its own, through the product's own sweep
/// (``Sweep/run(count:jobs:_:)`` and ``Sweep/replay(trace:backend:layout:options:insertPreset:)``).
/// Prints the wall times and their ratio, and, so that a figure taken on a busy machine can be
/// told from the sweep's own: the cores each side obtained (process CPU ÷ wall), each job's CPU
/// and wall time and its voluntary context switches (a job that waits on a lock or a shared
/// connection sleeps: voluntary switches; one the machine preempts: involuntary ones), and the
/// load average before and after.
public enum SweepBenchmark {
    /// One job of one side: its own thread's figures.
    public struct Job: Codable, Sendable, Equatable {
        public var index: Int
        /// Wall seconds from the job's start to its end.
        public var wallS: Double
        /// CPU seconds of the job's thread (`CLOCK_THREAD_CPUTIME_ID`).
        public var cpuS: Double
        /// Context switches of the job's thread (`getrusage(RUSAGE_THREAD)`): `ru_nvcsw`, the
        /// thread gave the CPU up (waited: a lock, I/O), and `ru_nivcsw`, the kernel took it away.
        public var voluntarySwitches: Int
        public var involuntarySwitches: Int
        /// Which of the side's threads ran it (0, 1, … in order of their first job).
        public var thread: Int
    }

    /// One side: the whole sweep with `jobs` threads.
    public struct Side: Codable, Sendable, Equatable {
        public var jobs: Int
        /// Wall seconds of the whole sweep.
        public var wallS: Double
        /// Process CPU seconds over the sweep.
        public var cpuS: Double
        /// cpuS ÷ wallS: the cores the side actually got (on a shared machine, fewer than it asked for).
        public var coresObtained: Double
        /// Per job, in combination order.
        public var perJob: [Job]

        /// CPU seconds of the busiest thread: the sum of its jobs' CPU. With a core per thread and
        /// jobs that never wait, the side's wall time is this.
        public var busiestThreadCPUS: Double {
            Dictionary(grouping: perJob, by: \.thread).values.map { $0.map(\.cpuS).reduce(0, +) }.max() ?? 0
        }
    }

    public struct Report: Codable, Sendable {
        public var combinations: Int
        public var traceSeconds: Double
        public var items: Int
        /// Processors the system reports.
        public var cores: Int
        public var threads: Int
        /// The fastest repetition of each side.
        public var one: Side
        public var many: Side
        /// one.wallS ÷ many.wallS.
        public var speedup: Double
        public var sameRows: Bool
        /// The 1-minute load average (`/proc/loadavg`) before the first run and after the last;
        /// `nil` where it cannot be read.
        public var loadAverageBefore: Double?
        public var loadAverageAfter: Double?

        /// Wall seconds of the one-thread side (kept for scripts reading the earlier JSON).
        public var oneThreadS: Double { one.wallS }
        public var nThreadsS: Double { many.wallS }

        /// Whether the parallel side obtained (nearly) the cores it asked for, so its speedup is
        /// the sweep's and not the machine's share: at least 90 % of min(threads, cores, 8) cores.
        public var conclusive: Bool {
            many.coresObtained >= 0.9 * Double(min(threads, cores, combinations)) && one.coresObtained >= 0.9
        }

        public var text: String {
            func side(_ s: Side) -> String {
                let cpu = s.perJob.map(\.cpuS)
                let voluntary = s.perJob.map(\.voluntarySwitches).reduce(0, +)
                let involuntary = s.perJob.map(\.involuntarySwitches).reduce(0, +)
                return """
                      --jobs \(s.jobs): \(num(s.wallS, 3)) s wall, \(num(s.cpuS, 3)) CPU s, \(num(s.coresObtained, 2)) cores obtained
                        per job CPU s: min \(num(cpu.min() ?? 0, 3)), max \(num(cpu.max() ?? 0, 3)); \
                    context switches: \(voluntary) voluntary, \(involuntary) involuntary

                    """
            }
            let load = "load average \(loadAverageBefore.map { num($0, 2) } ?? "?") before, \(loadAverageAfter.map { num($0, 2) } ?? "?") after"
            let verdict =
                conclusive
                ? "conclusive: the parallel side obtained the cores it asked for"
                : "not conclusive: the parallel side obtained \(num(many.coresObtained, 2)) of \(min(threads, cores)) cores (a shared machine); rerun on a quiet one"
            return """
                bench sweep: \(combinations) combinations of a \(num(traceSeconds, 0)) s synthesized trace on \(items) items, \(cores) cores, \(load)
                \(side(one))\(side(many))  speedup: \(num(speedup, 2))× (rows \(sameRows ? "identical" : "DIFFER")); \(verdict)
                  CPU s, --jobs \(threads) ÷ --jobs 1: \(num(many.cpuS / max(one.cpuS, 1e-9), 3)) (1 when the jobs share nothing); \
                voluntary switches while --jobs \(threads) ran: \(many.perJob.map(\.voluntarySwitches).reduce(0, +)) (a job waiting on a lock or a shared connection sleeps: > 0)

                """
        }
    }

    /// - Parameters:
    ///   - items: items seeded in a temporary database (photos preset).
    ///   - traceSeconds: length of the synthesized flinger trace, seconds.
    ///   - threads: the parallel run's thread count.
    ///   - repetitions: each side is run this many times; the fastest counts.
    /// - Throws: store and replay errors.
    public static func run(items: Int, traceSeconds: Double, threads: Int, repetitions: Int) throws -> Report {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("feedsim-bench-sweep-\(UUID().uuidString)")  // two runs in one process apart
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("feed.sqlite").path
        do {
            let store = try ItemStore(path: path)
            var generator = ItemGenerator(preset: try Preset.named("photos"), seed: 1)
            _ = try Seeder.seed(store, feedNamed: "home", generator: &generator, count: items)
        }
        let trace = TraceSynthesizer(model: .flinger, duration: traceSeconds, seed: 3).generate()
        let layout = LayoutConfiguration(kind: .grid, columns: 3, spacing: 2)
        let preset = try Preset.named("mixed")
        var runs: [ReplayOptions] = []
        for pageSize in [20, 50] {
            for prefetch in [5, 20] {
                for ranges in [RangeConfiguration.uikit, .texture] {
                    runs.append(
                        ReplayOptions(
                            controller: FeedController.Configuration(
                                pageSize: pageSize, prefetchDistance: .items(prefetch)),
                            ranges: ranges, latency: .logNormal(median: 120, sigma: 0.5), seed: 1))
                }
            }
        }
        let jobs = runs
        func sweep(_ threads: Int) throws -> (Side, [SweepFigures]) {
            let cpu = ThreadClock.processCPU()
            let start = ThreadClock.wall()
            let threadIDs = Mutex<[UInt: Int]>([:])  // taken twice per job, outside its timed part
            let results = try Sweep.run(count: jobs.count, jobs: threads) { i -> (SweepFigures, Job) in
                let thread = threadIDs.withLock { ids in
                    let key = UInt(bitPattern: Int(bitPattern: pthread_self()))
                    if let known = ids[key] { return known }
                    ids[key] = ids.count
                    return ids.count - 1
                }
                let before = ThreadClock.sample()
                // A read-only connection of the job's own, as `feedsim sweep` opens.
                let store = try ItemStore.openReadOnly(path: path)
                let figures = try Sweep.replay(
                    trace: trace, backend: store.pages(feed: try store.requireFeed(named: "home")), layout: layout,
                    options: jobs[i], insertPreset: preset)
                let after = ThreadClock.sample()
                return (
                    figures,
                    Job(
                        index: i, wallS: after.wall - before.wall, cpuS: after.cpu - before.cpu,
                        voluntarySwitches: after.voluntary - before.voluntary,
                        involuntarySwitches: after.involuntary - before.involuntary, thread: thread)
                )
            }
            let wall = ThreadClock.wall() - start
            let cpuS = ThreadClock.processCPU() - cpu
            return (
                Side(jobs: threads, wallS: wall, cpuS: cpuS, coresObtained: cpuS / max(wall, 1e-9), perJob: results.map(\.1)),
                results.map(\.0)
            )
        }
        let loadBefore = loadAverage()
        var one: Side?
        var many: Side?
        var rowsOne: [SweepFigures] = []
        var rowsMany: [SweepFigures] = []
        for _ in 0..<max(1, repetitions) {
            let (s1, r1) = try sweep(1)
            let (sn, rn) = try sweep(threads)
            if one == nil || s1.wallS < one!.wallS { one = s1 }
            if many == nil || sn.wallS < many!.wallS { many = sn }
            rowsOne = r1
            rowsMany = rn
        }
        return Report(
            combinations: jobs.count, traceSeconds: traceSeconds, items: items,
            cores: ProcessInfo.processInfo.activeProcessorCount, threads: threads, one: one!, many: many!,
            speedup: many!.wallS > 0 ? one!.wallS / many!.wallS : 0, sameRows: rowsOne == rowsMany,
            loadAverageBefore: loadBefore, loadAverageAfter: loadAverage())
    }

    /// The 1-minute load average, the first field of `/proc/loadavg`; `nil` without it.
    static func loadAverage() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return nil }
        return loadAverage(procLoadavg: text)
    }

    /// The first field of a `/proc/loadavg` text (`0.52 0.58 0.59 1/467 12345`: the 1, 5 and
    /// 15-minute averages, runnable / all tasks, the last pid; proc(5)); `nil` when it is not a number.
    static func loadAverage(procLoadavg text: String) -> Double? {
        text.split(separator: " ").first.flatMap { Double($0) }.flatMap { $0 >= 0 ? $0 : nil }
    }
}

/// The clocks a job is measured with.
enum ThreadClock {
    struct Sample {
        var wall: Double
        var cpu: Double
        var voluntary: Int
        var involuntary: Int
    }

    /// The calling thread's wall and CPU seconds and context switches.
    static func sample() -> Sample {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        var usage = rusage()
        getrusage(rusageThread, &usage)
        return Sample(
            wall: wall(), cpu: Double(t.tv_sec) + Double(t.tv_nsec) / 1e9, voluntary: Int(usage.ru_nvcsw),
            involuntary: Int(usage.ru_nivcsw))
    }

    /// `RUSAGE_THREAD` (Linux ≥ 2.6.26, `bits/resource.h`): glibc declares it only under
    /// `_GNU_SOURCE`, which Swift's Glibc module is not built with.
    private static let rusageThread = __rusage_who_t(1)

    static func wall() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    static func processCPU() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}

/// `x` with `digits` decimals.
private func num(_ x: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", x) }
