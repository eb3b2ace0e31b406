import FeedModel
import Foundation

/// Why load reports cannot be merged: not segments of one run, or not mergeable data.
public struct LoadReportMergeError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

extension LoadReport {
    /// The report of the whole run from the reports of its segments (`--segment I/N`, one per
    /// process or machine), exactly: counters summed, latency histograms added bucket by bucket and
    /// their percentiles recomputed from the merged buckets (never averaged), the timelines added
    /// second by second (interval k of each segment, counted from its own start), elapsed time
    /// the longest segment's, rates recomputed over it.
    ///
    /// `feedsim report merge OUT IN...`. The settings must be the same run's: equal but for the
    /// segment and the worker threads (a machine may run more), the segments `1/N … N/N` each
    /// exactly once.
    /// - Parameter reports: each report with the name to use for it in messages (its file).
    /// - Throws: ``LoadReportMergeError`` naming the report and the setting that differs, a
    ///   missing or repeated segment, or a report without histograms (written before they were kept).
    public static func merge(_ reports: [(name: String, report: LoadReport)]) throws -> LoadReport {
        guard let (firstName, first) = reports.first else { throw LoadReportMergeError("no reports to merge") }
        var segments: [Int: String] = [:]
        var total: Int?
        for (name, report) in reports {
            guard let text = report.settings.segment, let segment = LoadSegment(parsing: text) else {
                throw LoadReportMergeError("\(name): not a segment of a run (run each part with --segment I/N)")
            }
            if let total, total != segment.count {
                throw LoadReportMergeError(
                    "\(name): segment \(text) is of a run cut into \(segment.count), \(firstName)'s into \(total): not the same run")
            }
            total = segment.count
            if let other = segments[segment.index] {
                throw LoadReportMergeError("\(name): segment \(text) is also in \(other)")
            }
            segments[segment.index] = name
            if let difference = first.settings.difference(from: report.settings) {
                throw LoadReportMergeError(
                    "\(name): not the same run as \(firstName): \(difference) differs; refusing to merge")
            }
            if report.thresholds.map(\.expression) != first.thresholds.map(\.expression) {
                throw LoadReportMergeError("\(name): not the same run as \(firstName): thresholds differs; refusing to merge")
            }
            guard report.histograms != nil, report.timeline.allSatisfy({ $0.histograms != nil }) else {
                throw LoadReportMergeError("\(name): the report carries no histograms (written by an older feedsim)")
            }
        }
        let count = total ?? 1
        let missing = (1...count).filter { segments[$0] == nil }
        guard missing.isEmpty else {
            throw LoadReportMergeError(
                "missing segment(s) " + missing.map { "\($0)/\(count)" }.joined(separator: ", ")
                    + " of the run: merge all \(count)")
        }
        let all = reports.map(\.report)
        var merged = first
        merged.settings.segment = nil
        merged.settings.workers = all.reduce(0) { $0 + $1.settings.workers }
        merged.elapsedSeconds = all.map(\.elapsedSeconds).max() ?? 0
        merged.stoppedEarly = all.contains { $0.stoppedEarly }
        let parts = reports.map { (name: $0.name, part: $0.report) }
        func sum(_ field: String, _ value: (LoadReport) -> Int) throws -> Int { try Self.total(parts, field, value) }
        func sum(_ value: (LoadReport) -> Double) -> Double { all.reduce(0) { $0 + value($1) } }
        merged.sessions = SessionCounts(
            started: try sum("sessions.started", \.sessions.started),
            completed: try sum("sessions.completed", \.sessions.completed),
            failed: try sum("sessions.failed", \.sessions.failed),
            interrupted: try sum("sessions.interrupted", \.sessions.interrupted),
            dropped: try sum("sessions.dropped", \.sessions.dropped))
        let notStarted = parts.filter { $0.part.iterationsNotStarted != nil }
        merged.iterationsNotStarted =
            notStarted.isEmpty ? nil : try Self.total(notStarted, "iterations_not_started") { $0.iterationsNotStarted ?? 0 }
        merged.pages = try sum("pages", \.pages)
        merged.items = try sum("items", \.items)
        merged.rows = try sum("rows", \.rows)
        merged.frames = try sum("frames", \.frames)
        let seconds = merged.elapsedSeconds
        merged.pagesPerSecond = round(seconds > 0 ? Double(merged.pages) / seconds : 0, 1)
        merged.rowsPerSecond = round(seconds > 0 ? Double(merged.rows) / seconds : 0, 1)
        merged.replaySeconds = round(sum(\.replaySeconds), 6)
        merged.querySeconds = round(sum(\.querySeconds), 6)
        merged.cpuSeconds = round(sum(\.cpuSeconds), 6)
        merged.inserted = try sum("inserted", \.inserted)
        merged.updated = try sum("updated", \.updated)
        merged.deleted = try sum("deleted", \.deleted)
        merged.insertTransactions = try sum("insert_transactions", \.insertTransactions)
        merged.busyWaits = try sum("busy_waits", \.busyWaits)
        merged.errors = try totals(parts, "errors", \.errors)
        merged.startFailure = zip(reports.map(\.name), all).first { $0.1.startFailure != nil }.map {
            "\($0.0): \($0.1.startFailure ?? "")"
        }

        let histograms = try mergeHistograms(reports.map { ($0.name, $0.report.histograms ?? [:]) })
        merged.histograms = histograms.mapValues(\.buckets)
        var latency: [String: Latency] = [:]
        for (kind, histogram) in histograms where kind != timeToFirstContentKey && kind != blankFractionKey {
            latency[kind] = Self.latency(histogram, digits: 4)
        }
        merged.latency = latency
        let finished = try sum("replays.finished", \.replays.finished)
        let blankSum = sum { $0.blankMeanSum ?? 0 }
        merged.blankMeanSum = blankSum
        let ttfc = histograms[timeToFirstContentKey]
        merged.replays = Replays(
            finished: finished, blankMeanFraction: finished > 0 ? round(blankSum / Double(finished), 6) : nil,
            timeToFirstContent: ttfc.map { Self.latency($0, digits: 3) })

        var consistency = first.consistency
        consistency.sessionsChecked = try sum("consistency.sessions_checked", \.consistency.sessionsChecked)
        consistency.duplicates = try sum("consistency.duplicates", \.consistency.duplicates)
        consistency.skips = try sum("consistency.skips", \.consistency.skips)
        consistency.spansRead = try sum("consistency.spans_read", \.consistency.spansRead)
        consistency.spansReused = try sum("consistency.spans_reused", \.consistency.spansReused)
        consistency.replayViolations = try totals(parts, "consistency.replay_violations", \.consistency.replayViolations)
        // Each segment lists its first 50 notable sessions by number, so the first 50 of their
        // union are the first 50 of the whole run's.
        consistency.sessions = Array(all.flatMap(\.consistency.sessions).sorted { $0.session < $1.session }.prefix(50))
        merged.consistency = consistency
        merged.timeline = try mergeTimelines(reports)
        merged.stages = try mergeStages(reports)
        merged.droppedIterations = try sum("dropped_iterations", \.droppedIterations)
        merged.source = SourceProblems.merge(all.compactMap(\.source))
        // The run's thresholds measured again on the merged data (a segment's verdict is only its
        // own share's); an abort in any segment stays recorded.
        var metrics = LoadMetrics()
        for (key, histogram) in histograms {
            if key == timeToFirstContentKey {
                metrics.timeToFirstContent = histogram
            } else if key == blankFractionKey {
                metrics.blankFraction = histogram
            } else if let kind = QueryKind(rawValue: key) {
                metrics.latency[kind] = histogram
            }
        }
        metrics.errors = merged.errors
        metrics.sessionsChecked = consistency.sessionsChecked
        metrics.consistency = ConsistencyCount(duplicates: consistency.duplicates, skips: consistency.skips)
        let inputs = ThresholdInputs(
            metrics: metrics, droppedIterations: merged.droppedIterations, elapsedSeconds: merged.elapsedSeconds,
            answers: merged.source.map { AnswerTally(problems: $0.problems.values.reduce(0, +), requests: $0.requests) })
        merged.thresholds = try first.thresholds.map { result in
            do {
                return try LoadThreshold.parse(result.expression).evaluate(inputs)
            } catch {
                throw LoadReportMergeError("\(firstName): threshold '\(result.expression)': \(error)")
            }
        }
        merged.aborted = all.compactMap(\.aborted).first
        return merged
    }

