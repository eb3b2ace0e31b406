import FeedEngine
import FeedModel

extension ReplaySession {
    /// Checks a change before it is applied: no duplicate ids, feed order kept at the junction and
    /// inside the new items, and no gap against the backend's ground truth (the items the store
    /// holds between the neighbours must be exactly the new ones).
    ///
    /// - Complexity: O(m) for m new items plus one ground-truth query of m + 1 items.
    func checkInvariants(of change: FeedChange) {
        let new: [Item]
        let previous: Item?  // the loaded item just above the new ones
        let next: Item?  // the loaded item just below the new ones
        switch change {
        case .append(let items):
            new = items
            previous = shown.items.last
            next = nil
        case .prepend(let items):
            new = items
            previous = nil
            next = shown.items.first
        case .replace(let items):
            new = items
            previous = nil
            next = nil
        case .dropFirst, .dropLast:
            return
        }
        guard !new.isEmpty else { return }
        var seen = ItemIDSet(minimumCapacity: new.count)
        let existing: ItemIDSet
        if case .replace = change { existing = ItemIDSet() } else { existing = shown.ids }
        for item in new where existing.contains(item.id) || !seen.insert(item.id) {
            violation("duplicate_id", "item \(item.id) is already loaded")
        }
        let run = (previous.map { [$0] } ?? []) + new + (next.map { [$0] } ?? [])
        for (a, b) in zip(run, run.dropFirst()) where !(a.cursor < b.cursor) {
            violation("order_broken", "item \(b.id) (published_at \(b.publishedAt)) follows item \(a.id) (published_at \(a.publishedAt))")
        }
        // Ground truth: what the store holds right after the first item of the run.
        let bound = run[run.count - 1].cursor
        let expected = run.dropFirst().map(\.id)
        if let pipeline {
            // Read on the pipeline's thread (a snapshot of this moment all the same); the violations
            // it finds take their place in the list when it is in (``resolveGapChecks(waiting:)``).
            pendingGapChecks.append(
                PendingGapCheck(
                    slot: violations.count, tMs: round6(now), firstID: run[0].id, expected: expected, bound: bound,
                    truth: pipeline.startGroundTruthCursors(after: run[0].cursor, limit: run.count - 1)))
            return
        }
        let found: [ReplayReport.Violation]
        do {
            let truth = try backend.groundTruthCursors(after: run[0].cursor, limit: run.count - 1)
            found = Self.gapViolations(
                truth: truth, expected: expected, bound: bound, firstID: run[0].id, tMs: round6(now))
        } catch {
            if error.isPermanentBackendFailure, permanentFailure == nil { permanentFailure = error }
            found = [ReplayReport.Violation(kind: "ground_truth_error", tMs: round6(now), detail: "\(error)")]
        }
        violations += found
    }

    /// The gap check's verdict: a gap is an item the store holds inside the run's span (up to
    /// `bound`) that the feed does not show; an item of the run the store no longer holds was
    /// deleted since it was read (a load writer's delete), which is not a gap.
    /// - Parameters:
    ///   - truth: the store's cursors right after the run's first item (`firstID`).
    ///   - expected: the ids the feed shows after that item.
    static func gapViolations(
        truth: [Cursor], expected: [Int64], bound: Cursor, firstID: Int64, tMs: Double
    ) -> [ReplayReport.Violation] {
        let truthIDs = truth.map(\.id)
        // The set only when the lists differ (they rarely do): building it per page was 1 % of
        // a load session's instructions.
        guard truthIDs != expected, case let expectedIDs = ItemIDSet(expected),
            truth.contains(where: { $0 <= bound && !expectedIDs.contains($0.id) })
        else { return [] }
        let missing = truthIDs.filter { !expected.contains($0) }.prefix(3)
        return [
            ReplayReport.Violation(
                kind: "gap", tMs: tMs,
                detail: "after item \(firstID) the store holds \(Array(truthIDs.prefix(5))) but the feed shows \(expected.prefix(5))"
                    + (missing.isEmpty ? "" : "; missing \(Array(missing))"))
        ]
    }

    /// Puts the verdicts of the gap checks whose ground truth has been read (all of them, waiting,
    /// with `waiting`) where a synchronous check would have put them: at the length the violation
    /// list had when each check was made, so the list is the same whichever frame they come in.
    /// Resolved in check order; a permanent failure is thrown by the frame through the pipeline.
    func resolveGapChecks(waiting: Bool) {
        var resolved = 0
        while resolved < pendingGapChecks.count {
            // Read afresh each time: resolving a check moves the slots of those after it.
            let check = pendingGapChecks[resolved]
            guard waiting || check.truth.isDone else { break }
            let found: [ReplayReport.Violation]
            switch check.truth.wait() {
            case .success(let truth):
                found = Self.gapViolations(
                    truth: truth, expected: check.expected, bound: check.bound, firstID: check.firstID, tMs: check.tMs)
            case .failure(let error):
                found = [ReplayReport.Violation(kind: "ground_truth_error", tMs: check.tMs, detail: "\(error)")]
            }
            resolved += 1
            guard !found.isEmpty else { continue }
            violations.insert(contentsOf: found, at: check.slot)
            // The checks made after this one counted the list without its verdicts.
            for later in resolved..<pendingGapChecks.count { pendingGapChecks[later].slot += found.count }
        }
        pendingGapChecks.removeFirst(resolved)
    }

    func violation(_ kind: String, _ detail: String) {
        violations.append(ReplayReport.Violation(kind: kind, tMs: round6(now), detail: detail))
    }
}

/// A gap check whose ground truth a ``PipelinedBackend`` is reading (see
/// ``ReplaySession/resolveGapChecks(waiting:)``).
struct PendingGapCheck {
    /// Where its verdicts go in the violation list (its length when the check was made).
    var slot: Int
    var tMs: Double
    var firstID: Int64
    var expected: [Int64]
    var bound: Cursor
    var truth: PipelinedAnswer<[Cursor]>
}
