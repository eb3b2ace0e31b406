import FeedModel

extension ConsistencyChecker {
    /// Duplicates and skips of every walk, each checked against the backend now (its span's ids,
    /// read by `truth`) with ``checkInFeedOrder(loadedIDs:survivorIDsInFeedOrder:existedAtStart:)``,
    /// or ``check(loadedIDs:survivorIDsInSpan:existedAtStart:)`` when that one cannot prove its
    /// counts, summed.
    /// - Parameters:
    ///   - truth: the session's ground-truth reader, on a connection of its own.
    ///   - maxIDAtStart: ``FeedModel/GroundTruthReader/maxID()`` read when the session started.
    ///   - metrics: counts the spans read from the backend and those answered from the kept span.
    /// - Throws: the reader's error.
    public static func check(
        walks: [Walk], truth: any GroundTruthReader, maxIDAtStart: Int64, metrics: inout LoadMetrics
    ) throws -> ConsistencyCount {
        let (read, reused) = (truth.spansRead, truth.spansReused)
        defer {
            metrics.spansRead += truth.spansRead - read
            metrics.spansReused += truth.spansReused - reused
        }
        var count = ConsistencyCount()
        for walk in walks {
            guard let newest = walk.newest, let oldest = walk.oldest else { continue }
            let survivors = try truth.spanIDs(newest: newest, oldest: oldest, expected: walk.count)
            let existedAtStart = { (id: Int64) in id <= maxIDAtStart }
            count =
                count
                + (checkInFeedOrder(loadedIDs: walk.ids, survivorIDsInFeedOrder: survivors, existedAtStart: existedAtStart)
                    ?? check(loadedIDs: walk.ids, survivorIDsInSpan: survivors, existedAtStart: existedAtStart))
        }
        return count
    }
}