    /// Each key's histograms added. - Throws: ``LoadReportMergeError`` for data that is no histogram.
    private static func mergeHistograms(
        _ sets: [(name: String, histograms: [String: LatencyHistogram.Buckets])]
    ) throws -> [String: LatencyHistogram] {
        var merged: [String: LatencyHistogram] = [:]
        for (name, histograms) in sets {
            for (key, data) in histograms {
                let histogram: LatencyHistogram
                do {
                    histogram = try LatencyHistogram(buckets: data)
                } catch {
                    throw LoadReportMergeError("\(name): histogram \(key): \(error)")
                }
                // A bucket holds at most its histogram's count: counts that add up keep every bucket in range.
                guard !(merged[key]?.count ?? 0).addingReportingOverflow(histogram.count).overflow else {
                    throw LoadReportMergeError("\(name): histogram \(key): the counts add up past \(UInt64.max)")
                }
                merged[key, default: LatencyHistogram()].merge(histogram)
            }
        }
        return merged
    }

    /// The stages added stage by stage (by name; each segment's report names the whole run's
    /// stages): counts summed, histograms added and their percentiles recomputed, the measured
    /// start the earliest and the end the latest, pages/s over that span, sessions active at the
    /// end summed. A stage only some segments reached is the sum of those that did.
    /// - Throws: ``LoadReportMergeError`` for a stage without histograms (an older feedsim's report).
    private static func mergeStages(_ reports: [(name: String, report: LoadReport)]) throws -> [LoadStageReport] {
        var order: [String] = []
        var parts: [String: [(name: String, stage: LoadStageReport)]] = [:]
        for (name, report) in reports {
            for stage in report.stages {
                if parts[stage.name] == nil { order.append(stage.name) }
                parts[stage.name, default: []].append((name, stage))
            }
        }
        return try order.map { stageName in
            let entries = parts[stageName] ?? []
            for (name, stage) in entries where stage.histograms == nil {
                throw LoadReportMergeError("\(name): stage \(stage.name) carries no histograms (written by an older feedsim)")
            }
            let stages = entries.map(\.stage)
            var merged = stages[0]
            func sum(_ field: String, _ value: (LoadStageReport) -> Int) throws -> Int {
                try total(entries.map { ($0.name, $0.stage) }, "stage \(stageName) \(field)", value)
            }
            merged.startS = stages.map(\.startS).min() ?? 0
            merged.endS = stages.map(\.endS).max() ?? 0
            merged.sessionsStarted = try sum("sessions_started", \.sessionsStarted)
            merged.sessionsCompleted = try sum("sessions_completed", \.sessionsCompleted)
            merged.sessionsInterrupted = try sum("sessions_interrupted", \.sessionsInterrupted)
            merged.sessionsFailed = try sum("sessions_failed", \.sessionsFailed)
            merged.sessionsActiveAtEnd = try sum("sessions_active_at_end", \.sessionsActiveAtEnd)
            merged.droppedIterations = try sum("dropped_iterations", \.droppedIterations)
            merged.pages = try sum("pages", \.pages)
            merged.pagesPerSecond = round(Double(merged.pages) / max(merged.endS - merged.startS, 1e-9), 1)
            merged.errors = try sum("errors", \.errors)
            merged.replaysFinished = try sum("replays_finished", \.replaysFinished)
            merged.blankMeanSum = stages.reduce(0) { $0 + ($1.blankMeanSum ?? 0) }
            let histograms = try mergeHistograms(
                entries.map { ("\($0.name) stage \(stageName)", $0.stage.histograms ?? [:]) })
            merged.setFigures(from: histograms)
            return merged
        }
    }

