import FeedSimTestSupport
import Foundation
import Testing

/// What a newcomer following the README met, run as the user ran it (the built binary in a process
/// of its own): `load --iterations`'s 600 s cap, `bench replay` with a short `--duration`, exit 64
/// for every value an option cannot take, SIGINT during `load` and `sweep`, and the messages.
@Suite(.enabled(if: FeedsimProcess.binary != nil, "feedsim binary not found next to the test runner; run `swift build`"))
struct NewcomerFindingsProcessTests {
    let directory = TemporaryDirectory.make("feedsim-newcomer")
    var feedsim: FeedsimProcess { FeedsimProcess(directory: directory) }
    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// A tiny seeded feed: 300 items, seed 1.
    private func seeded() throws -> String {
        let db = path("feed.sqlite")
        let outcome = try feedsim.run(["seed", "--db", db, "--preset", "mixed", "--count", "300", "--seed", "1"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        return db
    }

    /// Runs `feedsim arguments`, sends `signal` after `delay` seconds and waits at most `timeout`
    /// seconds for the process to end (then kills it, and the expectation fails).
    private func interrupted(
        _ arguments: [String], with signal: Int32, after delay: Double, endingWithin timeout: Double
    ) throws -> FeedsimProcess.Outcome {
        let (process, outPath, errPath) = try feedsim.prepare(arguments)
        try process.run()
        Thread.sleep(forTimeInterval: delay)
        kill(process.processIdentifier, signal)
        #expect(FeedsimProcess.wait(seconds: timeout) { !process.isRunning }, "\(arguments[0]) ended after signal \(signal)")
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return FeedsimProcess.outcome(process, outPath, errPath)
    }

    private func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    // MARK: 1. --iterations

    /// `--help` says "(with --iterations: at most, default 600)" (k6's shared-iterations maxDuration
    /// default is 10m): without `--duration` the run's settings say 600, and all N sessions run.
    @Test func loadWithIterationsAndNoDurationIsCappedAt600Seconds() throws {
        let db = try seeded()
        let outcome = try feedsim.run([
            "load", "--db", db, "--iterations", "3", "--sessions", "1", "--time-scale", "max", "--trace-duration", "2", "--json",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let report = try json(outcome.stdout)
        let settings = try #require(report["settings"] as? [String: Any])
        #expect(settings["duration_seconds"] as? Double == 600)
        #expect((report["sessions"] as? [String: Any])?["started"] as? Int == 3)
        #expect(report["iterations_not_started"] == nil)
        #expect(!outcome.stderr.contains("iterations:"), "\(outcome.stderr)")
    }

    /// A plain run keeps the table's 10 s default.
    @Test func loadWithoutIterationsKeepsTheTenSecondDefault() throws {
        let db = try seeded()
        let outcome = try feedsim.run(["load", "--db", db, "--sessions", "1", "--time-scale", "max", "--duration", "0.3", "--json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect((try json(outcome.stdout)["settings"] as? [String: Any])?["duration_seconds"] as? Double == 0.3)
    }

    /// One session at real time replays a 30 s trace; a 1 s duration ends it with 1 of 20 started:
    /// stderr and the report say so (k6 warns when maxDuration cuts shared iterations short).
    @Test func aDurationEndingBeforeTheIterationsSaysHowManyRan() throws {
        let db = try seeded()
        let reportPath = path("report.json")
        let outcome = try feedsim.run([
            "load", "--db", db, "--iterations", "20", "--sessions", "1", "--duration", "1", "--trace-duration", "30",
            "--report", reportPath,
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let line = "iterations: 1 of 20 started before the 1 s duration ended; 19 never ran (raise --duration)"
        #expect(outcome.stderrLines.contains("feedsim load: " + line), "\(outcome.stderr)")
        #expect(outcome.stdout.contains("\n" + line + "\n"), "\(outcome.stdout)")
        let report = try json(try String(contentsOfFile: reportPath, encoding: .utf8))
        #expect(report["iterations_not_started"] as? Int == 19)
    }

    // MARK: 2. bench replay --duration

    /// The shallow memory case replays --duration / 10 seconds: with --duration 1 that is 0.1 s,
    /// which the child process must take (it refused anything below 1 before: exit 64).
    @Test func benchReplayRunsWithTheShortestAcceptedDuration() throws {
        let outcome = try feedsim.run(["bench", "replay", "--count", "1000", "--duration", "1", "--repetitions", "1", "--json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("\"duration_s\" : 0.1") || outcome.stdout.contains("\"duration_s\":0.1"), "\(outcome.stdout)")
    }

    // MARK: 3 and 5. Exit 64 for a value an option cannot take

    @Test(arguments: [
        (["replay", "--db", "none.sqlite", "--trace", "none.jsonl", "--layout", "mosiac"],
         "feedsim replay: --layout: unknown layout 'mosiac' (grid, flow, mosaic, carousel, strip, waterfall, list)"),
        (["replay", "--db", "none.sqlite", "--trace", "none.jsonl", "--ranges", "paging33"],
         "feedsim replay: --ranges: unknown preset 'paging33'"),
        (["seed", "--db", "none.sqlite", "--count", "10", "--preset", "foto"],
         "feedsim seed: --preset: unknown preset 'foto' (mixed, news, photos)"),
        (["replay", "--db", "none.sqlite", "--trace", "none.jsonl", "--latency", "lognormal:120"],
         "feedsim replay: --latency 'lognormal:120':"),
        (["replay", "--db", "none.sqlite", "--trace", "none.jsonl", "--faults", "eror=0.1"],
         "feedsim replay: --faults 'eror=0.1': unknown key 'eror' (error, timeout, timeout-ms, outage)"),
        (["serve", "--db", "none.sqlite", "--faults", "eror=0.1"],
         "feedsim serve: --faults 'eror=0.1': unknown key 'eror' (error, rate-limit, retry-after, timeout, timeout-ms, outage)"),
        (["trace", "synth", "--model", "flingr", "--duration", "1", "--seed", "1"],
         "feedsim trace synth: --model: unknown model 'flingr'"),
        (["serve", "--db", "none.sqlite", "--listen", "127.0.0.1:99999"],
         "feedsim serve: --listen: port must be 0...65535, got '99999'"),
        (["replay", "--db", "none.sqlite", "--trace", "none.jsonl", "--layout", "carousel"],
         "feedsim replay: --item-size WxH is required by the carousel layout (e.g. --item-size 300x400)"),
        (["layout", "--kind", "nope", "--count", "3", "--viewport", "100x100"],
         "feedsim layout: --kind: unknown layout 'nope'"),
        (["trace", "import", "--from", "evmu", "none.txt"], "feedsim trace import: --from: unknown format 'evmu'"),
    ])
    func aValueTheOptionCannotTakeIsOneLineAndExit64BeforeAnyWork(arguments: [String], message: String) throws {
        let outcome = try feedsim.run(arguments)
        #expect(outcome.status == 64, "\(outcome.stderr)")
        #expect(outcome.stderrLines.count == 1, "\(outcome.stderr)")
        #expect(outcome.stderr.hasPrefix(message), "\(outcome.stderr)")
        #expect(outcome.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: path("none.sqlite")))
    }

    /// A missing file is still exit 1 (not a usage error).
    @Test func aMissingTraceFileIsStillExit1() throws {
        let db = try seeded()
        let outcome = try feedsim.run(["replay", "--db", db, "--trace", path("none.jsonl")])
        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(outcome.stderrLines == ["feedsim replay: \(path("none.jsonl")): no such file"])
    }

    // MARK: 6. SIGINT during load and sweep

    /// k6 on Ctrl-C: no new session starts, the running ones end, the summary is printed and the
    /// report written (marked stopped early), then exit 130.
    @Test func sigintDuringLoadPrintsTheSummaryWritesTheReportAndExits130() throws {
        let db = try seeded()
        let reportPath = path("interrupted.json")
        let sent = Date().addingTimeInterval(1.5)
        let outcome = try interrupted([
            "load", "--db", db, "--sessions", "2", "--workers", "2", "--duration", "120", "--trace-duration", "60",
            "--report", reportPath,
        ], with: SIGINT, after: 1.5, endingWithin: 30)
        #expect(Date().timeIntervalSince(sent) < 20, "the running sessions ended promptly")
        #expect(outcome.status == 130 && !outcome.signalled, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("(stopped early by SIGINT or SIGTERM)"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("sessions: 2 started, 0 completed, 2 interrupted"), "\(outcome.stdout)")
        #expect(outcome.stderrLines.last == "feedsim load: interrupted by SIGINT: the summary and report cover the run so far", "\(outcome.stderr)")
        let report = try json(try String(contentsOfFile: reportPath, encoding: .utf8))
        #expect(report["stopped_early"] as? Bool == true)
    }

    /// SIGTERM (what `kill`, systemd and Kubernetes Jobs send) is Ctrl-C's twin: the summary, the
    /// report, the writers' items deleted (no `--keep-writes`), exit 143 (128 + 15). It killed the
    /// process at once before, leaving the writers' rows in the feed.
    @Test func sigtermDuringLoadWithWritersCleansUpPrintsTheSummaryAndExits143() throws {
        let db = try seeded()
        let reportPath = path("terminated.json")
        let outcome = try interrupted([
            "load", "--db", db, "--sessions", "2", "--workers", "2", "--duration", "120", "--trace-duration", "60",
            "--writers", "1", "--write-rate", "50", "--report", reportPath,
        ], with: SIGTERM, after: 1.5, endingWithin: 30)
        #expect(outcome.status == 143 && !outcome.signalled, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("(stopped early by SIGINT or SIGTERM)"), "\(outcome.stdout)")
        #expect(outcome.stderrLines.last == "feedsim load: interrupted by SIGTERM: the summary and report cover the run so far", "\(outcome.stderr)")
        let report = try json(try String(contentsOfFile: reportPath, encoding: .utf8))
        #expect(report["stopped_early"] as? Bool == true)
        let inserts = ((report["latency"] as? [String: Any])?["insert"] as? [String: Any])?["count"] as? Int ?? 0
        #expect(inserts > 0, "the writer wrote before the signal: \(report["latency"] ?? "no latency")")
        let stats = try feedsim.run(["stats", "--db", db, "--json"])
        let feeds = try #require(try json(stats.stdout)["feeds"] as? [[String: Any]])
        #expect(feeds.first?["items"] as? Int == 300, "the 300 seeded items, the writers' deleted: \(stats.stdout)")
    }

    /// `python3` on the PATH, or `nil`.
    static let python: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/python3" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// A database damaged inside its item pages (the newest pages readable, so the replay starts)
    /// stops the replay with SQLite's error on one line, exit 1; it was counted as the feed's
    /// simulated failures ("a load gave up after its retries") and the replay exited 0. The
    /// damage: every leaf page of the `items` table but the 20 newest overwritten with 0xFF,
    /// found with SQLite's `dbstat` table through Python's `sqlite3` module.
    @Test(.enabled(if: Self.python != nil, "python3 not found on PATH: this test damages the file with it"))
    func aReplayOverADamagedDatabaseStopsWithSQLitesErrorAndExit1() throws {
        let db = path("damaged.sqlite")
        #expect(try feedsim.run(["seed", "--db", db, "--preset", "photos", "--count", "3000", "--seed", "1"]).status == 0)
        let script = """
            import sqlite3, sys
            c = sqlite3.connect(sys.argv[1])
            leaves = [r[0] for r in c.execute("select pageno from dbstat where name='items' and pagetype='leaf' order by pageno")]
            size = c.execute('pragma page_size').fetchone()[0]
            c.close()
            with open(sys.argv[1], 'r+b') as f:
                for page in leaves[:-20]:
                    f.seek((page - 1) * size)
                    f.write(b'\\xff' * size)
            print(len(leaves) - 20)
            """
        let damage = Process()
        damage.executableURL = URL(fileURLWithPath: try #require(Self.python))
        damage.arguments = ["-c", script, db]
        let pipe = Pipe()
        damage.standardOutput = pipe
        try damage.run()
        damage.waitUntilExit()
        let damaged = Int(String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(damage.terminationStatus == 0 && damaged > 50, "\(damaged) leaf pages damaged")
        let trace = path("flinger.jsonl")
        #expect(try feedsim.run(["trace", "synth", "--model", "flinger", "--duration", "60", "--seed", "1", "-o", trace]).status == 0)
        let outcome = try feedsim.run(["replay", "--db", db, "--trace", trace, "--layout", "grid"])
        #expect(outcome.status == 1, "\(outcome.stdout)\n\(outcome.stderr)")
        #expect(outcome.stdout.isEmpty, "no summary of a replay that read a broken file")
        #expect(outcome.stderrLines.count == 1, "\(outcome.stderr)")
        #expect(
            outcome.stderrLines.first?.hasPrefix(
                "feedsim replay: \(db): SQLite error 11 (extended 11): database disk image is malformed [SQL: SELECT ") == true,
            "\(outcome.stderr)")
    }

    /// Sweep on SIGINT: no new replay starts, the running one finishes, stderr says how many
    /// combinations finished, and no output file is written (half a sweep is no frontier).
    @Test func sigintDuringSweepSaysHowManyCombinationsFinishedAndWritesNothing() throws {
        let db = try seeded()
        let trace = path("long.jsonl")
        let synth = try feedsim.run(["trace", "synth", "--model", "flinger", "--duration", "60", "--seed", "1", "-o", trace])
        #expect(synth.status == 0, "\(synth.stderr)")
        let csv = path("sweep.csv")
        let sizes = (1...40).map { String(10 + $0) }.joined(separator: ",")
        let outcome = try interrupted([
            "sweep", "--db", db, "--trace", trace, "--vary", "page-size=" + sizes, "--jobs", "1", "--csv", csv,
        ], with: SIGINT, after: 3, endingWithin: 60)
        #expect(outcome.status == 130 && !outcome.signalled, "\(outcome.stderr)")
        let line = try #require(outcome.stderrLines.last, "\(outcome.stderr)")
        #expect(line.hasPrefix("feedsim sweep: interrupted by SIGINT: "), "\(line)")
        #expect(line.hasSuffix(" of 40 combinations finished; no output was written"), "\(line)")
        let finished = Int(line.dropFirst("feedsim sweep: interrupted by SIGINT: ".count).prefix { $0.isNumber }) ?? -1
        #expect((0..<40).contains(finished), "\(line)")
        #expect(!FileManager.default.fileExists(atPath: csv))
        #expect(outcome.stdout.isEmpty)
    }

    /// Replay opens the database read-only: its interruption says what is true.
    @Test func sigintDuringReplaySaysTheDatabaseWasNotChanged() throws {
        let db = try seeded()
        let trace = path("day.jsonl")
        let synth = try feedsim.run(["trace", "synth", "--model", "flinger", "--duration", "7200", "--seed", "1", "-o", trace])
        #expect(synth.status == 0, "\(synth.stderr)")
        let (process, outPath, errPath) = try feedsim.prepare(["replay", "--db", db, "--trace", trace, "--json"])
        try process.run()
        Thread.sleep(forTimeInterval: 1.0)
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        let outcome = FeedsimProcess.outcome(process, outPath, errPath)
        #expect(outcome.status == 130, "\(outcome.stderr)")
        #expect(
            outcome.stderrLines == [
                "feedsim replay: interrupted by SIGINT: the replay stopped before the trace's end; "
                    + "the database was not changed and no output was written"
            ], "\(outcome.stderr)")
    }

    // MARK: 7. Messages

    @Test func aPaginationLoadWithoutWritersSaysSoInTheSummaryInTheSingular() throws {
        let db = try seeded()
        let outcome = try feedsim.run([
            "load", "--db", db, "--session", "pagination", "--page-budget", "3", "--iterations", "1", "--sessions", "1",
            "--workers", "1", "--time-scale", "max",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("closed, 1 session, time scale max"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("\n  pagination sessions of 3 pages, 1 worker, 0 writers, seed 1"), "\(outcome.stdout)")
        #expect(!outcome.stdout.contains("traces "), "pagination sessions play no trace: \(outcome.stdout)")
        #expect(outcome.stdout.contains("\npagination: 3 pages, "), "\(outcome.stdout)")
        #expect(!outcome.stdout.contains("\nreplay: "), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("\nwrites: no writers\n"), "\(outcome.stdout)")
    }

    @Test func anOptionTypoSuggestsTheNearestOptionAndALayoutMismatchIsOneLine() throws {
        let db = try seeded()
        let trace = path("t.jsonl")
        #expect(try feedsim.run(["trace", "synth", "--model", "skimmer", "--duration", "2", "--seed", "1", "-o", trace]).status == 0)
        let typo = try feedsim.run(["replay", "--db", db, "--trace", trace, "--pagesize", "10"])
        #expect(typo.status == 64)
        #expect(typo.stderrLines.first == "feedsim replay: unknown option '--pagesize' (did you mean '--page-size'?)")
        let vary = try feedsim.run(["sweep", "--db", db, "--trace", trace, "--vary", "page-sise=10,20"])
        #expect(vary.status == 64)
        #expect(vary.stderrLines == [
            "feedsim sweep: --vary: unknown option 'page-sise' (did you mean 'page-size'? any option of "
                + "`feedsim replay --help` but --db, --trace and outputs)"
        ])
        let mosaic = try feedsim.run(["replay", "--db", db, "--trace", trace, "--layout", "mosaic", "--columns", "3"])
        #expect(mosaic.status == 64)
        #expect(mosaic.stderrLines.count == 1 && mosaic.stderrLines[0].hasPrefix("feedsim replay: --columns is not used by the mosaic layout"))
    }

    @Test func versionPrintsTheVersionAndAnUnknownCommandSuggestsTheNearest() throws {
        let version = try feedsim.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout == "feedsim 0.3.0\n")
        let typo = try feedsim.run(["sed", "--db", "x.sqlite"])
        #expect(typo.status == 64)
        #expect(typo.stderrLines == ["feedsim: unknown command 'sed' (did you mean 'seed'?)"])
        let groupTypo = try feedsim.run(["bench", "replya"])
        #expect(groupTypo.stderrLines == ["feedsim: unknown command 'bench replya' (did you mean 'bench replay'?)"])
        let nothingNear = try feedsim.run(["xyzzyq"])
        #expect(nothingNear.stderrLines == ["feedsim: unknown command 'xyzzyq' (see feedsim --help)"])
    }

    /// A worker daemon that cannot start (here: too few file descriptors for 20 epoll sets) is exit 1
    /// with one line, at once: the accepting thread had not started, and stopping waited for it forever.
    @Test func serveWithoutTheDescriptorsForItsThreadsExitsAtOnce() throws {
        let db = try seeded()
        let (process, outPath, errPath) = try feedsim.prepare(
            ["serve", "--db", db, "--listen", "127.0.0.1:0", "--threads", "20"], shell: "ulimit -n 40;")
        try process.run()
        #expect(FeedsimProcess.wait(seconds: 10) { !process.isRunning }, "serve ended by itself")
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        let outcome = FeedsimProcess.outcome(process, outPath, errPath)
        #expect(outcome.status == 1, "\(outcome.stderr)")
        let line = try #require(outcome.stderrLines.last)
        #expect(line.hasPrefix("feedsim serve: cannot start libmicrohttpd's worker thread "), "\(line)")
        #expect(line.hasSuffix(" of 20 (out of file descriptors or threads?)"), "\(line)")
    }

    // MARK: HTTP paths (stop 22's newcomer)

    /// A loopback port nothing listens on (bound, then closed).
    private func closedPort() throws -> UInt16 {
        let socket = try RawSocketListener()
        return socket.port
    }

    /// What a newcomer met on the HTTP paths, each now one line and the right exit code: a secret in
    /// `--header-env` is named by its variable and never shown; `load --source` at a port nothing
    /// listens on ends at once (it ran every session to failure for the whole --duration); a walk
    /// that got no page is exit 1, not a report; a directory as `--convention`; a URL with no host,
    /// a port past 65535 or a space, and a header with no name, are usage errors.
    @Test func httpSourceMistakesAreOneLineWithTheRightExitCode() throws {
        let port = try closedPort()
        let dead = "http://127.0.0.1:\(port)"
        let secret = try feedsim.run(
            ["page", "--source", dead, "--header-env", "FEEDSIM_TEST_AUTH"], shell: "export FEEDSIM_TEST_AUTH='Bearer sk_live_SECRET';")
        #expect(secret.status == 1)
        #expect(
            secret.stderrLines == [
                "feedsim page: --header-env FEEDSIM_TEST_AUTH: the variable does not hold one 'Name: value' line (its value is not shown)"
            ])
        let started = Date()
        let load = try feedsim.run(["load", "--source", dead, "--sessions", "2", "--duration", "5", "--time-scale", "10"])
        #expect(load.status == 1)
        #expect(Date().timeIntervalSince(started) < 4, "ended before its --duration")
        #expect(
            load.stderrLines == [
                "feedsim load: --source: no answer from \(dead)/v1/feeds/home/items?limit=1: Couldn't connect to server"
            ])
        let walk = try feedsim.run(["page", "--source", dead, "--walk"])
        #expect(walk.status == 1)
        #expect(
            walk.stderrLines == [
                "feedsim page: \(dead)/v1/feeds/home/items?limit=20: transport: Couldn't connect to server (no page was served)"
            ])
        let folder = try feedsim.run(["page", "--source", dead, "--convention", directory.path])
        #expect(folder.status == 1)
        #expect(folder.stderrLines == ["feedsim page: --convention \(directory.path): is a directory, not a file"])
        let usage: [([String], String)] = [
            (["--source", "http://127.0.0.1:70000"], "--source: port 70000 is outside 1...65535"),
            (["--source", "http://"], "--source: 'http://' is not a URL with a host (no spaces; %20 for one)"),
            (["--source", "http://127.0.0.1/a b"], "--source: 'http://127.0.0.1/a b' is not a URL with a host (no spaces; %20 for one)"),
            (["--source", dead, "--header", ": value"], "--header: expected 'Name: value' on one line, got ': value'"),
        ]
        for (arguments, message) in usage {
            let outcome = try feedsim.run(["page"] + arguments)
            #expect(outcome.status == 64, "\(arguments)")
            #expect(outcome.stderrLines.first == "feedsim page: " + message, "\(outcome.stderr)")
        }
    }
}

extension PostgresCommandLineTests {
    /// `load --source … --truth-db postgresql://…` opens the database behind the API as `--db`
    /// would (FeedDatabase's migrations, the feed checked): the run checks skipped items against it
    /// and finds none, as `serve` over the same database answers only what it holds.
    @Test func loadTakesAPostgreSQLTruthDatabaseBehindItsSourceOnPostgreSQL() throws {
        let binary = try #require(ProcessDeterminismTests.binary)
        let (schema, uri) = try Self.freshSchema()
        defer { Self.drop(schema) }
        #expect(try feedsim(["seed", "--db", uri, "--preset", "mixed", "--count", "300", "--seed", "9"]).status == 0)
        let server = try ChildProcess(binary.path, ["serve", "--db", uri, "--listen", "127.0.0.1:0", "--threads", "2"])
        defer {
            server.send(SIGTERM)
            _ = server.wait()
        }
        let line = try #require(server.waitForLine(startingWith: "feedsim serve: listening on"), "\(server.standardError)")
        let port = try #require(line.components(separatedBy: "http://127.0.0.1:").last?.prefix { $0.isNumber })
        let load = try feedsim([
            "load", "--source", "http://127.0.0.1:\(port)", "--truth-db", uri, "--session", "pagination",
            "--page-budget", "20", "--iterations", "2", "--sessions", "2", "--workers", "2", "--time-scale", "max", "--json",
        ])
        #expect(load.status == 0, "\(load.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(load.stdout.utf8)) as? [String: Any], "\(load.stdout)")
        let source = try #require(report["source"] as? [String: Any], "\(report)")
        #expect(source["skips_checked"] as? Bool == true)
        #expect((source["problems"] as? [String: Any])?.isEmpty == true, "\(source)")
        // 300 items in pages of 20: each session reads all 15 pages (the 16th request finds the end).
        let consistency = try #require(report["consistency"] as? [String: Any])
        #expect(consistency["skips"] as? Int == 0 && consistency["duplicates"] as? Int == 0)
        #expect(report["items"] as? Int == 600, "\(report["items"] ?? "")")
        // A truth database that is not there is still one line, exit 1.
        let missing = try feedsim([
            "load", "--source", "http://127.0.0.1:\(port)", "--truth-db", directory.appendingPathComponent("none.sqlite").path,
            "--iterations", "1", "--time-scale", "max",
        ])
        #expect(missing.status == 1 && missing.stderr.contains("no such file"), "\(missing.stderr)")
    }

}

/// A loopback TCP port bound and released at once: nothing listens on it afterwards.
private struct RawSocketListener {
    let port: UInt16

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else { throw POSIXError(.EADDRINUSE) }
        port = UInt16(bigEndian: address.sin_port)
    }
}
