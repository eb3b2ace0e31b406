import Testing

@testable import FeedHTTP

/// `feedsim serve`'s choice of worker for a new connection: least connections, ties round robin.
@Suite struct ConnectionAcceptorTests {
    /// Each row by hand: the smallest count wins; among equals, the first at or after `start`
    /// going round (so back-to-back connections alternate before the daemons count them).
    @Test(arguments: [
        ([0, 0], 0, 0), ([0, 0], 1, 1), ([0, 0], 2, 0), ([1, 0], 0, 1), ([0, 1], 1, 0),
        ([2, 1, 1], 0, 1), ([2, 1, 1], 2, 2), ([2, 1, 1], 3, 1), ([3, 1, 2, 1], 0, 1), ([3, 1, 2, 1], 2, 3),
        ([5], 7, 0), ([0, 0, 0], 5, 2),
    ])
    func aNewConnectionGoesToTheLeastLoadedWorker(open: [Int], start: Int, expected: Int) {
        #expect(ConnectionAcceptor.leastLoaded(open, startingAt: start) == expected)
    }

    /// Eight connections arriving before any daemon has counted one (every count still 0) are
    /// dealt 4 + 4 by the round robin of ties, as the acceptor's loop advances `start`.
    @Test func connectionsArrivingBeforeTheCountsUpdateAlternate() {
        var next = 0
        var dealt = [0, 0]
        for _ in 0..<8 {
            let index = ConnectionAcceptor.leastLoaded([0, 0], startingAt: next)
            dealt[index] += 1
            next = index + 1
        }
        #expect(dealt == [4, 4])
    }
}
