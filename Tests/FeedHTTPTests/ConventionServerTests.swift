import FeedResources
import FeedHTTP
import FeedModel
import FeedStore
import Foundation
import Testing

/// Walks of the Python fixture server (`Tests/Fixtures/convention_server.py`) over real loopback
/// sockets, in the `stripe` and `link` conventions, correct and broken (and `relay` and `jsonapi`
/// walks, so every preset meets a server).
///
/// The fixture holds 23 items, ids 101...123, item `100 + i` published `i` minutes after
/// 2026-01-01T00:00Z (1 767 225 600 000 ms): the feed order is ids 123, 122, ..., 101. Pages of 5: 123–119, 118–114,
/// 113–109, 108–104, 103–101.
@Suite(.enabled(if: ConventionServer.python != nil, Comment(rawValue: ConventionServer.skipMessage)))
struct ConventionServerTests {
    static let feedOrder: [Int64] = Array((101...123).reversed())

    func backend(_ server: ConventionServer, _ convention: String, timeoutMs: Int = 5000, truth: Bool = false) throws
        -> HTTPFeedBackend
    {
        var truthBackend: (any FeedBackend)?
        if truth {
            let (store, feed) = try ConventionServer.truthStore()
            truthBackend = store.pages(feed: feed)
        }
        return try HTTPFeedBackend(
            source: server.url, convention: try #require(Convention.preset(named: convention)),
            client: try HTTPClient(timeoutMs: timeoutMs), truth: truthBackend)
    }

    @Test(arguments: ["stripe", "link", "relay", "jsonapi"])
    func walkFindsEveryItemInFeedOrder(convention: String) throws {
        let server = try ConventionServer(convention: convention)
        let http = try backend(server, convention, truth: true)
        let walk = try http.walk(pageSize: 5)
        #expect(walk.items.map(\.id) == Self.feedOrder)
        #expect(walk.pages == 5)
        #expect(walk.ending == "end of feed")
        #expect(http.audit.problemCount == 0, "\(http.audit.examples)")
        #expect(http.audit.requestMs.count == 5)
        // Plain http stays HTTP/1.1 (CURL_HTTP_VERSION_2TLS: h2 only by ALPN over TLS; see HTTP2Tests).
        #expect(http.audit.httpVersions == ["1.1": 5])
        // Item 123 at 2026-01-01T00:00Z + 23 min (Stripe's `created` is in whole seconds, exact here).
        let newest = try #require(walk.items.first)
        #expect(newest.publishedAt == 1_767_225_600_000 + 23 * 60_000)
    }

