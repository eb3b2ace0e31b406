import FeedEngine
import FeedModel
import FeedReplay
import Testing

@testable import FeedLoad

/// The load tester runs over the backend seam alone: here an in-memory feed (``MemoryFeed``), no
/// SQLite, no file.
@Suite struct LoadOverAnyBackendTests {
    /// 2 000 items, one a second, ids 1…2000 (larger id = newer).
    static func feed() -> MemoryFeed {
        MemoryFeed(
            items: (1...2_000).map {
                NewItem(publishedAt: 1_000_000 + Int64($0) * 1_000, kind: "card", width: 100, height: 80 + Double($0 % 5) * 10)
            })
    }

    static func configuration(_ session: SessionKind, writers: Int, pagination: PaginationMode = .keyset) -> LoadConfiguration {
        var configuration = LoadConfiguration(
            path: "memory", feedName: "home", model: .closed(sessions: 3),
            traces: .synthesized(models: [.skimmer, .flinger], durationSeconds: 4),
            replay: ReplayOptions(controller: FeedController.Configuration(pageSize: 10, initialLoadPages: 1)),
            timeScale: nil, pagination: pagination, durationSeconds: 0.6, workers: 2, writers: writers, writeRate: 200)
        configuration.session = session
        configuration.keepWrites = true  // the test counts the writers' rows afterwards
        return configuration
    }

    @Test(arguments: [SessionKind.pagination(pageBudget: 20), .replay])
    func sessionsAndWritersOverAnInMemoryBackendSeeEveryItemOnce(session: SessionKind) throws {
        let feed = Self.feed()
        let report = try LoadRunner(configuration: Self.configuration(session, writers: 2)) { _ in
            MemoryFeedConnector(feed: feed)
        }.run()
        #expect(report.sessions.failed == 0, "\(report.errors)")
        #expect(report.errors.isEmpty)
        #expect(report.consistency.sessionsChecked == report.sessions.started)
        #expect(report.pages > 3)
        #expect(report.rows > 0)
        #expect(report.consistency.duplicates == 0 && report.consistency.skips == 0)
        // The writers wrote through the backend's insert path, at the head: every id above 2000 is
        // newer than every seeded item.
        #expect(report.inserted > 0 && report.inserted == feed.inFeedOrder().count - 2_000)
        let order = feed.inFeedOrder()
        #expect(order.prefix(report.inserted).allSatisfy { $0.id > 2_000 })
        #expect(report.busyWaits == 0, "the memory backend counts no lock waits")
    }

    @Test func offsetPaginationOverABackendWithoutOffsetPagesIsRefusedNamingTheField() throws {
        let feed = Self.feed()
        #expect {
            try LoadRunner(configuration: Self.configuration(.replay, writers: 0, pagination: .offset)) { _ in
                MemoryFeedConnector(feed: feed)
            }
        } throws: { ($0 as? LoadConfigurationError)?.field == "pagination" }
    }

    /// A connection going back to the pool tells its backend that the session is over, so a
    /// backend with session state (an HTTP API's rows and tokens) forgets it before the next one;
    /// the next session gets the same (pooled) backend.
    @Test func givingAConnectionBackEndsTheBackendsSession() throws {
        let pool = ConnectionPool(connector: MemoryFeedConnector(feed: Self.feed()))
        let first = try pool.take()
        let backend = try #require(first.backend as? MemoryFeedBackend)
        #expect(backend.sessionsEnded == 0)
        pool.give(first)
        #expect(backend.sessionsEnded == 1)
        let second = try pool.take()
        #expect(second.backend as? MemoryFeedBackend === backend)
        pool.give(second)
        #expect(backend.sessionsEnded == 2)
    }
}
