import FeedHTTP
import Foundation
import Testing

@Suite(.enabled(if: ConventionServer.python != nil, Comment(rawValue: ConventionServer.skipMessage)))
struct HTTPMultiDriverTests {
    /// Plain HTTP is HTTP/1.1 here (HTTP/2 is negotiated over TLS only), where no connection can
    /// carry a second request while one is on it: a request to the same host must open its own
    /// connection, not wait for the busy one. With `CURLOPT_PIPEWAIT` set, libcurl 7.88 made it
    /// wait: a page the fixture answers at once took as long as the held one (2 s).
    @Test func aPlainHTTPRequestDoesNotQueueBehindABusyConnection() throws {
        let server = try ConventionServer(convention: "stripe", mode: "slow=2000")
        let client = try HTTPClient()
        let driver = HTTPMultiDriver()
        defer {
            driver.cancelAll()
            HTTPMultiDriver.uninstall()
        }
        // A later page (a cursor): the fixture holds it for 2 s. Item 101 is in the fixture's data.
        let held = client.startGet(server.url + "?limit=5&starting_after=101")
        // The first page (no cursor): answered at once.
        let start = ContinuousClock.now
        let quick = client.startGet(server.url + "?limit=5")
        while !quick.isDone, ContinuousClock.now - start < .seconds(10) {
            driver.wait(microseconds: 5_000)
        }
        let waited = ContinuousClock.now - start
        #expect(quick.isDone)
        #expect(try quick.exchange().status == 200)
        #expect(waited < .milliseconds(1_000), "the first page took \(waited)")
        #expect(!held.isDone, "the held page was answered first: the comparison means nothing")
    }
}