    @Test(arguments: ["stripe", "link", "relay", "jsonapi"])
    func pagesBeforeACursorComeBackInFeedOrder(convention: String) throws {
        let server = try ConventionServer(convention: convention)
        let http = try backend(server, convention)
        let first = try http.newest(limit: 5)
        let second = try http.after(try #require(first.lastCursor), limit: 5)
        #expect(second.items.map(\.id) == [118, 117, 116, 115, 114])
        // Back up from 118: the 5 newer items nearest it are 123...119.
        let back = try http.before(try #require(second.firstCursor), limit: 5)
        #expect(back.items.map(\.id) == [123, 122, 121, 120, 119])
        #expect(http.audit.problemCount == 0, "\(http.audit.examples)")
    }

    @Test func repeatedStripeCursorIsReportedAndEndsTheWalk() throws {
        // Page 2 (after 119) ends with item 119 again: 118, 117, 116, 115 are new, 119 is a repeat,
        // and its id is the cursor just sent.
        let server = try ConventionServer(convention: "stripe", mode: "repeat-cursor")
        let http = try backend(server, "stripe", truth: true)
        let walk = try http.walk(pageSize: 5)
        #expect(walk.items.map(\.id) == Array(Self.feedOrder.prefix(9)))
        #expect(walk.ending == "cursor handed back unchanged")
        #expect(http.audit.counts[.cursorUnchanged] == 1)
        #expect(http.audit.counts[.duplicateItem] == 1)
        // The truth holds 23 items; the walk received 9.
        #expect(http.audit.counts[.skippedItem] == 14)
        #expect(http.audit.examples.contains { $0.problem == .cursorUnchanged && $0.url.hasSuffix("starting_after=119") })
    }

    @Test func anEmptyPageThatSaysMoreExistIsReportedNotTakenForTheEnd() throws {
        // Page 1 is the newest 5 (123...119); page 2 (after 119) is empty with has_more true: a
        // Stripe cursor is the last item's id, so there is nothing to ask for the rest with.
        let server = try ConventionServer(convention: "stripe", mode: "empty-more")
        let http = try backend(server, "stripe", truth: true)
        let walk = try http.walk(pageSize: 5)
        #expect(walk.items.map(\.id) == Array(Self.feedOrder.prefix(5)))
        #expect(walk.pages == 2)
        #expect(walk.ending == "no cursor")
        #expect(http.audit.counts[.noCursor] == 1)
        #expect(http.audit.examples.contains { $0.problem == .noCursor && $0.url.hasSuffix("starting_after=119") })
        // As with a cursor handed back unchanged, the API's fault ended the walk: the truth's 23
        // items less the 5 received were skipped.
        #expect(http.audit.counts[.skippedItem] == 18)
    }

    @Test func repeatedLinkCursorIsReportedAndEndsTheWalk() throws {
        // Page 2's rel="next" is the URL just requested (after=119).
        let server = try ConventionServer(convention: "link", mode: "repeat-cursor")
        let http = try backend(server, "link")
        let walk = try http.walk(pageSize: 5)
        #expect(walk.items.map(\.id) == Array(Self.feedOrder.prefix(10)))
        #expect(http.audit.counts[.cursorUnchanged] == 1)
        #expect(http.audit.requestMs.count == 2)
    }

    @Test func serverErrorEveryThirdRequestIsCountedAndTheWalkRetries() throws {
        // Requests 3 and 6 get 500; each is retried, so 7 requests bring the 5 pages.
        let server = try ConventionServer(convention: "stripe", mode: "error-every=3")
        let http = try backend(server, "stripe")
        let walk = try http.walk(pageSize: 5)
        #expect(walk.items.map(\.id) == Self.feedOrder)
        #expect(walk.failedRequests == 2)
        #expect(http.audit.counts[.httpStatus] == 2)
        #expect(http.audit.requestMs.count == 7)
        #expect(http.audit.examples.allSatisfy { $0.detail == "status 500" })
    }

    @Test func truncatedJSONIsReportedAndTheWalkEndsAfterThreeFailures() throws {
        let server = try ConventionServer(convention: "link", mode: "truncate")
        let http = try backend(server, "link")
        let walk = try http.walk(pageSize: 5, maxFailures: 3)
        #expect(walk.items.map(\.id) == Array(Self.feedOrder.prefix(5)))
        #expect(http.audit.counts[.malformedJSON] == 3)
        #expect(walk.ending == "3 failed requests in a row")
    }

    @Test func slowResponsesTimeOutAndAreReported() throws {
        // Later pages take 2 s; the client gives up after 300 ms.
        let server = try ConventionServer(convention: "stripe", mode: "slow=2000")
        let http = try backend(server, "stripe", timeoutMs: 300)
        let walk = try http.walk(pageSize: 5, maxFailures: 2)
        #expect(walk.items.count == 5)
        #expect(http.audit.counts[.timeout] == 2)
        #expect(http.audit.requestMs.suffix(2).allSatisfy { $0 >= 250 && $0 < 1500 })
    }

    /// Every later page comes with its first two items swapped (page 2: 117, 118, 116, 115, 114):
    /// the second of each pair is not older than the first, so 118, 113, 108 and 103 are reported
    /// out of order with their page's URL and left out, the walk goes on to the end of the feed, and
    /// the truth finds those four missing.
    @Test func itemsOutOfFeedOrderAreReportedWithTheirURLAndTheWalkGoesOn() throws {
        let server = try ConventionServer(convention: "stripe", mode: "swap-order")
        let http = try backend(server, "stripe", truth: true)
        let walk = try http.walk(pageSize: 5)
        let left: Set<Int64> = [118, 113, 108, 103]
        let expected = [123, 122, 121, 120, 119, 117, 116, 115, 114, 112, 111, 110, 109, 107, 106, 105, 104, 102, 101]
        #expect(walk.items.map(\.id) == expected.map(Int64.init))
        #expect(Set(Self.feedOrder).subtracting(walk.items.map(\.id)) == left)
        #expect(walk.ending == "end of feed")
        #expect(http.audit.counts[.outOfOrder] == 4)
        #expect(http.audit.counts[.skippedItem] == 4)
        #expect(http.audit.examples.contains { $0.problem == .outOfOrder && $0.url.hasSuffix("starting_after=119") && $0.detail.contains("item 118") })
    }

    /// Every later page's third item has no `created` (Stripe's timestamp, the convention's
    /// `published_at`): items 116, 111, 106 and 101 are reported as a missing field with their URL
    /// and left out; the walk still reaches the end of the feed.
    @Test func anItemWithoutItsTimestampIsReportedAndTheWalkGoesOn() throws {
        let server = try ConventionServer(convention: "stripe", mode: "drop-created")
        let http = try backend(server, "stripe")
        let walk = try http.walk(pageSize: 5)
        #expect(Set(Self.feedOrder).subtracting(walk.items.map(\.id)) == [116, 111, 106, 101])
        #expect(walk.items.count == 19)
        #expect(walk.ending == "end of feed")
        #expect(http.audit.counts[.missingField] == 4)
        #expect(
            http.audit.examples.contains {
                $0.problem == .missingField && $0.url.hasSuffix("starting_after=119")
                    && $0.detail == "items[2] has no usable 'published_at' at /created"
            }, "\(http.audit.examples)")
    }

    /// A request header given to the client (`--header`, `--header-env`) reaches the server: with
    /// it the walk gets every page; without it every request is answered 401 and the walk stops
    /// after three in a row, each reported.
    @Test func aRequestHeaderReachesTheServer() throws {
        let server = try ConventionServer(convention: "stripe", mode: "require-header=Authorization:Bearer t0k3n")
        let stripe = try #require(Convention.preset(named: "stripe"))
        let allowed = try HTTPFeedBackend(
            source: server.url, convention: stripe, client: try HTTPClient(headers: ["Authorization: Bearer t0k3n"]))
        let walk = try allowed.walk(pageSize: 5)
        #expect(walk.items.map(\.id) == Self.feedOrder)
        #expect(allowed.audit.problemCount == 0, "\(allowed.audit.examples)")
        let refused = try HTTPFeedBackend(source: server.url, convention: stripe, client: try HTTPClient())
        let none = try refused.walk(pageSize: 5)
        #expect(none.items.isEmpty)
        #expect(none.ending == "3 failed requests in a row")
        #expect(refused.audit.counts[.httpStatus] == 3)
        #expect(refused.audit.examples.allSatisfy { $0.detail == "status 401" })
    }

    /// Stripe has no rows request: rows come from the pages, and the next page's cursor is the last
    /// item's id. When the session ends (the load tester pools the backend), both are forgotten: the
    /// same rows are then missing and the items after page 1's last one have no cursor.
    @Test func aSessionsRowsAndCursorsAreForgottenWhenItEnds() throws {
        let server = try ConventionServer(convention: "stripe")
        let http = try backend(server, "stripe")
        let first = try http.newest(limit: 5)
        #expect(first.items.map(\.id) == [123, 122, 121, 120, 119])
        let rows = try http.rows(ids: [123, 119])
        #expect(rows.rows.map(\.id) == [123, 119] && rows.missing.isEmpty)
        let last = try #require(first.lastCursor)
        #expect(try http.after(last, limit: 5).items.map(\.id) == [118, 117, 116, 115, 114])
        http.sessionEnded()
        let forgotten = try http.rows(ids: [123, 119])
        #expect(forgotten.rows.isEmpty && forgotten.missing == [123, 119])
        #expect(throws: HTTPSourceError.self) { try http.after(last, limit: 5) }
        #expect(http.audit.counts[.noCursor] == 1)
        // A new session starts from the newest page and pages on as before.
        let again = try http.newest(limit: 5)
        #expect(try http.after(try #require(again.lastCursor), limit: 5).items.first?.id == 118)
    }

    @Test func aConventionFileWalksLikeThePreset() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("convention-\(UUID().uuidString).json")
        try Data(
            """
            {"name": "my-stripe", "first": "{url}?limit={limit}", "after": "{url}?limit={limit}&starting_after={cursor}",
             "items": "/data", "fields": {"id": "/id", "published_at": "/created", "height": "/height"},
             "defaults": {"kind": "card", "width": 100}, "published_at_unit": "s",
             "next": "item:/id", "has_more": "/has_more"}
            """.utf8
        ).write(to: file)
        let server = try ConventionServer(convention: "stripe")
        let http = try HTTPFeedBackend(source: server.url, convention: try Convention.load(file.path), client: try HTTPClient())
        let walk = try http.walk(pageSize: 7)
        #expect(walk.items.map(\.id) == Self.feedOrder)
        #expect(walk.pages == 4)  // 7 + 7 + 7 + 2
        #expect(walk.items.allSatisfy { $0.kind == "card" && $0.width == 100 })
        let newest = try #require(walk.items.first)
        #expect(newest.height == 200 + 10 * 23)
    }
}