    /// The timelines added interval by interval: interval k of every segment (k seconds after its
    /// own start) makes interval k of the merged run; a segment that ended sooner adds nothing
    /// to the later ones.
    private static func mergeTimelines(_ reports: [(name: String, report: LoadReport)]) throws -> [LoadSecond] {
        let length = reports.map(\.report.timeline.count).max() ?? 0
        return try (0..<length).map { k in
            let parts = reports.compactMap { entry in
                entry.report.timeline.indices.contains(k) ? (entry.name, entry.report.timeline[k]) : nil
            }
            var second = parts[0].1
            second.startS = parts.map(\.1.startS).min() ?? 0
            second.endS = parts.map(\.1.endS).max() ?? 0
            func sum(_ field: String, _ value: (LoadSecond) -> Int) throws -> Int {
                try total(parts.map { ($0.0, $0.1) }, "timeline[\(k)].\(field)", value)
            }
            func sum(_ value: (LoadSecond) -> Double) -> Double { parts.reduce(0) { $0 + value($1.1) } }
            second.sessionsActive = try sum("sessions_active", \.sessionsActive)
            second.sessionsStarted = try sum("sessions_started", \.sessionsStarted)
            second.sessionsCompleted = try sum("sessions_completed", \.sessionsCompleted)
            second.sessionsFailed = try sum("sessions_failed", \.sessionsFailed)
            second.pagesPerSecond = round(sum(\.pagesPerSecond), 1)
            second.rowsPerSecond = round(sum(\.rowsPerSecond), 1)
            second.errors = try sum("errors", \.errors)
            let histograms = try mergeHistograms(parts.map { ("\($0.0) timeline second \(k)", $0.1.histograms ?? [:]) })
            second.histograms = histograms.mapValues(\.buckets)
            var latency: [String: LoadSecond.Latency] = [:]
            for (kind, histogram) in histograms where kind != timeToFirstContentKey && kind != blankFractionKey {
                latency[kind] = LoadSecond.latency(histogram)
            }
            second.latency = latency
            second.replaysFinished = try sum("replays_finished", \.replaysFinished)
            let blankSum = sum { $0.blankMeanSum ?? 0 }
            second.blankMeanSum = blankSum
            second.blankMeanFraction =
                second.replaysFinished > 0 ? round(blankSum / Double(second.replaysFinished), 6) : nil
            second.timeToFirstContentP50Ms = histograms[timeToFirstContentKey].flatMap(LoadSecond.timeToFirstContentP50)
            return second
        }
    }
}

