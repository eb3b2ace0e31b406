import FeedModel

/// What one session saw, compared with the store: items loaded twice and items it missed.
public struct ConsistencyCount: Hashable, Sendable, Codable {
    /// Loads of an id beyond its first: a page that repeats 3 items of the previous one adds 3.
    public var duplicates: Int
    /// Items the walk passed over without loading (see ``ConsistencyChecker``).
    public var skips: Int

    public init(duplicates: Int = 0, skips: Int = 0) {
        self.duplicates = duplicates
        self.skips = skips
    }

    /// Whether the session saw every item exactly once.
    public var isClean: Bool { duplicates == 0 && skips == 0 }

    public static func + (lhs: ConsistencyCount, rhs: ConsistencyCount) -> ConsistencyCount {
        ConsistencyCount(duplicates: lhs.duplicates + rhs.duplicates, skips: lhs.skips + rhs.skips)
    }
}

/// Compares the items a session loaded walking down the feed (the Init page, then More pages)
/// with the store's ground truth, and counts duplicates and skips.
///
/// Definitions, for one walk that loaded the sequence `L` of item stubs:
/// - **duplicates** = `|L| − |distinct ids in L|`: every load of an id after its first.
/// - **span**: the items between the newest and the oldest loaded one in feed order
///   (`publishedAt DESC, id DESC`), both included.
/// - **stable item**: one that existed the whole time the walk ran: present when it started and
///   still present when it ended. Items inserted during the walk (at the head, or anywhere) and
///   items deleted during the walk are not stable.
/// - **skips** = stable items in the span that are not in `L`.
///
/// So a keyset walk under concurrent inserts at the head has 0 and 0: new items land above the
/// span, and none of the span's items can be passed over. An OFFSET walk repeats the last `k`
/// items of a page when `k` items are inserted above it (k duplicates) and passes over `k` items
/// when `k` items above it are deleted (k skips).
public enum ConsistencyChecker {
    /// Counts duplicates and skips.
    /// - Parameters:
    ///   - loaded: the stubs the walk loaded, in load order.
    ///   - survivors: the ground truth when the walk ended: every item of the feed then, any order
    ///     (only the ones inside the span matter, so a caller may pass just those).
    ///   - existedAtStart: whether an id was present when the walk started (with insert-only
    ///     writers and SQLite-assigned ids: `id ≤ max(id)` read at the start).
    /// - Complexity: O(|L| + |survivors|) expected.
    public static func check(
        loaded: [Item], survivors: [Item], existedAtStart: (Int64) -> Bool
    ) -> ConsistencyCount {
        guard let newest = loaded.map(\.cursor).min(), let oldest = loaded.map(\.cursor).max() else {
            return ConsistencyCount()
        }
        let inSpan = survivors.lazy.filter { $0.cursor >= newest && $0.cursor <= oldest }.map(\.id)
        return check(loadedIDs: loaded.map(\.id), survivorIDsInSpan: inSpan, existedAtStart: existedAtStart)
    }

    /// Counts duplicates and skips, given the ids of the survivors inside the walk's span only
    /// (as ``GroundTruth`` reads them from the index): the same counts as
    /// ``check(loaded:survivors:existedAtStart:)`` with those survivors.
    /// - Parameter loadedIDs: the ids the walk loaded, in load order.
    /// - Complexity: O(|L| + |survivorIDsInSpan|) expected.
    public static func check(
        loadedIDs: [Int64], survivorIDsInSpan: some Sequence<Int64>, existedAtStart: (Int64) -> Bool
    ) -> ConsistencyCount {
        let seen = Set(loadedIDs)
        var skips = 0
        for id in survivorIDsInSpan where existedAtStart(id) && !seen.contains(id) { skips += 1 }
        return ConsistencyCount(duplicates: loadedIDs.count - seen.count, skips: skips)
    }

    /// The same counts in one pass and without hashing, when they can be proved that way: for the
    /// usual keyset walk, whose loads are the span's survivors in feed order with none repeated.
    ///
    /// Matches `loadedIDs` greedily, in order, against the survivors in feed order. If every load is
    /// matched, the walk is a subsequence of the survivors, which are distinct: so it has no
    /// duplicates, and the survivors left unmatched are exactly the ones it did not load (a
    /// survivor passed over cannot be loaded later, since its id occurs once). Otherwise (repeats,
    /// loads out of order, a loaded item deleted since) it returns `nil` and the caller counts with
    /// ``check(loadedIDs:survivorIDsInSpan:existedAtStart:)``.
    /// - Parameter loadedIDs: the ids the walk loaded, in load order.
    /// - Parameter survivorIDsInFeedOrder: the ids of the survivors inside the walk's span, in feed
    ///   order (`publishedAt DESC, id DESC`).
    /// - Precondition: the survivor ids are distinct (as ids of stored items are); the proof rests on it.
    /// - Returns: the counts (duplicates 0), or `nil` when this pass cannot prove them.
    /// - Complexity: O(|L| + |survivorIDsInFeedOrder|).
    public static func checkInFeedOrder(
        loadedIDs: [Int64], survivorIDsInFeedOrder: some Sequence<Int64>, existedAtStart: (Int64) -> Bool
    ) -> ConsistencyCount? {
        var matched = 0
        var skips = 0
        for id in survivorIDsInFeedOrder {
            if matched < loadedIDs.count && loadedIDs[matched] == id {
                matched += 1
            } else if existedAtStart(id) {
                skips += 1
            }
        }
        return matched == loadedIDs.count ? ConsistencyCount(duplicates: 0, skips: skips) : nil
    }
}
