import Foundation

extension ReplayReport {
    /// A short human summary (a dozen lines) of the report, for the terminal.
    public var textSummary: String {
        func f(_ x: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", x) }
        func pct(_ x: Double) -> String { String(format: "%.1f%%", x * 100) }
        var lines: [String] = []
        lines.append("replay of \(source)")
        lines.append(
            "  \(f(durationMs / 1000, 2)) s, \(frames) frames at \(f(refreshRateHz, 0)) Hz, scrolled \(f(distancePt, 0)) pt"
        )
        let ttfc = timeToFirstContentMs.map { "\(f($0, 0)) ms" } ?? "never"
        lines.append("  first content after \(ttfc)")
        lines.append(
            // The mean counts every frame, the wait for first content too; the max only those after it.
            "  blank area: mean \(pct(blank.meanFraction)) of every frame's viewport"
                + " (rows missing \(pct(blank.rowMissingFraction)), no content \(pct(blank.noContentFraction))),"
                + " \(blank.framesWithBlank) frames with any; max \(pct(blank.maxFractionAfterFirstContent)) after first content"
        )
        let scrolling = blank.whileScrolling
        lines.append(
            "  blank while scrolling: mean \(pct(scrolling.meanFraction)), p50 \(pct(scrolling.p50Fraction)),"
                + " p95 \(pct(scrolling.p95Fraction)), max \(pct(scrolling.maxFraction)) over \(scrolling.frames) frames"
        )
        let ratio = hitches.timeRatioMsPerS.map { "\(f($0, 2)) ms/s" } ?? "no ratio"
        lines.append(
            "  hitches: \(hitches.count) (\(f(hitches.hitchMs, 1)) ms late), \(ratio) over \(f(hitches.scrollingS)) s of scrolling (\(hitches.band))"
        )
        lines.append(
            "  pages: init \(pages.`init`), refresh \(pages.refresh), more \(pages.more), prepend \(pages.prepend);"
                + " stale dropped \(pages.staleDropped), retries \(pages.retries), failures \(pages.failures)"
        )
        lines.append(
            "  rows: \(rows.fetched) fetched in \(rows.batches) batches, \(rows.distinctShown) shown, over-fetch \(f(rows.overfetchRatio, 2))×;"
                + " \(rows.redundant) redundant, \(rows.cancelledBatches) batches cancelled, \(rows.failedBatches) failed"
        )
        lines.append("  cells: \(cells.created) created, \(cells.reused) reused, at most \(cells.maxLive) live")
        if timeInFailedMs > 0 {
            lines.append("  failed (a load gave up after its retries) for \(f(timeInFailedMs, 0)) ms")
        }
        lines.append("  anchor drift: max \(f(anchorDriftMaxPt, 2)) pt")
        if edgeEffectMaxPt > 0 { lines.append("  edge effect: max \(f(edgeEffectMaxPt, 1)) pt pulled past an edge") }
        if let last = centredIndexChanges.last {
            lines.append("  carousel: centred item changed \(centredIndexChanges.count - 1) times, ends on item \(last.index)")
        }
        let supplementaryTaps = taps.filter { $0.element != nil && $0.element != "cell" }
        if !supplementaryTaps.isEmpty {
            lines.append("  taps: \(taps.count), \(supplementaryTaps.count) on supplementary views")
        }
        lines.append(
            "  final: offset (\(f(final.contentOffset[0])), \(f(final.contentOffset[1]))), content \(f(final.contentSize[0]))×\(f(final.contentSize[1])) pt, \(final.loadedItems) items loaded"
        )
        if violations.isEmpty {
            lines.append("  violations: none")
        } else {
            lines.append("  violations: \(violations.count)")
            for v in violations.prefix(5) {
                lines.append("    \(v.kind) at \(f(v.tMs, 0)) ms: \(v.detail)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
