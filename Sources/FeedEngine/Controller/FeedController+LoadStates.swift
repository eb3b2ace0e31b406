import FeedModel

/// Load state of one direction, as Paging 3's `LoadState` (`NotLoading(endOfPaginationReached)`,
/// `Loading`, `Error`): idle (not loading, more may exist), loading, error (a failure, waiting to
/// retry or given up), end (nothing more in that direction).
public enum DirectionalLoadState: String, Sendable, Codable, Equatable, Hashable {
    case idle, loading, error, end
}

/// The three load states of a paged list, as Paging 3's `LoadStates` (androidx paging-common
/// `LoadStates(refresh, prepend, append)`, the `source` half of `CombinedLoadStates`): refresh is
/// Init and pull to refresh (with its gap-fill), prepend loads above the first item, append (More)
/// below the last.
public struct DirectionalLoadStates: Sendable, Codable, Equatable, Hashable {
    public var refresh: DirectionalLoadState
    public var prepend: DirectionalLoadState
    public var append: DirectionalLoadState
    public init(
        refresh: DirectionalLoadState = .idle, prepend: DirectionalLoadState = .idle, append: DirectionalLoadState = .idle
    ) {
        self.refresh = refresh
        self.prepend = prepend
        self.append = append
    }
}

extension FeedController {
    /// The load state per direction, as Paging 3's `LoadStates`, derived from the two lanes:
    /// - refresh: loading while Init, a Refresh or its gap-fill is in flight; error while one of
    ///   them failed (waiting to retry or given up); idle otherwise (Paging 3's refresh is never
    ///   `endOfPaginationReached`).
    /// - prepend: loading / error for a prepend on the top lane; end when the top reached the
    ///   feed's head; idle otherwise (also while a refresh holds the top lane, as Paging 3's
    ///   prepend is `NotLoading` during a refresh).
    /// - append: the bottom lane: idle, loading (More), error (waiting to retry or given up), end.
    public var directionalLoadStates: DirectionalLoadStates {
        var states = DirectionalLoadStates()
        switch top {
        case .idle: break
        case .endReached: states.prepend = .end
        case .loading(_, let load):
            if load.kind == .prepend { states.prepend = .loading } else { states.refresh = .loading }
        case .waitingToRetry(let load, _, _, _), .failed(let load, _, _):
            if load.kind == .prepend { states.prepend = .error } else { states.refresh = .error }
        }
        switch bottom {
        case .idle: states.append = .idle
        case .loading: states.append = .loading
        case .waitingToRetry, .failed: states.append = .error
        case .endReached: states.append = .end
        }
        return states
    }
}
