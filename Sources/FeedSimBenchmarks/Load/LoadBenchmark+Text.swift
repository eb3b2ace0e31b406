import FeedEngine
import FeedLayout
import FeedModel
import FeedReplay
import FeedResources
import FeedStore
import FeedLoad
import Foundation

extension LoadBenchmark.Report {
    /// The report for people: the pagination comparison first (the target's), then the replay one,
    /// each with its table of pages/s by thread count, its ratio and scaling, and where a session
    /// thread's time goes per page.
    public var text: String {
        var lines = [
            "bench load: \(items) items, pages of \(pageSize), keyset, no think time, best of \(rounds) round(s)",
            "",
            "pagination sessions (controller + timed store, no frames), \(pagination.pagesPerWalk) pages per session, "
                + "\(pagination.rowBatchesPerPage) row statement(s) per page:",
        ]
        lines += Self.table(pagination)
        lines.append(
            "ratio at \(pagination.load.last?.threads ?? 1) threads: \(Self.fixed(pagination.ratio, 2))× (target ≥ "
                + "\(Self.fixed(target, 1))×: \(pagination.ratio >= target ? "met" : "NOT met")); " + Self.scaling(pagination))
        let every = paginationEverySpanRead
        lines.append(
            "with every consistency check reading its span from the index (as with writers): \(every.load.threads) "
                + "threads, load \(Self.fixed(every.load.pagesPerSecond)) pages/s, \(Self.fixed(every.ratio, 2))× raw, "
                + "on-CPU \(Self.fixed(every.load.cpuMicrosecondsPerPage, 1)) µs/page, \(every.spansRead) spans read")
        lines += [
            "",
            "replay sessions (what `feedsim load` runs, time-scale max; pages/s include the scroll simulation), "
                + "\(replay.pagesPerWalk) pages per walk, \(replay.rowBatchesPerPage) row statement(s) per page:",
        ]
        lines += Self.table(replay)
        lines.append(
            "ratio at \(replay.load.last?.threads ?? 1) threads: \(Self.fixed(replay.ratio, 2))× (scroll simulation "
                + "included; target ≥ \(Self.fixed(LoadBenchmark.replayTarget, 1))×: "
                + "\(replay.ratio >= LoadBenchmark.replayTarget ? "met" : "NOT met")); " + Self.scaling(replay))
        lines += ["", "where a session thread's time goes, per page (µs):"]
        lines.append("session     threads  frames   total   queries  session  harness   query-only pages/s/thread")
        for comparison in [pagination, replay] {
            for b in comparison.breakdown {
                lines.append(
                    comparison.session.padding(toLength: 10, withPad: " ", startingAt: 0)
                        + Self.pad("\(b.threads)", 9) + Self.pad(Self.fixed(b.framesPerPage, 1), 8)
                        + Self.pad(Self.fixed(b.microsecondsPerPage, 1), 8)
                        + Self.pad(Self.fixed(b.queryMicrosecondsPerPage, 1), 10)
                        + Self.pad(Self.fixed(b.simulationMicrosecondsPerPage, 1), 9)
                        + Self.pad(Self.fixed(b.harnessMicrosecondsPerPage, 1), 9)
                        + Self.pad(Self.fixed(b.queryOnlyPagesPerSecondPerThread), 28))
            }
        }
        lines.append(
            "(session = the steps minus their queries: simulation for replay, controller and bookkeeping for "
                + "pagination; harness = scheduler, checks, waiting)")
        if let b = pagination.breakdown.last {
            lines.append(
                "consistency checks of the pagination sessions at \(b.threads) threads: \(b.spansRead) spans read from "
                    + "the index, \(b.spansReused) answered from the last span read (nothing committed since: this "
                    + "benchmark has no writers; with writers only checks between two commits are)")
        }
        return lines.joined(separator: "\n")
    }

    private static func table(_ comparison: LoadBenchmark.Comparison) -> [String] {
        var lines = ["threads   load pages/s    raw pages/s   load ÷ raw   cores load / raw   on-CPU µs/page load / raw"]
        for (load, raw) in zip(comparison.load, comparison.raw) {
            lines.append(
                pad("\(load.threads)", 7) + pad(fixed(load.pagesPerSecond), 15) + pad(fixed(raw.pagesPerSecond), 15)
                    + pad(fixed(load.pagesPerSecond / raw.pagesPerSecond, 2) + "×", 13)
                    + pad(fixed(load.cores, 2) + " / " + fixed(raw.cores, 2), 19)
                    + pad(fixed(load.cpuMicrosecondsPerPage, 1) + " / " + fixed(raw.cpuMicrosecondsPerPage, 1), 28))
        }
        return lines
    }

    private static func scaling(_ comparison: LoadBenchmark.Comparison) -> String {
        "scaling 1 → \(comparison.load.last?.threads ?? 1) threads: load \(fixed(comparison.loadScaling, 2))×, raw "
            + "\(fixed(comparison.rawScaling, 2))×; on-CPU µs per page grew load \(fixed(comparison.loadCPUPerPageGrowth, 2))×, "
            + "raw \(fixed(comparison.rawCPUPerPageGrowth, 2))× (about 1×: no contention in the process; then scaling "
            + "is bounded by the cores the threads got)"
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }

    private static func fixed(_ value: Double, _ digits: Int = 0) -> String {
        String(format: "%.\(digits)f", value)
    }
}
