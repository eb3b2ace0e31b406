import FeedHTTP
import FeedModel
import Foundation
import Synchronization

/// `feedsim bench http`: the load tester's pagination sessions against a running `feedsim serve`
/// (`feedsim load --source`, run by `FeedSimBenchmarks.HTTPLoadSide`), beside `wrk` requesting the
/// same page URLs at the same connection count, in the same run. wrk's side replays the page URLs
/// of one walk (``pageURLs(source:pageSize:pages:)``) in turn. The ratio is FeedSim's requests/s ÷
/// wrk's in each of the rounds they take in turns, the median round's; the load tester is fast enough
/// when it is ≥ 0.5.
public enum HTTPBenchmark {
    public struct Configuration: Sendable {
        public var connections: Int
        public var seconds: Double
        public var pageSize: Int
        public var pagesPerSession: Int
        public init(connections: Int = 4, seconds: Double = 5, pageSize: Int = 20, pagesPerSession: Int = 50) {
            self.connections = connections
            self.seconds = seconds
            self.pageSize = pageSize
            self.pagesPerSession = pagesPerSession
        }
    }

    /// One side's figures.
    public struct Side: Sendable, Codable {
        public var requests: Int
        public var seconds: Double
        public var requestsPerSecond: Double
        public var errors: Int
        /// On-CPU seconds of the side's client (FeedSim's load workers, or the wrk process), when measured.
        public var clientCPUSeconds: Double?
        /// On-CPU seconds of `feedsim serve`'s worker threads while this side ran, when measured:
        /// on a machine the client and the server share, both costs bound the requests/s.
        public var serverCPUSeconds: Double?

        /// Client CPU microseconds per request, when measured.
        public var clientMicrosecondsPerRequest: Double? {
            clientCPUSeconds.map { requests > 0 ? $0 * 1e6 / Double(requests) : 0 }
        }

        /// Server CPU microseconds per request, when measured.
        public var serverMicrosecondsPerRequest: Double? {
            serverCPUSeconds.map { requests > 0 ? $0 * 1e6 / Double(requests) : 0 }
        }

        public init(requests: Int, seconds: Double, requestsPerSecond: Double, errors: Int) {
            self.requests = requests
            self.seconds = seconds
            self.requestsPerSecond = requestsPerSecond
            self.errors = errors
        }
    }

    public struct Report: Sendable, Codable {
        public var connections: Int
        public var pageSize: Int
        public var urls: Int
        public var feedsim: Side
        public var wrk: Side
        /// FeedSim's requests/s ÷ wrk's (of the median round).
        public var ratio: Double
        /// Every round's requests/s, in the order they ran (`nil`: one round, the figures above).
        public var roundRequestsPerSecond: RoundRates?
        public static let target = 0.5
        public var withinTarget: Bool { ratio >= Self.target }

        public init(connections: Int, pageSize: Int, urls: Int, feedsim: Side, wrk: Side) {
            self.connections = connections
            self.pageSize = pageSize
            self.urls = urls
            self.feedsim = feedsim
            self.wrk = wrk
            ratio = wrk.requestsPerSecond > 0 ? feedsim.requestsPerSecond / wrk.requestsPerSecond : 0
        }
    }

    /// Requests/s of each round, per side.
    public struct RoundRates: Sendable, Codable, Equatable {
        public var feedsim: [Double]
        public var wrk: [Double]
        public init(feedsim: [Double], wrk: [Double]) {
            self.feedsim = feedsim
            self.wrk = wrk
        }
    }

    /// The page URLs of one walk: the first page and each `after` page, `pages` of them at most.
    /// - Throws: ``HTTPSourceError`` when the server does not answer.
    public static func pageURLs(source: String, pageSize: Int, pages: Int) throws -> [String] {
        let backend = try HTTPFeedBackend(source: source, convention: .feedsim, client: try HTTPClient())
        var urls: [String] = []
        var request: HTTPFeedBackend.PageRequest = .newest
        while urls.count < pages {
            let fetched = try backend.fetch(request, limit: pageSize)
            urls.append(fetched.url)
            guard fetched.page.hasMoreAfter, let token = fetched.nextToken else { break }
            request = .after(fetched.page.lastCursor, token)
        }
        return urls
    }

    /// The Lua script that makes wrk request `paths` in turn.
    public static func wrkScript(paths: [String]) -> String {
        let list = paths.map { "  \"" + $0.replacingOccurrences(of: "\"", with: "\\\"") + "\"," }.joined(separator: "\n")
        return """
            local paths = {
            \(list)
            }
            local index = 0
            request = function()
              index = index % #paths + 1
              return wrk.format("GET", paths[index])
            end

            """
    }

    /// Reads wrk's summary: `N requests in Xs`, `Non-2xx or 3xx responses: K`, socket errors.
    public static func parseWrk(_ output: String) -> Side? {
        var requests: Int?
        var seconds: Double?
        var errors = 0
        for line in output.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if line.contains(" requests in "), let first = line.split(separator: " ").first, let count = Int(first) {
                requests = count
                let after = line.components(separatedBy: " requests in ")[1]
                let duration = after.split(separator: ",").first.map(String.init) ?? ""
                seconds = parseDuration(duration)
            } else if line.hasPrefix("Non-2xx or 3xx responses:"), let count = Int(line.split(separator: " ").last ?? "") {
                errors += count
            } else if line.hasPrefix("Socket errors:") {
                for part in line.dropFirst("Socket errors:".count).split(separator: ",") {
                    errors += Int(part.split(separator: " ").last ?? "") ?? 0
                }
            }
        }
        guard let requests, let seconds, seconds > 0 else { return nil }
        return Side(requests: requests, seconds: seconds, requestsPerSecond: Double(requests) / seconds, errors: errors)
    }

    /// `5.00s`, `1.02m`, `800.00ms`.
    static func parseDuration(_ text: String) -> Double? {
        for (suffix, scale) in [("ms", 0.001), ("us", 0.000_001), ("s", 1.0), ("m", 60.0), ("h", 3600.0)] where text.hasSuffix(suffix) {
            return Double(text.dropLast(suffix.count)).map { $0 * scale }
        }
        return nil
    }
}
