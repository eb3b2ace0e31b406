import FeedHTTP
import FeedModel
import FeedSimTestSupport
import Foundation
import Testing

/// The client against a real HTTP/2 server: `nghttpd` (Debian `nghttp2-server`, installed by
/// `.ci/run`) serving JSON:API pages as files over TLS with a self-signed certificate made here by
/// `openssl`. libcurl is asked for `CURL_HTTP_VERSION_2TLS`, so h2 is negotiated by ALPN; the
/// version each answer came over is read back from libcurl (`CURLINFO_HTTP_VERSION`) and counted
/// in the audit (the `source` section of a load report).
@Suite(.enabled(if: HTTP2Server.available, Comment(rawValue: HTTP2Server.skipMessage)))
struct HTTP2Tests {
    @Test func pagesOverHTTP2WalkTheFeedInOrderWithTheServersCertificateTrusted() throws {
        let server = try HTTP2Server(items: 45, pageSize: 10)
        let backend = try HTTPFeedBackend(
            source: server.firstPage, convention: .jsonapi,
            client: try HTTPClient(tls: HTTPClient.TLSOptions(caFile: server.certificate)))
        let walk = try backend.walk(pageSize: 10)
        #expect(walk.items.map(\.id) == Array((1...45).reversed()).map(Int64.init), "\(backend.audit.textLines)")
        #expect(walk.pages == 5 && walk.ending == "end of feed")
        #expect(backend.audit.httpVersions == ["2": 5], "every page came over h2")
        #expect(backend.audit.problemCount == 0, "\(backend.audit.textLines)")
    }

    @Test func anUntrustedCertificateFailsEveryRequestAndInsecureSkipsTheCheck() throws {
        let server = try HTTP2Server(items: 12, pageSize: 10)
        let strict = try HTTPFeedBackend(source: server.firstPage, convention: .jsonapi, client: try HTTPClient())
        let refused = try strict.walk(pageSize: 10, maxFailures: 2)
        #expect(refused.items.isEmpty && refused.failedRequests == 2)
        #expect(strict.audit.counts[.transport] == 2)
        #expect(strict.audit.examples.first?.detail.contains("certificate") == true, "\(strict.audit.examples)")
        let insecure = try HTTPFeedBackend(
            source: server.firstPage, convention: .jsonapi, client: try HTTPClient(tls: HTTPClient.TLSOptions(insecure: true)))
        let walk = try insecure.walk(pageSize: 10)
        #expect(walk.items.count == 12 && insecure.audit.httpVersions == ["2": 2])
    }

    @Test func aMissingCAFileIsAnErrorNamingIt() {
        #expect(throws: HTTPClientError.self) { try HTTPClient(tls: HTTPClient.TLSOptions(caFile: "/nonexistent/ca.pem")) }
    }
}
