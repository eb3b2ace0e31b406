import FeedModel
import Foundation
import Synchronization

/// `feedsim bench http`: FeedSim's HTTP client walking pages of a running `feedsim serve`,
/// beside `wrk` requesting the same page URLs at the same connection count, in the same run.
///
/// FeedSim's side is pagination sessions through ``HTTPFeedBackend`` (the `feedsim` convention):
/// each connection is one thread with its own backend and libcurl handle, walking More from the
/// newest page for ``Configuration/pagesPerSession`` pages, then starting over, every answer
/// checked. (The load tester, `feedsim load`, still reads SQLite only; once it runs over any
/// backend this is the loop it runs.) wrk's side replays the page URLs of one such walk in turn.
/// The ratio is FeedSim's requests/s ÷ wrk's; FeedSim's client is fast enough when it is ≥ 0.5.
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
        /// FeedSim's requests/s ÷ wrk's.
        public var ratio: Double
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

    /// Runs FeedSim's sessions against `source` for the configured time.
    public static func runSessions(source: String, configuration: Configuration) -> Side {
        let requests = Atomic<Int>(0)
        let errors = Atomic<Int>(0)
        let start = monotonicNanoseconds()
        let end = start + UInt64(configuration.seconds * 1e9)
        let group = DispatchGroup()
        for _ in 0..<configuration.connections {
            group.enter()
            let thread = Thread {
                defer { group.leave() }
                guard let client = try? HTTPClient(),
                    let backend = try? HTTPFeedBackend(source: source, convention: .feedsim, client: client)
                else {
                    errors.wrappingAdd(1, ordering: .relaxed)
                    return
                }
                var done = 0
                var failed = 0
                while monotonicNanoseconds() < end {
                    var request: HTTPFeedBackend.PageRequest = .newest
                    for _ in 0..<configuration.pagesPerSession {
                        guard monotonicNanoseconds() < end else { break }
                        guard let fetched = try? backend.fetch(request, limit: configuration.pageSize) else {
                            failed += 1
                            break
                        }
                        done += 1
                        guard fetched.page.hasMoreAfter, let token = fetched.nextToken else { break }
                        request = .after(fetched.page.lastCursor, token)
                    }
                }
                requests.wrappingAdd(done, ordering: .relaxed)
                errors.wrappingAdd(failed + backend.audit.problemCount, ordering: .relaxed)
            }
            thread.start()
        }
        group.wait()
        let seconds = Double(monotonicNanoseconds() - start) / 1e9
        let count = requests.load(ordering: .relaxed)
        return Side(
            requests: count, seconds: seconds, requestsPerSecond: Double(count) / seconds,
            errors: errors.load(ordering: .relaxed))
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
