import FeedModel

/// A walk of an API's More pages from the newest item to the end.
public struct SourceWalk: Sendable {
    /// Items received, in the order received (problems already dropped).
    public var items: [Item]
    public var pages: Int
    /// Requests that failed and were retried or ended the walk.
    public var failedRequests: Int
    /// Why the walk ended: `end of feed`, `page limit`, `N failures in a row`, `no cursor`.
    public var ending: String
}

extension HTTPFeedBackend {
    /// Follows More from the newest page (or from the API cursor `start`) until the API says no
    /// more, `maxPages` pages, or `maxFailures` failed requests in a row. Checks every page (see
    /// ``audit``); with ``truth``, then compares the items received with the truth's listing and
    /// records each item the walk skipped.
    /// - Complexity: one request per page; O(n log n) for the comparison of n items.
    public func walk(pageSize: Int, maxPages: Int = 100_000, maxFailures: Int = 3, start: String? = nil) throws -> SourceWalk {
        var items: [Item] = []
        var pages = 0
        var failures = 0
        var consecutive = 0
        var request: PageRequest = start.map { .after(nil, $0) } ?? .newest
        var ending = "end of feed"
        while true {
            if pages >= maxPages {
                ending = "page limit (\(maxPages))"
                break
            }
            let fetched: FetchedPage
            do {
                fetched = try fetch(request, limit: pageSize)
            } catch is HTTPSourceError {
                failures += 1
                consecutive += 1
                if consecutive >= maxFailures {
                    ending = "\(consecutive) failed requests in a row"
                    break
                }
                continue
            }
            consecutive = 0
            pages += 1
            items += fetched.page.items
            if fetched.unchangedCursor {
                ending = "cursor handed back unchanged"
                break
            }
            guard fetched.page.hasMoreAfter else { break }
            guard let token = fetched.nextToken else {
                // More exists, says the API, but nothing to ask for it with (an empty page, in a
                // convention whose cursor is the last item's): not the end of the feed.
                audit.record(
                    .noCursor, url: fetched.url,
                    "the page says more items exist but gives no cursor to ask for them"
                        + (fetched.page.items.isEmpty ? " (it holds no item)" : ""))
                ending = "no cursor"
                break
            }
            request = .after(fetched.page.lastCursor ?? bound(of: request), token)
        }
        if let truth {
            recordSkipped(received: items, truth: truth, complete: !ending.hasPrefix("page limit") && start == nil)
        }
        return SourceWalk(items: items, pages: pages, failedRequests: failures, ending: ending)
    }

    private func bound(of request: PageRequest) -> Cursor? {
        switch request {
        case .newest: return nil
        case .after(let cursor, _), .before(let cursor, _): return cursor
        }
    }

    /// Every truth item newer than the oldest item received (all of them after a complete walk)
    /// that the walk did not receive is a skipped item.
    private func recordSkipped(received: [Item], truth: any FeedBackend, complete: Bool) {
        guard var listing = try? truth.newest(limit: 1).items, !listing.isEmpty else { return }
        if let rest = try? truth.groundTruth(after: listing[0].cursor, limit: Int.max / 2) { listing += rest }
        let seen = Set(received.map(\.id))
        let oldest = received.map(\.cursor).max()
        for item in listing where !seen.contains(item.id) {
            if !complete, let oldest, oldest < item.cursor { continue }
            audit.record(.skippedItem, url: source, "item \(item.id) is in the truth database but was never received")
        }
    }
}
