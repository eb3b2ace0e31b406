import FeedHTTP
import FeedModel
import FeedReplay
import FeedStore
import Foundation

/// The database `--db` names (``FeedDatabase``: a SQLite file or a PostgreSQL URI) as `serve`'s
/// catalog: one connection per worker thread.
final class DatabaseCatalog: FeedCatalog {
    let database: FeedDatabase
    private var backends: [String: any FeedBackend] = [:]

    /// Opens the database for writing (`POST` inserts, `DELETE`); a SQLite file must exist.
    /// - Throws: ``CommandFailure`` for a missing file; the backend's errors (not FeedSim's, cannot connect).
    init(_ text: String) throws {
        database = try FeedDatabase.open(text, for: .writeExisting)
    }

    func feedNames() throws -> [String] {
        try database.feedNames()
    }

    func backend(feed name: String) throws -> (any FeedBackend)? {
        if let backend = backends[name] { return backend }
        guard try database.feedNames().contains(name) else { return nil }
        let backend = try database.backend(feedNamed: name)
        backends[name] = backend
        return backend
    }

    func stub(id: Int64) throws -> Item? {
        switch database {
        case .sqlite(let store): try store.stub(id: id)
        case .postgres(let store): try store.stub(id: id)
        }
    }
}

/// `serve --faults`: the replay's fault model (`error=`, `timeout=`, `timeout-ms=`, `outage=`) plus
/// the server-only `rate-limit=P` (429 with `Retry-After`) and `retry-after=SECONDS` (default 1).
struct ServeFaults: Sendable {
    var model: FaultModel
    var rateLimitRate: Double = 0
    var retryAfterSeconds = 1

    /// - Throws: ``UsageError`` naming the bad entry (an unknown key lists serve's keys).
    static func parse(_ text: String) throws -> ServeFaults {
        var rest: [Substring] = []
        var rateLimit = 0.0
        var retryAfter = 1
        var given: Set<Substring> = []
        for entry in text.split(separator: ",") {
            let pair = entry.split(separator: "=", maxSplits: 1)
            if let key = pair.first, key == "rate-limit" || key == "retry-after", !given.insert(key).inserted {
                throw UsageError("--faults '\(text)': '\(key)' given twice", showsUsage: false)
            }
            switch pair.first {
            case "rate-limit":
                guard pair.count == 2, let p = Double(pair[1]), (0...1).contains(p) else {
                    throw UsageError("--faults '\(text)': rate-limit must be a probability in 0...1", showsUsage: false)
                }
                rateLimit = p
            case "retry-after":
                guard pair.count == 2, let s = Int(pair[1]), (0...86_400).contains(s) else {
                    throw UsageError("--faults '\(text)': retry-after must be whole seconds in 0...86400", showsUsage: false)
                }
                retryAfter = s
            case "error", "timeout", "timeout-ms", "outage":
                rest.append(entry)
            default:
                // The replay's fault model would list only its own keys: name serve's, all of them.
                guard pair.count == 2 else { rest.append(entry); continue }
                throw UsageError(
                    "--faults '\(text)': unknown key '\(pair[0])' (\(Self.keys.joined(separator: ", ")))", showsUsage: false)
            }
        }
        do {
            let model = try FaultModel.parse(rest.isEmpty ? "none" : rest.joined(separator: ","))
            return ServeFaults(model: model, rateLimitRate: rateLimit, retryAfterSeconds: retryAfter)
        } catch let error as ModelParseError {
            throw UsageError(error.description, showsUsage: false)
        }
    }

    /// The keys `serve --faults` accepts: the replay's fault model's and the server-only ones.
    static let keys = ["error", "rate-limit", "retry-after", "timeout", "timeout-ms", "outage"]

    /// The plan of request `index` issued at `elapsedMs`: its own generator, split from the seed
    /// by the request's index, so the n-th request gets the same draws in every run. Outages come
    /// first, then timeouts, errors and rate limits (each drawn only when its rate is set, as in the
    /// replay's fault model), then the latency.
    func planner(latency: LatencyModel?, seed: UInt64) -> ResponsePlanner {
        let model = self.model
        let rateLimit = rateLimitRate
        let retryAfter = retryAfterSeconds
        return { index, elapsedMs in
            var rng = SplitMix64(seed: seed ^ (index &* 0x9E37_79B9_7F4A_7C15))
            let delay = latency?.sample(&rng) ?? 0
            if model.outages.contains(where: { $0.contains(elapsedMs) }) {
                return ResponsePlan(delayMs: delay, fault: .outage)
            }
            switch model.outcome(issuedAt: -1, &rng) {
            case .timeout: return ResponsePlan(delayMs: 0, fault: .timeout(holdMs: model.timeoutMs))
            case .error: return ResponsePlan(delayMs: delay, fault: .serverError)
            case .success: break
            }
            if rateLimit > 0, rng.nextUnit() < rateLimit {
                return ResponsePlan(delayMs: delay, fault: .rateLimited(retryAfterSeconds: retryAfter))
            }
            return ResponsePlan(delayMs: delay)
        }
    }
}

/// `--listen HOST:PORT` (`[::1]:8080` for IPv6). - Throws: ``UsageError`` naming `--listen`.
func parseListen(_ text: String) throws -> (host: String, port: UInt16) {
    var host: Substring
    var port: Substring
    if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
        host = text[text.index(after: text.startIndex)..<close]
        let rest = text[text.index(after: close)...]
        guard rest.hasPrefix(":") else { throw UsageError.badValue("--listen", "expected [HOST]:PORT, got '\(text)'") }
        port = rest.dropFirst()
    } else {
        guard let colon = text.lastIndex(of: ":") else { throw UsageError.badValue("--listen", "expected HOST:PORT, got '\(text)'") }
        host = text[..<colon]
        port = text[text.index(after: colon)...]
    }
    if host == "localhost" { host = "127.0.0.1" }
    guard let number = UInt16(port) else {
        throw UsageError.badValue("--listen", "port must be 0...65535, got '\(port)'")
    }
    // A numeric address, as the server binds it: `999.0.0.1` is no address (it failed at bind, exit 1).
    var v4 = in_addr()
    var v6 = in6_addr()
    guard inet_pton(AF_INET, String(host), &v4) == 1 || inet_pton(AF_INET6, String(host), &v6) == 1 else {
        throw UsageError.badValue("--listen", "expected a numeric IPv4 or IPv6 address or localhost, got '\(host)'")
    }
    return (String(host), number)
}
