import FeedResources
import FeedHTTP
import FeedLayout
import FeedModel
import FeedReplay
import FeedSimTestSupport
import FeedStore
import Foundation
import Synchronization
import Testing

@testable import feedsim

/// `feedsim serve` over real loopback sockets: the API's contract, injected faults, held
/// responses, malformed requests, and a replay through `--source` that gives the same report as
/// the replay with `--db`.
@Suite struct HTTPServeTests {
    let directory = TemporaryDirectory.make("feedsim-http")

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    func run(_ arguments: [String]) -> Int32 { runMain(["feedsim"] + arguments, commands: commands) }

    /// A server on a free loopback port over the database at `db`.
    func serve(_ db: String, threads: Int = 2, timeoutSeconds: Int = 10, planner: ResponsePlanner? = nil) throws -> FeedServer {
        try FeedServer(
            configuration: FeedServer.Configuration(
                host: "127.0.0.1", port: 0, threads: threads, connectionTimeoutSeconds: timeoutSeconds, planner: planner)
        ) { try DatabaseCatalog(db) }
    }

    /// Five hand-made items in feed `home`: ids 1...5 published at 1000, 2000, 2000, 3000, 4000 ms,
    /// so the feed order is 5, 4, 3, 2, 1 (3 before 2: the tie at 2000 goes to the larger id).
    func handMadeDatabase() throws -> String {
        let db = path("hand.sqlite")
        let store = try ItemStore(path: db)
        let times: [Int64] = [1000, 2000, 2000, 3000, 4000]
        let items = times.enumerated().map { index, time in
            NewItem(
                id: Int64(index + 1), publishedAt: time, kind: index == 2 ? "video" : "photo", width: 300,
                height: Double(100 * (index + 1)), title: "item \(index + 1)", author: "a\(index + 1)",
                payload: #"{"n":\#(index + 1)}"#)
        }
        _ = try store.insert(items: items, feedNamed: "home")
        _ = try store.createFeed(named: "empty")
        return db
    }

    func get(_ client: HTTPClient, _ server: FeedServer, _ target: String) throws -> (Int, [String: Any], HTTPExchange) {
        let exchange = try client.get("http://127.0.0.1:\(server.port)\(target)")
        let json = (try? JSONSerialization.jsonObject(with: Data(exchange.body))) as? [String: Any] ?? [:]
        return (exchange.status, json, exchange)
    }

    @Test func pagesFollowTheFeedOrderWithRowsAndBothCursors() throws {
        let server = try serve(try handMadeDatabase())
        let client = try HTTPClient()
        let (status, first, exchange) = try get(client, server, "/v1/feeds/home/items?limit=2")
        #expect(status == 200)
        #expect(exchange.header("access-control-allow-origin") == "*")
        #expect(exchange.header("content-type") == "application/json; charset=utf-8")
        let items = try #require(first["items"] as? [[String: Any]])
        #expect(items.map { $0["id"] as? Int } == [5, 4])
        #expect(items[0]["title"] as? String == "item 5")
        #expect(items[0]["author"] as? String == "a5")
        #expect(items[0]["payload"] as? String == #"{"n":5}"#)
        #expect(items[0]["height"] as? Int == 500)
        #expect(items[0]["image_url"] as? String == "/v1/images/5.svg")
        #expect(first["has_more_after"] as? Bool == true)
        #expect(first["has_more_before"] as? Bool == false)
        #expect(first["next_cursor"] as? String == Cursor(publishedAt: 3000, id: 4).text)
        #expect(first["prev_cursor"] as? String == Cursor(publishedAt: 4000, id: 5).text)
        let next = try #require(first["next_cursor"] as? String)
        let (_, second, _) = try get(client, server, "/v1/feeds/home/items?limit=2&after=\(next)")
        #expect((second["items"] as? [[String: Any]])?.map { $0["id"] as? Int } == [3, 2])
        let (_, last, _) = try get(client, server, "/v1/feeds/home/items?limit=2&after=\(Cursor(publishedAt: 2000, id: 2).text)")
        #expect((last["items"] as? [[String: Any]])?.map { $0["id"] as? Int } == [1])
        #expect(last["has_more_after"] as? Bool == false)
        // Before item 2: the two newer items nearest it, in feed order.
        let (_, before, _) = try get(client, server, "/v1/feeds/home/items?limit=2&before=\(Cursor(publishedAt: 2000, id: 2).text)")
        #expect((before["items"] as? [[String: Any]])?.map { $0["id"] as? Int } == [4, 3])
        #expect(before["has_more_before"] as? Bool == true)
        let (_, empty, _) = try get(client, server, "/v1/feeds/empty/items")
        #expect((empty["items"] as? [Any])?.isEmpty == true)
        #expect(empty["next_cursor"] is NSNull)
        server.stop()
    }

    @Test(arguments: [
        ("/v1/feeds/home/items?limit=0", "limit"),
        ("/v1/feeds/home/items?limit=abc", "limit"),
        ("/v1/feeds/home/items?limit=1001", "limit"),
        ("/v1/feeds/home/items?after=v2.nope", "after"),
        ("/v1/feeds/home/items?before=x", "before"),
        ("/v1/feeds/home/items?limit=%FF", "limit"),
        // A decoded NUL ended the value: this was read as limit=2.
        ("/v1/feeds/home/items?limit=2%00", "limit"),
        // Given twice: the first was used, silently.
        ("/v1/feeds/home/items?limit=2&limit=3", "limit"),
        ("/v1/items?ids=1,x", "ids"),
        ("/v1/items?ids=1%002", "ids"),
        ("/v1/items", "ids"),
        ("/v1/images/abc.svg", "id"),
    ])
    func badParametersAre400NamingTheParameter(target: String, parameter: String) throws {
        let server = try serve(try handMadeDatabase())
        let (status, json, _) = try get(try HTTPClient(), server, target)
        #expect(status == 400)
        let error = try #require(json["error"] as? [String: Any])
        #expect(error["parameter"] as? String == parameter)
        #expect(error["status"] as? Int == 400)
        server.stop()
    }

    @Test func unknownFeedsItemsAndPathsAre404AndWrongMethods405() throws {
        let server = try serve(try handMadeDatabase())
        let client = try HTTPClient()
        let (feed, json, _) = try get(client, server, "/v1/feeds/nope/items")
        #expect(feed == 404)
        #expect((json["error"] as? [String: Any])?["code"] as? String == "unknown_feed")
        #expect(try get(client, server, "/v1/images/99.svg").0 == 404)
        #expect(try get(client, server, "/v2/feeds").0 == 404)
        let wrong = try client.delete("http://127.0.0.1:\(server.port)/v1/feeds")
        #expect(wrong.status == 405)
        #expect(wrong.header("allow") == "GET")
        server.stop()
    }

    @Test func feedsRowsInsertsAndImagesAnswerAsDocumented() throws {
        let server = try serve(try handMadeDatabase())
        let client = try HTTPClient()
        let (_, feeds, _) = try get(client, server, "/v1/feeds")
        #expect((feeds["feeds"] as? [[String: Any]])?.map { $0["name"] as? String } == ["empty", "home"])
        let (_, rows, _) = try get(client, server, "/v1/items?ids=3,99,1")
        #expect((rows["items"] as? [[String: Any]])?.map { $0["title"] as? String } == ["item 3", "item 1"])
        #expect(rows["missing"] as? [Int] == [99])
        let body = #"{"items":[{"published_at":5000,"kind":"ad","width":320,"height":50,"title":"new","payload":{"x":1}}]}"#
        let posted = try client.post("http://127.0.0.1:\(server.port)/v1/feeds/home/items", body: Array(body.utf8))
        #expect(posted.status == 201)
        let ids = try #require(((try JSONSerialization.jsonObject(with: Data(posted.body))) as? [String: Any])?["ids"] as? [Int])
        #expect(ids == [6])  // SQLite's next rowid after 5
        let (_, newest, _) = try get(client, server, "/v1/feeds/home/items?limit=1")
        let top = try #require((newest["items"] as? [[String: Any]])?.first)
        #expect(top["id"] as? Int == 6)
        #expect(top["payload"] as? String == #"{"x":1}"#)
        let bad = try client.post(
            "http://127.0.0.1:\(server.port)/v1/feeds/home/items", body: Array(#"{"items":[{"published_at":1,"kind":""}]}"#.utf8))
        #expect(bad.status == 400)
        #expect(
            (((try JSONSerialization.jsonObject(with: Data(bad.body))) as? [String: Any])?["error"] as? [String: Any])?["parameter"]
                as? String == "items[0].kind")
        // Item 3 is a 300 × 300 video: the placeholder has its size and names its kind.
        let image = try client.get("http://127.0.0.1:\(server.port)/v1/images/3.svg")
        #expect(image.status == 200)
        #expect(image.header("content-type") == "image/svg+xml")
        let svg = String(decoding: image.body, as: UTF8.self)
        #expect(svg.hasPrefix(#"<svg xmlns="http://www.w3.org/2000/svg" width="300" height="300" viewBox="0 0 300 300">"#))
        #expect(svg.contains(">video 300×300</text>"))
        server.stop()
    }

    @Test func injectedFaultsAnswer500And429And503AndTimeoutsCloseTheConnection() throws {
        let db = try handMadeDatabase()
        let cases: [(String, Int?)] = [("error=1", 500), ("rate-limit=1,retry-after=7", 429), ("outage=0-600000", 503), ("timeout=1,timeout-ms=200", nil)]
        for (spec, status) in cases {
            let faults = try ServeFaults.parse(spec)
            let server = try serve(db, planner: faults.planner(latency: nil, seed: 1))
            let client = try HTTPClient(timeoutMs: 5000)
            let url = "http://127.0.0.1:\(server.port)/v1/feeds/home/items"
            if let status {
                let answer = try client.get(url)
                #expect(answer.status == status, "\(spec)")
                if status == 429 { #expect(answer.header("retry-after") == "7") }
            } else {
                let error = #expect(throws: HTTPTransportError.self) { try client.get(url) }
                #expect(error?.timedOut == false)  // closed by the server after 200 ms, not the client's 5 s
                #expect((error?.elapsedMs ?? 0) >= 150)
            }
            server.stop()
        }
    }

    @Test func theSameSeedDrawsTheSameFaultsForTheSameRequests() throws {
        // Request n's plan depends only on the seed and n.
        let faults = try ServeFaults.parse("error=0.3,rate-limit=0.2")
        let a = faults.planner(latency: .uniform(min: 0, max: 100), seed: 7)
        let b = faults.planner(latency: .uniform(min: 0, max: 100), seed: 7)
        let c = faults.planner(latency: .uniform(min: 0, max: 100), seed: 8)
        let planA = (0..<200).map { a(UInt64($0), 0) }
        #expect(planA == (0..<200).map { b(UInt64($0), 0) })
        #expect(planA != (0..<200).map { c(UInt64($0), 0) })
        let errors = planA.filter { $0.fault == .serverError }.count
        #expect((40...80).contains(errors))  // 30 % of 200 = 60, ± 3.3 standard deviations
    }

    @Test func aHeldResponseDoesNotBlockItsWorkerThread() throws {
        // One worker thread; the first request is held 2 s, the second answers at once: it must
        // come back while the first is still held.
        let server = try serve(try handMadeDatabase(), threads: 1) { index, _ in
            index == 0 ? ResponsePlan(delayMs: 2000) : .immediate
        }
        let url = "http://127.0.0.1:\(server.port)/v1/feeds/home/items"
        let firstDone = Mutex<Int?>(nil)
        let thread = Thread {
            let status = (try? HTTPClient().get(url))?.status
            firstDone.withLock { $0 = status ?? -1 }
        }
        thread.start()
        while server.requestsReceived < 1 { usleep(1000) }
        let second = try HTTPClient().get(url)
        #expect(second.status == 200)
        #expect(firstDone.withLock { $0 } == nil)
        while firstDone.withLock({ $0 }) == nil { usleep(10_000) }
        #expect(firstDone.withLock { $0 } == 200)
        server.stop()
    }

    /// `page --source` ends with the commands for the next pages, as `page --db` does, and the
    /// printed command run by a shell gives the next page (items 3, 2 after 5, 4).
    @Test func pageSourcePrintsTheCommandOfTheNextPage() throws {
        let server = try serve(try handMadeDatabase())
        defer { server.stop() }
        let process = FeedsimProcess(directory: directory)
        let origin = "http://127.0.0.1:\(server.port)"
        let first = try process.run(["page", "--source", origin, "--limit", "2"])
        #expect(first.status == 0, "\(first.stderr)")
        let older = try #require(first.stdout.split(separator: "\n").first { $0.hasPrefix("older: ") })
        let expected = "feedsim page --source \(origin) --limit 2 --after \(Cursor(publishedAt: 3000, id: 4).text)"
        #expect(older == "older: " + expected)
        let binary = try #require(FeedsimProcess.binary)
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", binary.path + expected.dropFirst("feedsim".count)]
        let pipe = Pipe()
        shell.standardOutput = pipe
        try shell.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 0)
        let ids = output.split(separator: "\n").dropFirst().prefix(2).map { $0.split(separator: " ", omittingEmptySubsequences: true)[1] }
        #expect(ids == ["3", "2"], "\(output)")
        #expect(shellQuoted("v1.AB-_") == "v1.AB-_")
        #expect(shellQuoted("a&b") == "'a&b'")
        #expect(shellQuoted("it's") == #"'it'\''s'"#)
        #expect(shellQuoted("") == "''")
    }

    /// Stopping with a request held past the grace answers it then and stops (libmicrohttpd aborted
    /// the process when stopped with a suspended connection); a request that arrives during the drain
    /// on a connection opened before it is answered at once, with `Connection: close`.
    @Test func stoppingAnswersHeldRequestsAndNewOnesAtOnce() throws {
        let server = try serve(try handMadeDatabase(), planner: try ServeFaults.parse("error=0").planner(latency: .fixed(ms: 4000), seed: 1))
        let port = server.port
        let held = Mutex<Int?>(nil)
        Thread {
            let status = (try? HTTPClient(timeoutMs: 20_000).get("http://127.0.0.1:\(port)/v1/feeds"))?.status
            held.withLock { $0 = status ?? -1 }
        }.start()
        let kept = try RawSocket(port: port)  // open before the drain
        usleep(500_000)  // the first request is held (4 s)
        let stopped = Mutex(false)
        let started = Date()
        Thread {
            server.stop(grace: 1)
            stopped.withLock { $0 = true }
        }.start()
        usleep(200_000)
        try kept.send("GET /v1/feeds HTTP/1.1\r\nHost: x\r\n\r\n")
        let head = kept.readHead(seconds: 5)
        #expect(head.hasPrefix("HTTP/1.1 200"), "\(head)")
        #expect(head.contains("Connection: close\r\n"), "\(head)")
        #expect(Date().timeIntervalSince(started) < 1, "not held while stopping")
        #expect(FeedsimProcess.wait(seconds: 10) { stopped.withLock { $0 } }, "stop returned")
        #expect(FeedsimProcess.wait(seconds: 5) { held.withLock { $0 } != nil })
        #expect(held.withLock { $0 } == 200, "the held request was answered when the grace (1 s) ended")
        #expect(Date().timeIntervalSince(started) < 3.5, "before its 4 s hold")
    }

    /// A CORS preflight (OPTIONS with Origin and Access-Control-Request-Method, as a browser sends
    /// before a cross-origin call) is answered 204 with the CORS headers, at once, even when every
    /// other request is failed (error=1) and held (fixed:3000).
    @Test func aCORSPreflightIsAnsweredAtOnceAndNeverFailed() throws {
        let faults = try ServeFaults.parse("error=1")
        let server = try serve(try handMadeDatabase(), planner: faults.planner(latency: .fixed(ms: 3000), seed: 1))
        defer { server.stop() }
        let socket = try RawSocket(port: server.port)
        let start = Date()
        try socket.send(
            "OPTIONS /v1/feeds/home/items HTTP/1.1\r\nHost: x\r\nOrigin: http://app.example\r\n"
                + "Access-Control-Request-Method: GET\r\n\r\n")
        let head = socket.readHead(seconds: 10)
        #expect(Date().timeIntervalSince(start) < 2, "not held for 3 s")
        #expect(head.hasPrefix("HTTP/1.1 204"), "\(head)")
        #expect(head.contains("Access-Control-Allow-Origin: *\r\n"))
        #expect(head.contains("Access-Control-Allow-Methods: GET, POST, DELETE, OPTIONS\r\n"))
        #expect(head.contains("Access-Control-Allow-Headers: Content-Type, Authorization\r\n"))
    }

    /// A POSTed item is bounded as `feedsim import` bounds a file's: ids 1 … 2^53 − 1 (a larger
    /// JSON number is refused, not rounded: 9007199254740993 was stored as 9007199254740992),
    /// `published_at` from 1970-01-01 to 9999-12-31, sizes above 0 and at most 1,000,000 pt. A
    /// refused request writes nothing.
    @Test func postedItemsOutsideImportsRangesGet400NamingTheField() throws {
        let db = try handMadeDatabase()
        let server = try serve(db)
        let client = try HTTPClient()
        let url = "http://127.0.0.1:\(server.port)/v1/feeds/home/items"
        func item(_ fields: String) -> [UInt8] {
            Array(#"{"items":[{"published_at":5000,"kind":"photo","width":10,"height":10},{"#.utf8) + Array(fields.utf8)
                + Array("}]}".utf8)
        }
        let cases: [(fields: String, parameter: String)] = [
            (#""id":9007199254740993,"published_at":5000,"kind":"photo","width":10,"height":10"#, "items[1].id"),
            (#""id":0,"published_at":5000,"kind":"photo","width":10,"height":10"#, "items[1].id"),
            (#""published_at":-1,"kind":"photo","width":10,"height":10"#, "items[1].published_at"),
            (#""published_at":253402300800000,"kind":"photo","width":10,"height":10"#, "items[1].published_at"),
            (#""published_at":5000,"kind":"photo","width":0,"height":10"#, "items[1].width"),
            (#""published_at":5000,"kind":"photo","width":10,"height":1000001"#, "items[1].height"),
        ]
        for (fields, parameter) in cases {
            let answer = try client.post(url, body: item(fields))
            #expect(answer.status == 400, "\(fields)")
            let error = ((try? JSONSerialization.jsonObject(with: Data(answer.body))) as? [String: Any])?["error"] as? [String: Any]
            #expect(error?["parameter"] as? String == parameter, "\(fields)")
        }
        #expect(try ItemStore(path: db).stats().feeds.map(\.items).reduce(0, +) == 5)
        // The ends of the ranges are accepted.
        let edge = try client.post(
            url, body: item(#""id":9007199254740991,"published_at":253402300799999,"kind":"photo","width":1000000,"height":0.5"#))
        #expect(edge.status == 201)
        let ids = ((try? JSONSerialization.jsonObject(with: Data(edge.body))) as? [String: Any])?["ids"] as? [Int]
        #expect(ids?.last == 9_007_199_254_740_991)
        server.stop()
    }

    @Test func malformedRequestsGet4xxOrAClosedConnectionAndTheServerStaysUp() throws {
        let server = try serve(try handMadeDatabase(), timeoutSeconds: 1)
        let client = try HTTPClient()
        // A 200 KB query string is over the connection's 64 KiB memory: refused by libmicrohttpd.
        let huge = String(repeating: "a", count: 200_000)
        if let answer = try? client.get("http://127.0.0.1:\(server.port)/v1/feeds/home/items?limit=\(huge)") {
            #expect((400...499).contains(answer.status))
        }
        // Not UTF-8 in the path.
        let badPath = try client.get("http://127.0.0.1:\(server.port)/v1/feeds/%FF/items")
        #expect((400...499).contains(badPath.status))
        // Slowloris: half a request line and never the rest; closed after the 1 s idle timeout.
        let socket = try RawSocket(port: server.port)
        try socket.send("GET /v1/feeds HTTP/1.1\r\nHost: x\r\n")
        #expect(try client.get("http://127.0.0.1:\(server.port)/v1/feeds").status == 200)
        #expect(socket.waitForClose(seconds: 10))
        // Bytes that are not UTF-8 in the path itself (not percent-encoded).
        let rawBytes = try RawSocket(port: server.port)
        try rawBytes.send(bytes: Array("GET /v1/feeds/".utf8) + [0xFF, 0xFE] + Array("/items HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        let head = rawBytes.readHead(seconds: 10)
        #expect(head.isEmpty || head.hasPrefix("HTTP/1.1 4"), "\(head)")
        // Garbage that is not HTTP.
        let garbage = try RawSocket(port: server.port)
        try garbage.send("\u{1}\u{2}\u{3} nonsense\r\n\r\n")
        #expect(garbage.waitForClose(seconds: 10))
        #expect(try client.get("http://127.0.0.1:\(server.port)/v1/feeds").status == 200)
        server.stop()
    }

    /// Keep-alive connections are spread evenly over the worker threads (least connections, see
    /// `ConnectionAcceptor`): 4 connections on 2 workers are 2 + 2 and 7 on 3 are 3 + 2 + 2, every
    /// round. libmicrohttpd's own pool let whichever thread woke first take a connection, and 4 + 0
    /// or 3 + 1 came up in some runs (`wrk -t 2 -c 4` then got half the requests/s).
    @Test(arguments: [(2, 4, [2, 2]), (3, 7, [2, 2, 3])])
    func keepAliveConnectionsAreSpreadEvenlyOverTheWorkerThreads(threads: Int, connections: Int, expected: [Int]) throws {
        let server = try serve(try handMadeDatabase(), threads: threads)
        defer { server.stop() }
        for _ in 0..<3 {
            var sockets: [RawSocket] = []
            for _ in 0..<connections {
                let socket = try RawSocket(port: server.port)
                try socket.send("GET /v1/feeds HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(socket.readsSomething(seconds: 10), "an answer on the open connection")
                sockets.append(socket)
            }
            // Every connection has been answered, so its daemon has counted it.
            #expect(server.openConnectionsPerWorker.sorted() == expected)
            sockets.removeAll()  // closed
            let deadline = Date().addingTimeInterval(10)
            while server.openConnectionsPerWorker.contains(where: { $0 != 0 }) && Date() < deadline { usleep(2000) }
            #expect(server.openConnectionsPerWorker == Array(repeating: 0, count: threads))
        }
    }

    /// The same seeded data and trace give the same replay report through `serve` + `--source`
    /// as with `--db`, for every layout kind (the client-side latency and fault models the same):
    /// a flinger trace (many More pages) and a refresher trace (inserts at the head, pulls to refresh).
    @Test func replayWithSourceGivesTheSameReportAsWithTheDatabaseForEveryLayout() throws {
        let db = path("feed.sqlite")
        #expect(run(["seed", "--db", db, "--preset", "mixed", "--count", "2000"]) == 0)
        let flinger = path("flinger.jsonl")
        let refresher = path("refresher.jsonl")
        #expect(run(["trace", "synth", "--model", "flinger", "--duration", "12", "--seed", "5", "-o", flinger]) == 0)
        #expect(run(["trace", "synth", "--model", "refresher", "--duration", "12", "--seed", "5", "-o", refresher]) == 0)
        let server = try serve(db)
        let source = "http://127.0.0.1:\(server.port)"
        let vertical: Set = ["grid", "flow", "mosaic", "waterfall", "list"]
        for kind in ["grid", "flow", "mosaic", "carousel", "strip", "waterfall", "list"] {
            for (name, trace) in [("flinger", flinger), ("refresher", refresher)] {
                var common = ["--trace", trace, "--kind", kind, "--latency", "lognormal:80,0.4", "--faults", "error=0.05", "--seed", "3"]
                if kind == "carousel" { common += ["--item-size", "300x400"] }
                // The command line's own parsing, then the library calls `replay --db` and
                // `replay --source` make (no report printed: stdout is shared by parallel tests).
                let specs = SourceOptions.specs + LayoutOptions.specs + ReplayOptionsParsing.specs
                    + [OptionSpec("--trace", .value, help: ""), OptionSpec("--db", .value, help: "")]
                let parsed = try ParsedArguments(["--source", source] + common, specs: specs)
                var options = try ReplayOptionsParsing.options(from: parsed)
                let layout = try LayoutOptions.configuration(from: parsed, defaultKind: .grid)
                if layout.refreshHeight > 0 { options.refreshControlHeight = layout.refreshHeight }
                let loaded = try TraceFormat.canonical.load(contentsOf: trace)
                let preset = try Preset.named("mixed")
                let viaDB = try ReplaySession.run(
                    trace: loaded, store: try ItemStore(path: db), feed: "home", layout: layout, options: options,
                    insertPreset: preset)
                let http = try #require(try SourceOptions.backend(parsed, feed: "home"))
                let viaHTTP = try ReplaySession.run(
                    trace: loaded, backend: http, layout: layout, options: options, insertPreset: preset)
                #expect(http.audit.problemCount == 0, "\(kind) \(name): \(http.audit.examples)")
                let a = try viaDB.report.jsonData()
                let b = try viaHTTP.report.jsonData()
                #expect(a == b, "\(kind) \(name): the reports differ")
                let pages = (try JSONSerialization.jsonObject(with: a) as? [String: Any])?["pages"] as? [String: Any]
                if name == "flinger" && vertical.contains(kind) {
                    #expect((pages?["more"] as? Int ?? 0) > 0, "\(kind): no More pages")
                }
                if name == "refresher" && vertical.contains(kind) {
                    #expect((pages?["refresh"] as? Int ?? 0) > 0, "\(kind): no Refresh")
                }
            }
        }
        // The trace's inserts lived in the replays' memory: the database holds its 2000 items.
        #expect(try ItemStore(path: db).stats().feeds.map(\.items).reduce(0, +) == 2000)
        // With --keep-inserts they are POSTed at the end, and the server's database has them.
        let parsed = try ParsedArguments(
            ["--source", source], specs: SourceOptions.specs + [OptionSpec("--db", .value, help: "")])
        let http = try #require(try SourceOptions.backend(parsed, feed: "home"))
        var options = try ReplayOptionsParsing.options(from: try ParsedArguments([], specs: ReplayOptionsParsing.specs))
        options.keepTimeline = false
        _ = try ReplaySession.run(
            trace: try TraceFormat.canonical.load(contentsOf: refresher), backend: http,
            layout: LayoutConfiguration(kind: .list), options: options, insertPreset: try Preset.named("mixed"),
            keepInserts: true)
        let inserted = try ReplayTraceCount.inserts(in: refresher)
        #expect(inserted > 0)
        #expect(try ItemStore(path: db).stats().feeds.map(\.items).reduce(0, +) == 2000 + inserted)
        server.stop()
    }

    /// SIGTERM and SIGINT alike: the listener closes at once (a new connection is refused), the
    /// held request is answered, then the process exits 0.
    /// A second signal during the drain answers the held request at once and exits 0 (the first
    /// would wait out its 60 s hold, then the 30 s grace).
    @Test func aSecondSignalAnswersHeldRequestsAndExitsAtOnce() throws {
        let binary = try #require(ProcessDeterminismTests.binary, "the feedsim binary is built")
        let child = try ChildProcess(
            binary.path, ["serve", "--db", try handMadeDatabase(), "--listen", "127.0.0.1:0", "--latency", "fixed:60000"])
        let line = try #require(child.waitForLine(startingWith: "feedsim serve: listening on"), "\(child.standardError)")
        let port = try #require(line.split(separator: ":").last.flatMap { Int($0.split(separator: " ").first ?? "") })
        let answer = Mutex<Int?>(nil)
        Thread {
            let status = (try? HTTPClient(timeoutMs: 70_000).get("http://127.0.0.1:\(port)/v1/feeds"))?.status
            answer.withLock { $0 = status ?? -1 }
        }.start()
        usleep(700_000)
        let started = Date()
        child.send(SIGTERM)
        usleep(500_000)
        child.send(SIGINT)
        #expect(child.wait() == 0)
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(FeedsimProcess.wait(seconds: 10) { answer.withLock { $0 } != nil })
        #expect(answer.withLock { $0 } == 200)
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func theServeProcessFinishesAHeldRequestOnASignalAndExitsZero(signal: Int32) throws {
        let binary = try #require(ProcessDeterminismTests.binary, "the feedsim binary is built")
        let db = try handMadeDatabase()
        let log = path("access.log")
        let child = try ChildProcess(
            binary.path, ["serve", "--db", db, "--listen", "127.0.0.1:0", "--latency", "fixed:3000", "--access-log", log])
        let line = try #require(child.waitForLine(startingWith: "feedsim serve: listening on"), "\(child.standardError)")
        let port = try #require(line.split(separator: ":").last.flatMap { Int($0.split(separator: " ").first ?? "") })
        let answer = Mutex<Int?>(nil)
        let thread = Thread {
            let status = (try? HTTPClient().get("http://127.0.0.1:\(port)/v1/feeds/home/items?limit=1"))?.status
            answer.withLock { $0 = status ?? -1 }
        }
        thread.start()
        usleep(1_000_000)  // the request is being held (3 s)
        child.send(signal)
        usleep(300_000)  // still draining (about 1.7 s of the hold left)
        #expect(throws: POSIXError.self, "connections are refused once the signal came") {
            try RawSocket(port: UInt16(port))
        }
        #expect(child.wait() == 0)
        // The server wrote the answer before it exited; the client thread may still be reading it.
        let deadline = Date().addingTimeInterval(15)
        while answer.withLock({ $0 }) == nil && Date() < deadline { usleep(10_000) }
        #expect(answer.withLock { $0 } == 200)
        let logged = try String(contentsOfFile: log, encoding: .utf8)
        #expect(logged.contains("\"GET /v1/feeds/home/items?limit=1 HTTP/1.1\" 200 "))
    }
}

/// Counts a trace's inserted items, read from its JSON Lines by hand (not through the replay).
enum ReplayTraceCount {
    static func inserts(in path: String) throws -> Int {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").reduce(0) { total, line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                object["type"] as? String == "insert"
            else { return total }
            return total + (object["count"] as? Int ?? 0)
        }
    }
}

/// A plain TCP connection for sending bytes that are not a well-formed request.
final class RawSocket {
    let descriptor: Int32

    init(port: UInt16) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else { throw POSIXError(.ECONNREFUSED) }
    }

    deinit { close(descriptor) }

    func send(_ text: String) throws {
        try send(bytes: Array(text.utf8))
    }

    func send(bytes: [UInt8]) throws {
        guard write(descriptor, bytes, bytes.count) == bytes.count else { throw POSIXError(.EPIPE) }
    }

    /// The response's status line and headers as text (up to the blank line), or what arrived
    /// before the server closed or `seconds` passed (empty: closed without an answer).
    func readHead(seconds: Int) -> String {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !String(decoding: received, as: UTF8.self).contains("\r\n\r\n") {
            let count = read(descriptor, &buffer, buffer.count)
            guard count > 0 else { break }
            received += buffer[..<count]
        }
        let text = String(decoding: received, as: UTF8.self)
        return text.components(separatedBy: "\r\n\r\n").first.map { $0.isEmpty ? "" : $0 + "\r\n" } ?? ""
    }

    /// Whether some bytes arrive within `seconds` (read and dropped).
    func readsSomething(seconds: Int) -> Bool {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 4096)
        return read(descriptor, &buffer, buffer.count) > 0
    }

    /// Whether the server closes the connection (a read returns 0 or an error) within `seconds`;
    /// any bytes it sends first (an error response) are read and dropped.
    func waitForClose(seconds: Int) -> Bool {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count == 0 { return true }
            if count < 0 { return errno == ECONNRESET }
        }
    }
}
