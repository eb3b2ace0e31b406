import Foundation

extension LoadReport {
    /// `iterations: 1 of 1000 started before the 600 s duration ended; 999 never ran` when
    /// `--iterations` was cut short by the duration (k6's maxDuration), else `nil`.
    public var iterationsLine: String? {
        guard let notStarted = iterationsNotStarted, let iterations = settings.iterations else { return nil }
        let share = sessions.started + notStarted
        let of = share == iterations ? "\(iterations)" : "\(share) (this segment's share of \(iterations))"
        return "iterations: \(sessions.started) of \(of) started before the \(Self.fixed(settings.durationSeconds, 0)) s "
            + "duration ended; \(notStarted) never ran (raise --duration)"
    }

    /// The report for a terminal: one block per topic, latency as a table in milliseconds.
    public var text: String {
        var lines: [String] = []
        let s = settings
        var arrival = s.arrivalRate.map { "open, \(Self.fixed($0, 2)) arrivals/s, \(Self.count(s.sessions, "slot"))" }
            ?? "closed, \(Self.count(s.sessions, "session"))"
        if let stages = s.stages {
            arrival = s.arrivalRate == nil ? "closed, stages \(stages)" : "open, stages \(stages), \(Self.count(s.sessions, "slot"))"
        }
        // A segment runs its share of the sessions, slots, rate or ramp; the figures shown are the whole run's.
        if let segment = s.segment { arrival = "segment \(segment) of \(arrival)" }
        lines.append("load: \(s.db) feed \(s.feed), \(arrival), time scale \(s.timeScale), \(s.pagination.rawValue) pages of \(s.pageSize)")
        // Pagination sessions page without a trace or a layout.
        let paginates = s.session?.hasPrefix("pagination") == true
        let budget = s.session?.split(separator: ":").dropFirst().first.map { " of \(Self.count(Int($0) ?? 0, "page"))" } ?? ""
        let shape = paginates ? "pagination sessions\(budget)" : "traces \(s.traces.joined(separator: ",")), layout \(s.layout)"
        lines.append("  \(shape), \(Self.count(s.workers, "worker")), \(Self.count(s.writers, "writer"))"
            + (s.writers > 0 ? " at \(Self.fixed(s.writeRate, 1)) items/s in all" : "") + ", seed \(s.seed)"
            + (s.latency == "fixed:0" ? "" : ", client latency \(s.latency)"))
        let early =
            if let aborted {
                " (aborted by --abort-on-fail: \(aborted.threshold) breached at \(Self.fixed(aborted.atS, 1)) s)"
            } else if stoppedEarly { " (stopped early by SIGINT or SIGTERM)" } else { "" }
        lines.append("elapsed \(Self.fixed(elapsedSeconds, 2)) s" + early)
        let c = sessions
        lines.append(
            "sessions: \(c.started) started, \(c.completed) completed, \(c.interrupted) interrupted, "
                + "\(c.failed) failed; dropped_iterations \(droppedIterations)")
        if let line = iterationsLine { lines.append(line) }
        lines.append(
            "throughput: \(pages) pages (\(Self.fixed(pagesPerSecond, 1))/s), \(items) items, "
                + "\(rows) rows (\(Self.fixed(rowsPerSecond, 1))/s)")
        // Pagination sessions page down without frames: their steps are pages.
        let (steps, unit) =
            paginates ? ("pagination: \(pages) pages", "pages") : ("replay: \(frames) frames", "frames")
        if source != nil {
            // An HTTP feed API's requests run on the worker's libcurl multi handle while other sessions
            // step: their time is not part of the steps' time (and adds up over concurrent requests).
            lines.append(
                "\(steps), \(Self.fixed(replaySeconds * 1e3, 1)) ms in \(unit) (without waiting); requests took "
                    + "\(Self.fixed(querySeconds * 1e3, 1)) ms in all, concurrently")
        } else {
            lines.append(
                "\(steps), \(Self.fixed(replaySeconds * 1e3, 1)) ms in \(unit), of which "
                    + "\(Self.fixed(querySeconds * 1e3, 1)) ms in queries")
        }
        if s.writers == 0, inserted == 0, updated == 0, deleted == 0, insertTransactions == 0 {
            lines.append("writes: no writers")
        } else {
            lines.append(
                "writes: \(inserted) items inserted, \(updated) updated, \(deleted) deleted in \(insertTransactions) "
                    + "transactions (\(settings.writeMix)), \(busyWaits) busy waits")
        }
        lines.append("latency (ms)      count       p50       p90       p99     p99.9       max")
        for kind in QueryKind.allCases {
            guard let l = latency[kind.rawValue] else { continue }
            let cells = [l.p50, l.p90, l.p99, l.p999, l.max].map { pad(Self.fixed($0, 3), 10) }.joined()
            lines.append("  " + kind.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0) + pad("\(l.count)", 11) + cells)
        }
        if settings.stages != nil {
            lines.append(
                "per stage         wall s         started  dropped   pages/s  page p99 ms  blank mean  blank p95  ttfc p50 ms  ttfc p95 ms")
            func cell(_ value: Double?, _ digits: Int) -> String { value.map { Self.fixed($0, digits) } ?? "-" }
            for stage in stages {
                let span = "\(Self.fixed(stage.startS, 1))-\(Self.fixed(stage.endS, 1))"
                var line = "  " + stage.name.padding(toLength: 14, withPad: " ", startingAt: 0) + pad(span, 12)
                line += pad("\(stage.sessionsStarted)", 10) + pad("\(stage.droppedIterations)", 9)
                line += pad(Self.fixed(stage.pagesPerSecond, 1), 10) + pad(cell(stage.pageP99Ms, 3), 13)
                line += pad(cell(stage.blankMeanFraction, 4), 12) + pad(cell(stage.blankP95Fraction, 4), 11)
                line += pad(cell(stage.timeToFirstContentP50Ms, 0), 13) + pad(cell(stage.timeToFirstContentP95Ms, 0), 13)
                lines.append(line)
            }
        }
        if errors.isEmpty {
            lines.append("errors: none")
        } else {
            lines.append("errors: " + errors.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        }
        let k = consistency
        lines.append(
            "consistency (\(s.pagination.rawValue)): \(k.duplicates) duplicates, \(k.skips) skips "
                + "in \(k.sessionsChecked) sessions (\(k.spansRead) spans read from the index, \(k.spansReused) "
                + "unchanged since the last read)")
        if let verdict = consistencyVerdict { lines.append(verdict) }
        if k.replayViolations.isEmpty {
            lines.append("replay violations: none")
        } else {
            lines.append(
                "replay violations: "
                    + k.replayViolations.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        }
        for outcome in k.sessions {
            var line = "  session \(outcome.session): \(outcome.consistency.duplicates) duplicates, "
                + "\(outcome.consistency.skips) skips of \(outcome.itemsLoaded) items"
            if outcome.replayViolations > 0 { line += ", \(outcome.replayViolations) replay violations" }
            if let error = outcome.error { line += ", error: \(error)" }
            lines.append(line)
        }
        if !thresholds.isEmpty {
            let failed = thresholds.filter { !$0.passed }.count
            lines.append(
                "thresholds: " + (failed == 0 ? "all \(thresholds.count) passed" : "\(failed) of \(thresholds.count) failed"))
            for result in thresholds { lines.append("  " + result.line) }
        }
        // An HTTP feed API's requests and what the checks found in its answers (`--source`).
        if let source { lines += source.textLines }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The consistency figures in words: what a walk that repeated or lost items means, and that
    /// with OFFSET pages it is what the baseline exists to show; `nil` for a clean walk.
    public var consistencyVerdict: String? {
        let k = consistency
        guard k.duplicates > 0 || k.skips > 0 else { return nil }
        let what = "the walks repeated \(k.duplicates) item(s) and lost \(k.skips) item(s)"
        switch settings.pagination {
        case .offset:
            return "  \(what): OFFSET pages shift when rows are inserted or deleted above them; "
                + "this is the baseline's point (keyset pages show 0 duplicates, 0 skips)"
        case .keyset:
            return "  \(what) with keyset pages: a bug (they must show 0 duplicates, 0 skips)"
        }
    }

    private func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }

    /// `1 session`, `8 sessions`: a count with its noun, singular for one.
    static func count(_ n: Int, _ noun: String) -> String { n == 1 ? "1 \(noun)" : "\(n) \(noun)s" }
}
