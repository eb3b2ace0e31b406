import FeedModel

extension FeedController {
    /// How far ahead of the viewport a load is triggered: when More (bottom) or a prepend (top) fires.
    ///
    /// Each unit follows the rule of the platform it is named after:
    /// - ``items(_:)``: Paging 3's `PagingConfig.prefetchDistance`. `PageFetcherSnapshot.nextLoadKeyOrNull`
    ///   (androidx paging-common) loads while `presentedItemsBeyondAnchor < prefetchDistance`, where that
    ///   count is the loaded items after the last accessed (visible) item, plus the items loaded since
    ///   for the same hint. So More fires when **fewer than** N items remain below the last visible
    ///   one (`count − 1 − lastVisible < N`), and a page that lands while the viewport rests fires the
    ///   next only while the items below are still fewer than N. A prepend mirrors it with the items
    ///   above the first visible one. react-window-infinite-loader's `threshold` is the same rule: it
    ///   scans `[start − threshold, stop + threshold]` for unloaded rows, with `itemCount` one past the
    ///   loaded rows, so it loads when `loaded − 1 − stop < threshold`. N ≥ 1, as Paging 3 requires
    ///   without placeholders (`PagingConfig`: "either placeholders must be enabled, or prefetch
    ///   distance must be > 0").
    /// - ``screenfuls(_:)``: Texture's `leadingScreensForBatching` (`ASDisplayShouldFetchBatchForContext`,
    ///   Texture's ASBatchFetching.mm): a batch is fetched when
    ///   `contentLength − viewLength − offset ≤ viewLength × leadingScreens`, and always when the
    ///   content is shorter than the viewport. (Texture fetches nothing at 0 screens; here 0 fires only
    ///   at the very end.) A prepend fires when `offset ≤ viewLength × S`, as Texture's
    ///   `canBatchFetchPrepend` branch.
    /// - ``points(_:)``: the same comparison in points (`distance to the end ≤ P`), what a
    ///   `scrollViewDidScroll` check against `contentSize` does in a UIKit app.
    ///
    /// Content shorter than the viewport (a negative distance, or every item visible) triggers, page
    /// after page, unless the last page at that end added no extent and the viewport has not moved
    /// since (see ``FeedController``'s rules).
    public enum PrefetchDistance: Hashable, Sendable, Codable {
        /// Points between the viewport's edge and the end of the content.
        case points(Double)
        /// Viewport lengths between the viewport's edge and the end of the content.
        case screenfuls(Double)
        /// Loaded items beyond the last (or before the first) visible item, as Paging 3's
        /// `PagingConfig.prefetchDistance` (≥ 1).
        case items(Int)
    }

    /// Exponential backoff with jitter for failed loads.
    ///
    /// The delay before retry *n* (n = 1 after the first failure) is
    /// `min(cap, base × factor^(n−1)) × (1 + jitter × u)` with `u` uniform in [−1, 1) drawn from a
    /// ``SplitMix64`` seeded with `seed`: the shape of gRPC's connection backoff
    /// (grpc/doc/connection-backoff.md: initial 1 s, multiplier 1.6, jitter 0.2). The cap of 30 s and
    /// the limit of 4 attempts are FeedSim's choices for a feed (a user waits less than a daemon);
    /// `maxAttempts` counts the first attempt, as gRPC's retry policy (proposal A6) does.
    public struct RetryPolicy: Hashable, Sendable, Codable {
        /// Delay before the first retry, milliseconds.
        public var baseMilliseconds: Double
        /// Growth of the delay per attempt (≥ 1).
        public var factor: Double
        /// Largest delay before jitter, milliseconds.
        public var capMilliseconds: Double
        /// Attempts in all, the first one included (≥ 1). After that many failures the direction
        /// stays failed until the next user trigger (pull to refresh or ``FeedController/retry(now:)``).
        public var maxAttempts: Int
        /// Jitter as a fraction of the delay, in [0, 1): the delay is spread uniformly over ±jitter.
        public var jitter: Double
        /// Seed of the jitter generator.
        public var seed: UInt64

        public init(
            baseMilliseconds: Double = 1000, factor: Double = 1.6, capMilliseconds: Double = 30_000,
            maxAttempts: Int = 4, jitter: Double = 0.2, seed: UInt64 = 0
        ) {
            self.baseMilliseconds = baseMilliseconds
            self.factor = factor
            self.capMilliseconds = capMilliseconds
            self.maxAttempts = maxAttempts
            self.jitter = jitter
            self.seed = seed
        }

        /// The delay before the retry that follows failure number `attempt` (1-based), milliseconds.
        /// - Parameters:
        ///   - attempt: how many attempts have failed so far, ≥ 1.
        ///   - unit: a uniform draw in [0, 1) (mapped to u = 2·unit − 1 in [−1, 1)).
        public func delay(afterAttempt attempt: Int, unit: Double) -> Double {
            var raw = baseMilliseconds
            var step = 1
            while step < attempt && raw < capMilliseconds {
                raw *= factor
                step += 1
            }
            let capped = min(capMilliseconds, raw)
            return capped * (1 + jitter * (2 * unit - 1))
        }
    }

