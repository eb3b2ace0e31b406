import FeedSimTestSupport
import Foundation
import Testing

@testable import feedsim

/// `--cacert FILE` and `--insecure` (curl's names) on the command line, against a real HTTP/2
/// server (`nghttpd`, see ``FeedSimTestSupport/HTTP2Server``): the protocol libcurl negotiated is
/// counted in what the commands print.
@Suite(.enabled(if: HTTP2Server.available, Comment(rawValue: HTTP2Server.skipMessage)))
struct HTTP2CommandTests {
    let directory = TemporaryDirectory.make("feedsim-h2-cli")

    var process: FeedsimProcess { FeedsimProcess(directory: directory) }

    @Test func loadPaginationSessionsOverHTTP2CountTheVersionInTheReportsSourceSection() throws {
        let server = try HTTP2Server(items: 45, pageSize: 10)
        let outcome = try process.run([
            "load", "--source", server.firstPage, "--convention", "jsonapi", "--cacert", server.certificate,
            "--session", "pagination", "--page-budget", "5", "--sessions", "2", "--duration", "0.5", "--json",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        let source = try #require(report["source"] as? [String: Any])
        let requests = try #require(source["requests"] as? Int)
        #expect(requests >= 5, "at least one session's walk of the 5 pages")
        #expect(source["http_versions"] as? [String: Int] == ["2": requests], "every request over h2")
        #expect((source["problems"] as? [String: Int])?.isEmpty == true, "\(source)")
        #expect((report["sessions"] as? [String: Any])?["failed"] as? Int == 0)
    }

    @Test func pageWalkWithInsecureReadsEveryPageOverHTTP2() throws {
        let server = try HTTP2Server(items: 45, pageSize: 10)
        let outcome = try process.run([
            "page", "--source", server.firstPage, "--convention", "jsonapi", "--insecure", "--walk", "--limit", "10",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let text = outcome.stdout + outcome.stderr
        #expect(text.contains("walked 45 items in 5 pages (end of feed), 0 failed requests"), "\(text)")
        #expect(text.contains("requests: 5 (HTTP/2 5)"), "\(text)")
    }

    @Test func theTLSOptionsNeedSourceAndAReadableFile() throws {
        let insecure = try process.run(["page", "--db", "x.sqlite", "--insecure"])
        #expect(insecure.status == 64 && insecure.stderr.contains("--insecure needs --source"), "\(insecure.stderr)")
        let missing = try process.run([
            "page", "--source", "https://127.0.0.1:9/p1.json", "--convention", "jsonapi", "--cacert", directory.path + "/none.pem",
        ])
        #expect(missing.status == 1, "\(missing.stderr)")
        #expect(missing.stderr.contains("none.pem"), "\(missing.stderr)")
    }
}