extension LoadReport.Settings {
    /// The first setting (by its JSON name) in which `other` is another run than this one, ignoring
    /// the segment and the worker threads; `nil` when they are one run's.
    func difference(from other: LoadReport.Settings) -> String? {
        var a = self
        var b = other
        a.segment = nil
        b.segment = nil
        a.workers = 0
        b.workers = 0
        guard a != b else { return nil }
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = .sortedKeys
        guard let left = try? JSONSerialization.jsonObject(with: encoder.encode(a)) as? [String: Any],
            let right = try? JSONSerialization.jsonObject(with: encoder.encode(b)) as? [String: Any]
        else { return "the settings" }
        for key in Set(left.keys).union(right.keys).sorted() {
            let l = left[key].map { "\($0)" } ?? "none"
            let r = right[key].map { "\($0)" } ?? "none"
            if l != r { return "\(key) (\(l) vs \(r))" }
        }
        return "the settings"
    }
}

extension LoadReport {
    /// One counter of every part added: the merge's sums.
    /// - Throws: ``LoadReportMergeError`` naming the part and `field` for a negative count (no
    ///   report feedsim writes has one), or `field` when the total passes `Int.max` (a hand-edited
    ///   report; the sum trapped before).
    static func total<Part>(_ parts: [(name: String, part: Part)], _ field: String, _ value: (Part) -> Int) throws -> Int {
        var sum = 0
        for (name, part) in parts {
            let count = value(part)
            guard count >= 0 else { throw LoadReportMergeError("\(name): \(field) is \(count): a count cannot be negative") }
            let (next, overflow) = sum.addingReportingOverflow(count)
            guard !overflow else { throw LoadReportMergeError("\(field): the segments' counts add up past \(Int.max)") }
            sum = next
        }
        return sum
    }

    /// Counters by key (errors by code, violations by kind) added key by key, as ``total(_:_:_:)``.
    static func totals<Part>(
        _ parts: [(name: String, part: Part)], _ field: String, _ value: (Part) -> [String: Int]
    ) throws -> [String: Int] {
        let keys = Set(parts.flatMap { value($0.part).keys })
        var out: [String: Int] = [:]
        for key in keys.sorted() { out[key] = try total(parts, "\(field).\(key)") { value($0)[key] ?? 0 } }
        return out
    }
}