    /// Everything the controller needs to decide when to load. All lengths in points, times in
    /// milliseconds, counts in items.
    public struct Configuration: Hashable, Sendable, Codable {
        /// Items per page for Refresh, More, prepend and gap-fill requests.
        public var pageSize: Int
        /// Init loads `initialLoadPages × pageSize` items in one request (Paging 3's
        /// `initialLoadSize` defaults to 3 × pageSize).
        public var initialLoadPages: Int
        /// When More and prepends fire. Default: one page of items, as Paging 3's `prefetchDistance`.
        public var prefetchDistance: PrefetchDistance
        /// A pull released at or beyond this distance (points past the top) starts a Refresh.
        /// 50 pt is about where `UIRefreshControl` triggers.
        public var refreshThreshold: Double
        /// Backoff for failed loads.
        public var retry: RetryPolicy
        /// How many `before(cursor)` pages a Refresh loads to close a gap between the newest page
        /// and the current first item before it gives up and replaces the list (0: replace at once).
        /// Default 3: a gap-fill costs at most what an Init costs.
        public var maxGapPages: Int
        /// Page dropping: the most items kept loaded (`nil`: never drop), as Paging 3's `maxSize`.
        /// Must hold an Init plus one page, and for `.items(d)` at least `pageSize + 2d` (Paging 3's rule).
        public var maxLoadedItems: Int?

        public init(
            pageSize: Int = 20, initialLoadPages: Int = 3, prefetchDistance: PrefetchDistance? = nil,
            refreshThreshold: Double = 50, retry: RetryPolicy = RetryPolicy(), maxGapPages: Int = 3,
            maxLoadedItems: Int? = nil
        ) {
            self.pageSize = pageSize
            self.initialLoadPages = initialLoadPages
            self.prefetchDistance = prefetchDistance ?? .items(pageSize)
            self.refreshThreshold = refreshThreshold
            self.retry = retry
            self.maxGapPages = maxGapPages
            self.maxLoadedItems = maxLoadedItems
        }

        /// Items requested by Init.
        public var initialLoadSize: Int { initialLoadPages * pageSize }

        /// Checks every field.
        /// - Throws: ``ConfigurationError`` naming the first invalid field.
        public func validate() throws(ConfigurationError) {
            func fail(_ field: String, _ value: String, _ reason: String) -> ConfigurationError {
                ConfigurationError(field: field, value: value, reason: reason)
            }
            guard pageSize >= 1 else { throw fail("pageSize", "\(pageSize)", "must be at least 1") }
            guard initialLoadPages >= 1 else {
                throw fail("initialLoadPages", "\(initialLoadPages)", "must be at least 1")
            }
            switch prefetchDistance {
            case .points(let p):
                guard p.isFinite, p >= 0 else { throw fail("prefetchDistance", "\(p) pt", "must be finite and ≥ 0") }
            case .screenfuls(let s):
                guard s.isFinite, s >= 0 else {
                    throw fail("prefetchDistance", "\(s) screenfuls", "must be finite and ≥ 0")
                }
            case .items(let d):
                guard d >= 1 else {
                    throw fail("prefetchDistance", "\(d) items", "must be ≥ 1 (Paging 3: fewer than N remaining loads)")
                }
            }
            guard refreshThreshold.isFinite, refreshThreshold > 0 else {
                throw fail("refreshThreshold", "\(refreshThreshold)", "must be finite and > 0")
            }
            guard retry.baseMilliseconds.isFinite, retry.baseMilliseconds >= 0 else {
                throw fail("retry.baseMilliseconds", "\(retry.baseMilliseconds)", "must be finite and ≥ 0")
            }
            guard retry.factor.isFinite, retry.factor >= 1 else {
                throw fail("retry.factor", "\(retry.factor)", "must be finite and ≥ 1")
            }
            guard retry.capMilliseconds.isFinite, retry.capMilliseconds >= retry.baseMilliseconds else {
                throw fail("retry.capMilliseconds", "\(retry.capMilliseconds)", "must be finite and ≥ the base")
            }
            guard retry.maxAttempts >= 1 else {
                throw fail("retry.maxAttempts", "\(retry.maxAttempts)", "must be at least 1")
            }
            guard retry.jitter >= 0, retry.jitter < 1 else {
                throw fail("retry.jitter", "\(retry.jitter)", "must be in [0, 1)")
            }
            guard maxGapPages >= 0 else { throw fail("maxGapPages", "\(maxGapPages)", "must be ≥ 0") }
            if let maxLoadedItems {
                let floor = initialLoadSize + pageSize
                guard maxLoadedItems >= floor else {
                    throw fail("maxLoadedItems", "\(maxLoadedItems)", "must hold an Init plus one page (≥ \(floor))")
                }
                if case .items(let d) = prefetchDistance, maxLoadedItems < pageSize + 2 * d {
                    throw fail(
                        "maxLoadedItems", "\(maxLoadedItems)",
                        "must be ≥ pageSize + 2 × prefetchDistance (\(pageSize + 2 * d)), as Paging 3 requires")
                }
            }
        }
    }

    /// A configuration field with a value the controller cannot work with.
    public struct ConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
        public var field: String
        public var value: String
        public var reason: String
        public var description: String { "invalid feed controller configuration \(field)=\(value): \(reason)" }
    }
}
