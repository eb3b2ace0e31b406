import FeedHTTP
import FeedModel
import FeedStore
import FeedSimTestSupport
import Foundation
import Testing

@testable import feedsim

/// `feedsim load --source` against a real `feedsim serve` process over a seeded database, on real
/// loopback sockets: the load runs to its end, the server stays up, and every server error the
/// load saw is one the server was told to inject.
@Suite struct HTTPLoadProcessTests {
    let directory = TemporaryDirectory.make("feedsim-http-load")

    var process: FeedsimProcess { FeedsimProcess(directory: directory) }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// A `feedsim serve` process on a free port; returns it with its origin.
    func serve(_ arguments: [String]) throws -> (ChildProcess, String) {
        let binary = try #require(FeedsimProcess.binary, "the feedsim binary is built")
        let child = try ChildProcess(binary.path, ["serve", "--listen", "127.0.0.1:0"] + arguments)
        let line = try #require(child.waitForLine(startingWith: "feedsim serve: listening on"), "\(child.standardError)")
        let port = try #require(line.components(separatedBy: "http://127.0.0.1:").last?.prefix { $0.isNumber })
        return (child, "http://127.0.0.1:\(port)")
    }

    /// The statuses of an access log's lines (`… "GET /… HTTP/1.1" 200 5120 1.234`), in order.
    static func statuses(_ log: String) -> [String] {
        log.split(separator: "\n").compactMap { line in
            guard let close = line.range(of: "\" ", options: .backwards) else { return nil }
            return line[close.upperBound...].split(separator: " ").first.map(String.init)
        }
    }

    /// The README's pairing: `serve --faults` with `replay --source`. The replay runs to its end:
    /// a failed page is retried by the controller, a failed row fetch is a failed batch the
    /// virtualizer asks again, the one set-up read is tried up to three times; the report says
    /// what failed and the exit status is 2 (the API had problems).
    @Test func aReplayAgainstAServerThatFailsRequestsRunsToItsEndAndCountsTheFailures() throws {
        let db = path("feed.sqlite")
        #expect(try process.run(["seed", "--db", db, "--count", "2000", "--seed", "3"]).status == 0)
        let log = path("access.log")
        let (server, origin) = try serve(["--db", db, "--faults", "error=0.3", "--seed", "3", "--access-log", log])
        defer {
            server.send(SIGTERM)
            _ = server.wait()
        }
        let trace = RealData.packageFile("Seeds/traces/flutter-velocity-tracker-drags.jsonl").path
        let replay = try process.run(["replay", "--source", origin, "--trace", trace, "--json"])
        #expect(replay.status == 2, "\(replay.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(replay.stdout.utf8)) as? [String: Any], "\(replay.stderr)")
        let pages = try #require(report["pages"] as? [String: Any])
        let rows = try #require(report["rows"] as? [String: Any])
        // At 30 % injected errors some page requests and some row batches fail; the replay goes on.
        #expect(pages["failures"] as? Int ?? 0 > 0, "\(pages)")
        #expect(rows["failed_batches"] as? Int ?? 0 > 0, "\(rows)")
        #expect(replay.stderr.contains("http_status"), "the API's problems are listed: \(replay.stderr)")
        let served = Self.statuses(try String(contentsOfFile: log, encoding: .utf8))
        #expect(served.contains("500") && served.contains("200"))
    }

