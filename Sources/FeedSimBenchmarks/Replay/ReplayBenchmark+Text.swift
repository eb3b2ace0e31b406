import FeedEngine
import FeedLayout
import FeedModel
import FeedReplay
import FeedResources
import FeedStore
import FeedLoad
import Foundation

extension ReplayBenchmark.Report {
    /// The terminal form of the report: the figures, then how each was measured.
    public var textSummary: String {
        func f(_ x: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", x) }
        func mib(_ kib: Int) -> String { String(format: "%.1f MiB", Double(kib) / 1024) }
        let s = speed
        var lines = [
            "bench replay: \(configuration)",
            "",
            "speed (page dropping at \(maxLoadedItems) items; fastest of the repetitions)",
            "  simulated     \(f(s.simulatedMs / 1000, 1)) s in \(s.frames) frames",
            "  wall          \(f(s.wallMs, 1)) ms",
            "  frames/s      \(f(s.framesPerSecond, 0))",
            "  real time     \(f(s.realTimeFactor, 0))× (target ≥ \(f(ReplayBenchmark.realTimeTarget, 0))×: "
                + (meetsRealTimeTarget ? "met)" : "NOT MET)"),
            "  pages         init \(s.pagesInit), more \(s.pagesMore), prepend \(s.pagesPrepend), refresh \(s.pagesRefresh)",
            "  rows          \(s.rowsFetched) fetched in \(s.rowBatches) batches",
            "  depth         \(s.depthItems) items paged from the head; \(s.finalLoadedItems) loaded at the end",
            "  violations    \(s.violations)",
            "",
            "baseline: the replay's store calls alone, back to back, same store and order",
            "  calls         \(baseline.work.pageQueries) page queries, \(baseline.work.rowBatches) row batches, "
                + "\(baseline.work.groundTruthQueries) ground-truth queries (\(baseline.work.itemsRead) items read)",
            "  wall          \(f(baseline.wallMs, 1)) ms",
            "  ratio         \(f(baseline.ratio, 2))× (replay ÷ store alone; target ≤ "
                + "\(f(ReplayBenchmark.storeRatioTarget, 1))×: \(baseline.ratio <= ReplayBenchmark.storeRatioTarget ? "met" : "NOT MET")); "
                + "simulator \(f(baseline.simulatorMicrosecondsPerFrame, 2)) µs per frame",
            "  in a replay   \(f(baseline.storeInReplayMs, 1)) ms (the same calls timed one by one inside a replay: "
                + "\(f(baseline.wallMs > 0 ? baseline.storeInReplayMs / baseline.wallMs : 0, 2))× alone); "
                + "simulator alone \(f(baseline.simulatorAloneMicrosecondsPerFrame, 2)) µs per frame",
            "",
            "memory (each case in its own process; KiB of VmRSS growth over the replay)",
            pad("case", 34) + lpad("depth", 8) + lpad("loaded", 8) + lpad("rss before", 12) + lpad("peak +", 10)
                + lpad("end +", 10),
        ]
        for probe in memory {
            lines.append(
                pad("  " + probe.memoryCase.name, 34) + lpad(String(probe.depthItems), 8)
                    + lpad(String(probe.finalLoadedItems), 8) + lpad(String(probe.rssBeforeKiB), 12)
                    + lpad(String(probe.peakGrowthKiB), 10) + lpad(String(probe.retainedGrowthKiB), 10))
        }
        lines.append("")
        for comparison in comparisons {
            let verdict =
                comparison.dropping
                ? (comparison.flat ? "flat" : "NOT FLAT")
                : (comparison.flat ? "flat" : "grows")
            lines.append(
                "  \(comparison.name): depth ×\(f(comparison.depthRatio, 1)), peak \(signed(comparison.extraPeakKiB)) KiB, "
                    + "end \(signed(comparison.extraRetainedKiB)) KiB → \(verdict)")
        }
        lines += [
            "",
            "how: wall time on the monotonic clock around session set-up, replay and report (the trace is built",
            "  once before); the baseline issues the page, row and ground-truth calls the first replay recorded,",
            "  once after each replay (rounds alternate, so a slow spell of the machine falls on both sides).",
            "  in a replay: each round ends with one more replay whose store calls are timed (two clock reads",
            "  each; its wall time is no target's figure; the fastest counts): beyond the calls alone is what",
            "  running between frames of simulation costs them.",
            "  memory: a fresh process per case (VmHWM is process-wide and only grows; freed memory stays with",
            "  the allocator), which opens the store, scans it once so SQLite's bounded page cache is full,",
            "  builds the trace and session, reads VmRSS, resets VmHWM (/proc/self/clear_refs), replays, and",
            "  reads VmHWM (peak +) and VmRSS (end +). \"flat\": the larger case stays within "
                + "\(mib(ReplayBenchmark.MemoryComparison.flatToleranceKiB)) of the smaller.",
        ]
        if memory.contains(where: { !$0.peakWasReset }) {
            lines.append("  note: VmHWM could not be reset here; peak figures include the set-up.")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

private func pad(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: max(1, width - text.count))
}

private func lpad(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(1, width - text.count)) + text
}

private func signed(_ value: Int) -> String { value >= 0 ? "+\(value)" : "\(value)" }
