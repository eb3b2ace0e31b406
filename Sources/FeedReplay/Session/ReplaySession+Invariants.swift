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
        do {
            let truth = try backend.groundTruthCursors(after: run[0].cursor, limit: run.count - 1)
            let expected = run.dropFirst().map(\.id)
            // An item of the run the store no longer holds was deleted since it was read (a load
            // writer's delete): not a gap. A gap is an item the store holds inside the run's span
            // that the feed does not show.
            let bound = run[run.count - 1].cursor
            let truthIDs = truth.map(\.id)
            // The set only when the lists differ (they rarely do): building it per page was 1 % of
            // a load session's instructions.
            if truthIDs != expected, case let expectedIDs = ItemIDSet(expected),
                truth.contains(where: { $0 <= bound && !expectedIDs.contains($0.id) })
            {
                let missing = truthIDs.filter { !expected.contains($0) }.prefix(3)
                violation(
                    "gap", "after item \(run[0].id) the store holds \(Array(truthIDs.prefix(5))) but the feed shows \(expected.prefix(5))"
                        + (missing.isEmpty ? "" : "; missing \(Array(missing))"))
            }
        } catch {
            if error.isPermanentBackendFailure, permanentFailure == nil { permanentFailure = error }
            violation("ground_truth_error", "\(error)")
        }
    }

    func violation(_ kind: String, _ detail: String) {
        violations.append(ReplayReport.Violation(kind: kind, tMs: round6(now), detail: detail))
    }
}