    @Test func sigintDuringAReplayOverAnAPIExits130AndSaysNothingWasSent() throws {
        let db = path("feed.sqlite")
        #expect(try process.run(["seed", "--db", db, "--count", "2000", "--seed", "3"]).status == 0)
        let trace = path("day.jsonl")
        let synth = try process.run(["trace", "synth", "--model", "flinger", "--duration", "7200", "--seed", "1", "-o", trace])
        #expect(synth.status == 0, "\(synth.stderr)")
        let (server, origin) = try serve(["--db", db])
        defer {
            server.send(SIGTERM)
            _ = server.wait()
        }
        let (replay, outPath, errPath) = try process.prepare(["replay", "--source", origin, "--trace", trace, "--json"])
        try replay.run()
        Thread.sleep(forTimeInterval: 1.0)
        kill(replay.processIdentifier, SIGINT)
        replay.waitUntilExit()
        let outcome = FeedsimProcess.outcome(replay, outPath, errPath)
        #expect(outcome.status == 130, "\(outcome.stderr)")
        #expect(
            outcome.stderrLines == [
                "feedsim replay: interrupted by SIGINT: the replay stopped before the trace's end; "
                    + "nothing was sent to the API's insert endpoint and no output was written"
            ], "\(outcome.stderr)")
        #expect(outcome.stdout.isEmpty)
    }

    /// Delete writers over an HTTP feed API: the deleted rows are put back at the end. The restore
    /// asked for an (empty) update first, which an API has no request for: it threw, and the
    /// deleted items were lost for good (5000 → 4959).
    @Test func deleteWritersOverAnAPIPutTheDeletedRowsBack() throws {
        let db = path("deletes.sqlite")
        #expect(try process.run(["seed", "--db", db, "--preset", "photos", "--count", "500", "--seed", "4"]).status == 0)
        let before = try FeedStore.ItemStore.openReadOnly(path: db).stats().totalItems
        let (server, origin) = try serve(["--db", db])
        defer {
            server.send(SIGTERM)
            _ = server.wait()
        }
        let load = try process.run([
            "load", "--source", origin, "--sessions", "1", "--writers", "1", "--write-rate", "40",
            "--write-mix", "insert=1,delete=3", "--duration", "1.5", "--json",
        ])
        #expect(load.status == 0, "\(load.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(load.stdout.utf8)) as? [String: Any])
        #expect(report["deleted"] as? Int ?? 0 > 0, "\(load.stdout)")
        #expect((report["errors"] as? [String: Int] ?? [:]).isEmpty, "\(report["errors"] ?? "")")
        #expect(try FeedStore.ItemStore.openReadOnly(path: db).stats().totalItems == before)
    }

    @Test func sixtyFourSessionsAndTwoWritersRunToTheEndWithOnlyTheInjectedServerErrors() throws {
        let db = path("feed.sqlite")
        #expect(try process.run(["seed", "--db", db, "--preset", "photos", "--count", "3000", "--seed", "3"]).status == 0)
        let log = path("access.log")
        let (server, origin) = try serve(["--db", db, "--faults", "error=0.05", "--seed", "7", "--threads", "4", "--access-log", log])
        defer {
            server.send(SIGTERM)
            _ = server.wait()
        }
        let load = try process.run([
            "load", "--source", origin, "--truth-db", db, "--sessions", "64", "--writers", "2", "--write-rate", "20",
            "--duration", "4", "--time-scale", "10", "--workers", "2", "--json",
        ])
        #expect(load.status == 0, "\(load.stderr) \(load.stdout)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(load.stdout.utf8)) as? [String: Any], "\(load.stdout)")
        let sessions = try #require(report["sessions"] as? [String: Any])
        #expect(sessions["started"] as? Int ?? 0 >= 64)
        #expect(sessions["failed"] as? Int == 0, "\(report["consistency"] ?? "")")
        #expect(report["stopped_early"] as? Bool == false)
        #expect(report["elapsed_seconds"] as? Double ?? 0 >= 4)
        #expect(report["inserted"] as? Int ?? 0 > 0)
        #expect(report["pages"] as? Int ?? 0 > 0)
        let consistency = try #require(report["consistency"] as? [String: Any])
        #expect(consistency["duplicates"] as? Int == 0 && consistency["skips"] as? Int == 0)
        let source = try #require(report["source"] as? [String: Any])
        #expect(source["skips_checked"] as? Bool == true)
        let problems = try #require(source["problems"] as? [String: Int])
        #expect(Set(problems.keys).isSubset(of: ["http_status"]), "\(problems)")

        // The server is still up and answers (a request may draw an injected 500: three tries).
        let client = try HTTPClient()
        let answers = try (0..<3).map { _ in try client.get(origin + "/v1/feeds/home/items?limit=3").status }
        #expect(answers.contains(200) && answers.allSatisfy { [200, 500].contains($0) }, "\(answers)")
        server.send(SIGTERM)
        #expect(server.wait() == 0)

        // Every 500 is an injected one: the server draws request n's fault from its own generator
        // (seed 7, request index n), so the injected count over the requests it logged is known
        // without the server; nothing else may be a 5xx.
        let statuses = Self.statuses(try String(contentsOfFile: log, encoding: .utf8))
        let planner = try ServeFaults.parse("error=0.05").planner(latency: nil, seed: 7)
        let injected = (0..<statuses.count).filter { planner(UInt64($0), 0).fault == .serverError }.count
        #expect(statuses.count > 100)
        #expect(injected > 0)
        #expect(statuses.filter { $0 == "500" }.count == injected)
        #expect(statuses.filter { $0.hasPrefix("5") && $0 != "500" }.isEmpty)
        #expect(statuses.filter { $0 == "-" || $0.hasPrefix("4") }.isEmpty, "\(Set(statuses))")
        // The load saw at most the 500s the server sent (an answer still on the wire when the run
        // ended is not read).
        #expect(problems["http_status", default: 0] <= injected)
    }

    @Test func paginationSessionsWalkTheServedFeedAndCheckItAgainstTheDatabase() throws {
        let db = path("walk.sqlite")
        #expect(try process.run(["seed", "--db", db, "--preset", "mixed", "--count", "400", "--seed", "2"]).status == 0)
        let (server, origin) = try serve(["--db", db, "--threads", "2"])
        defer {
            server.send(SIGTERM)
            _ = server.wait()
        }
        // 400 items in pages of 20: Init (60 items, three pages' worth) then 17 More pages reach
        // the end; a budget of 30 pages is never the limit.
        let load = try process.run([
            "load", "--source", origin, "--truth-db", db, "--session", "pagination", "--page-budget", "30",
            "--sessions", "3", "--duration", "3", "--workers", "1", "--json",
        ])
        #expect(load.status == 0, "\(load.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(load.stdout.utf8)) as? [String: Any])
        let sessions = try #require(report["sessions"] as? [String: Any])
        let completed = try #require(sessions["completed"] as? Int)
        #expect(completed >= 3)
        let pages = try #require(report["pages"] as? Int)
        let items = try #require(report["items"] as? Int)
        // Each completed session loads the whole feed once: 400 items over 18 pages (60 + 17 · 20).
        #expect(items >= completed * 400)
        #expect(pages >= completed * 18)
        let consistency = try #require(report["consistency"] as? [String: Any])
        #expect(consistency["duplicates"] as? Int == 0 && consistency["skips"] as? Int == 0)
        let source = try #require(report["source"] as? [String: Any])
        #expect((source["problems"] as? [String: Int])?.isEmpty == true)
        let versions = try #require(source["http_versions"] as? [String: Int])
        #expect(versions.keys.sorted() == ["1.1"])
    }

    /// The fixture server (`Tests/Fixtures/convention_server.py`, 23 items, ids 123…101 in feed
    /// order) in `swap-order` mode: every page asked with a cursor has its first two items swapped.
    /// A pagination session in pages of 5 with one Init page asks 5 pages: 123–119 (in order), then
    /// 117 118 116 115 114, 112 113 111 110 109, 107 108 106 105 104, 102 103 101 (has_more false),
    /// and 118, 113, 108 and 103 are each out of order: 4 problems in 5 requests. Without
    /// `--truth-db` no span can be checked, so nothing else is asked (no newest-page read for the
    /// largest id at the start). Three sessions: 12 problems in 15 requests, so `api_problems==0`
    /// fails with 12, `api_problems.count==12` passes, and `api_problems.rate>=0.85` fails at
    /// 12 / 15 = 0.8; exit 99, as any breach.
    @Test func apiProblemsThresholdsMeasureWhatTheChecksFoundInTheAnswers() throws {
        let (server, port) = try Self.fixtureServer(mode: "swap-order")
        defer {
            server.send(SIGTERM)
            _ = server.wait()
        }
        let load = try process.run([
            "load", "--source", "http://127.0.0.1:\(port)/items", "--convention", "stripe", "--session", "pagination",
            "--iterations", "3", "--sessions", "1", "--workers", "1", "--time-scale", "max", "--page-size", "5",
            "--initial-pages", "1", "--threshold", "api_problems==0", "--threshold", "api_problems.count==12",
            "--threshold", "api_problems.rate>=0.85", "--json",
        ])
        #expect(load.status == 99, "\(load.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(load.stdout.utf8)) as? [String: Any])
        let thresholds = try #require(report["thresholds"] as? [[String: Any]])
        #expect(thresholds.map { $0["passed"] as? Bool } == [false, true, false])
        #expect(thresholds.map { $0["value"] as? Double } == [12, 12, 0.8])
        #expect(thresholds.map { $0["unit"] as? String } == ["count", "count", "per_request"])
        let source = try #require(report["source"] as? [String: Any])
        #expect(source["problems"] as? [String: Int] == ["out_of_order": 12])
        #expect(source["requests"] as? Int == 15)

        // On a database there are no answers to check: bad usage, before anything runs.
        let onDatabase = try process.run(["load", "--db", path("none.sqlite"), "--threshold", "api_problems==0"])
        #expect(onDatabase.status == 64)
        #expect(onDatabase.stderrLines.count == 1 && onDatabase.stderr.contains("it needs --source"), "\(onDatabase.stderr)")
    }

    /// `Tests/Fixtures/convention_server.py` in `stripe`'s convention and `mode`, on a free port
    /// (23 items, ids 123…101 in feed order). - Returns: the process and its port.
    static func fixtureServer(mode: String) throws -> (ChildProcess, Substring) {
        let python = try #require(
            (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map { "\($0)/python3" }
                .first { FileManager.default.isExecutableFile(atPath: $0) }, "python3 on the PATH")
        let server = try ChildProcess(python, [
            RealData.packageFile("Tests/Fixtures/convention_server.py").path, "--data",
            RealData.packageFile("Tests/Fixtures/convention-items.json").path, "--convention", "stripe", "--mode", mode,
            "--port", "0",
        ])
        guard let port = server.waitForLine(startingWith: "port ")?.dropFirst(5) else {
            server.send(SIGTERM)
            _ = server.wait()
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "no port: \(server.standardError)"])
        }
        return (server, port)
    }

    /// Three segments of a pagination load against the fixture in `swap-order` (2 of the 6
    /// sessions each; a session walking to the end finds 4 items out of order, see above): each
    /// segment finds 8 problems and passes `api_problems.count<10`; merged, the run found 24, so
    /// `report merge` fails it (exit 99, as `load`) and its text shows the summed source section.
    @Test func reportMergeMeasuresApiProblemsOnTheWholeRunAndExits99WhenTheyBreach() throws {
        let (server, port) = try Self.fixtureServer(mode: "swap-order")
        defer {
            server.send(SIGTERM)
            _ = server.wait()
        }
        var parts: [String] = []
        for segment in 1...3 {
            let part = path("part-\(segment).json")
            let load = try process.run([
                "load", "--source", "http://127.0.0.1:\(port)/items", "--convention", "stripe", "--session", "pagination",
                "--iterations", "6", "--sessions", "3", "--workers", "1", "--time-scale", "max", "--page-size", "5",
                "--initial-pages", "1", "--threshold", "api_problems.count<10", "--segment", "\(segment)/3",
                "--report", part,
            ])
            #expect(load.status == 0, "\(load.stderr)")
            #expect(load.stdout.contains("✓ api_problems.count<10  api_problems.count = 8"), "\(load.stdout)")
            parts.append(part)
        }
        let merge = try process.run(["report", "merge", path("merged.json")] + parts)
        #expect(merge.status == 99)
        #expect(merge.stderrLines == ["feedsim report merge: thresholds failed: api_problems.count<10"], "\(merge.stderr)")
        #expect(merge.stdout.contains("✗ api_problems.count<10  api_problems.count = 24"), "\(merge.stdout)")
        #expect(merge.stdout.contains("API problems: 24") && merge.stdout.contains("out_of_order: 24"), "\(merge.stdout)")
        #expect(FileManager.default.fileExists(atPath: path("merged.json")))
    }

    /// Replay sessions (the default) at `--time-scale max` run their frames far ahead of the wall
    /// clock: each waits for its answers on the wire, which land at their issue time plus their
    /// time on the wire. Before, a 5-s trace ended in microseconds with its Init page still on the
    /// wire, and three identical runs reported 0, 2 and 4 requests. Now every session's Init (3
    /// pages' worth, 60 items, asked in one request) brings the whole fixture, 23 items, every
    /// replay finishes with a first content, and two runs count the same.
    @Test func replaySessionsAtMaxTimeScaleWaitForTheirAnswersFromAnAPI() throws {
        let (server, port) = try Self.fixtureServer(mode: "ok")
        defer {
            server.send(SIGTERM)
            _ = server.wait()
        }
        var counts: [[Int]] = []
        for _ in 0..<2 {
            let load = try process.run([
                "load", "--source", "http://127.0.0.1:\(port)/items", "--convention", "stripe", "--iterations", "4",
                "--sessions", "2", "--workers", "1", "--time-scale", "max", "--trace-duration", "5", "--json",
            ])
            #expect(load.status == 0, "\(load.stderr)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(load.stdout.utf8)) as? [String: Any])
            let replays = try #require(report["replays"] as? [String: Any])
            #expect(replays["finished"] as? Int == 4)
            #expect((replays["time_to_first_content"] as? [String: Any])?["count"] as? Int == 4)
            let pages = try #require(report["pages"] as? Int)
            let items = try #require(report["items"] as? Int)
            #expect(pages >= 4 && items >= 4 * 23, "pages \(pages), items \(items)")
            let source = try #require(report["source"] as? [String: Any])
            #expect((source["problems"] as? [String: Int])?.isEmpty == true)
            counts.append([try #require(source["requests"] as? Int), pages, items])
        }
        #expect(counts[0] == counts[1])
    }

    /// At `--time-scale 10` the frames run ten times faster than the wall clock, but an answer
    /// still lands at its issue time plus its own time on the wire, as a database's does: serve
    /// holds each answer 40 ms, and first content needs the Init page and then its rows, so it
    /// comes between 80 ms (two answers) and well under 400 ms. Before, an answer landed at the
    /// first frame after it arrived, ten times its wall time later on the virtual clock: 40 ms
    /// took 400, and first content came after about 1.4 s (the same run at `--time-scale 1`: 0.11 s).
    @Test func aTimeScaleAboveOneDoesNotStretchAnAPIsAnswers() throws {
        let db = path("scaled.sqlite")
        #expect(try process.run(["seed", "--db", db, "--preset", "mixed", "--count", "400", "--seed", "2"]).status == 0)
        let (server, origin) = try serve(["--db", db, "--latency", "fixed:40"])
        defer {
            server.send(SIGTERM)
            _ = server.wait()
        }
        let load = try process.run([
            "load", "--source", origin, "--iterations", "4", "--sessions", "2", "--workers", "1", "--time-scale", "10",
            "--trace-duration", "5", "--json",
        ])
        #expect(load.status == 0, "\(load.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(load.stdout.utf8)) as? [String: Any])
        let ttfc = try #require((report["replays"] as? [String: Any])?["time_to_first_content"] as? [String: Any])
        #expect(ttfc["count"] as? Int == 4)
        let (low, high) = (try #require(ttfc["p50"] as? Double), try #require(ttfc["max"] as? Double))
        #expect(low >= 80 && high < 400, "time to first content p50 \(low) ms, max \(high) ms")
    }

    @Test(arguments: [
        (["--convention", "stripe", "--writers", "1"], "--writers: the 'stripe' convention has no insert request"),
        (["--writers", "1", "--write-mix", "insert=1,update=1"], "--write-mix: an HTTP feed API has no update request"),
        (["--pagination", "offset"], "--pagination offset: an HTTP feed API is paged by its own cursors"),
        (["--db", "x.sqlite"], "give --db or --source, not both"),
    ])
    func writesAndOptionsAnHTTPAPICannotTakeAreBadUsage(extra: [String], message: String) throws {
        let outcome = try process.run(["load", "--source", "http://127.0.0.1:9", "--duration", "1"] + extra)
        #expect(outcome.status == 64)
        #expect(outcome.stderrLines.count == 1 && outcome.stderr.contains(message), "\(outcome.stderr)")
    }
}
