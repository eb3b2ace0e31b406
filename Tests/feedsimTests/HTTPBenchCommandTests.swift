import FeedHTTP
import FeedSimBenchmarks
import Foundation
import Testing

@testable import feedsim

/// `feedsim bench http`: wrk's summary read right, and the command run end to end with the real
/// wrk (Debian `wrk`, installed by `.ci/run`) beside FeedSim's `load --source` sessions.
@Suite struct HTTPBenchCommandTests {
    /// wrk 4.1's summary, in the layout its `src/wrk.c` prints (`%llu requests in %s, %sB read`,
    /// `Socket errors: connect %d, read %d, write %d, timeout %d`, `Non-2xx or 3xx responses: %d`).
    @Test func wrksSummaryGivesRequestsSecondsAndErrors() throws {
        let output = """
            Running 5s test @ http://127.0.0.1:40123
              2 threads and 16 connections
              Thread Stats   Avg      Stdev     Max   +/- Stdev
                Latency     8.03ms    2.11ms  31.52ms   80.12%
                Req/Sec     1.00k    95.31     1.21k    68.00%
              9984 requests in 5.04s, 48.31MB read
              Socket errors: connect 0, read 3, write 1, timeout 2
              Non-2xx or 3xx responses: 7
            Requests/sec:   1980.95
            Transfer/sec:      9.58MB

            """
        let side = try #require(HTTPBenchmark.parseWrk(output))
        #expect(side.requests == 9984)
        #expect(side.seconds == 5.04)
        #expect(abs(side.requestsPerSecond - 9984 / 5.04) < 1e-9)  // 1980.952…, as wrk prints
        #expect(side.errors == 7 + 3 + 1 + 2)
        #expect(HTTPBenchmark.parseWrk("  120 requests in 800.00ms, 1.00MB read\n")?.seconds == 0.8)
        #expect(HTTPBenchmark.parseWrk("wrk: invalid URL") == nil)
    }

    static let wrk = findExecutable("wrk")

    @Test(.enabled(if: wrk != nil, "wrk is not on the PATH (Debian: apt-get install wrk); .ci/run installs it"))
    func benchHTTPRunsBothSidesOnTheSamePagesWithoutErrors() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("feedsim-bench-http-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outcome = try FeedsimProcess(directory: directory).run([
            "bench", "http", "--count", "2000", "--connections", "4", "--seconds", "1", "--json",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let report = try JSONDecoder().decode(HTTPBenchmark.Report.self, from: Data(outcome.stdout.utf8))
        #expect(report.connections == 4 && report.pageSize == 20)
        #expect(report.urls == 50)  // 2000 items hold 50 pages of 20: a session's whole page budget
        #expect(report.feedsim.requests > 0 && report.wrk.requests > 0)
        #expect(report.feedsim.errors == 0, "every page FeedSim's sessions read was in order and complete")
        #expect(report.wrk.errors == 0)
        #expect(abs(report.ratio - report.feedsim.requestsPerSecond / report.wrk.requestsPerSecond) < 1e-12)
        // Both sides' CPU: the client's and the server's threads while that side ran.
        for side in [report.feedsim, report.wrk] {
            #expect((side.clientCPUSeconds ?? 0) > 0 && (side.serverCPUSeconds ?? 0) > 0, "\(side)")
            #expect((side.serverCPUSeconds ?? 0) < side.seconds * 2.5, "2 server threads cannot use more than 2 cores")
        }
    }
}
