import FeedSimTestSupport
import FeedStore
import Foundation
import Testing

@testable import feedsim

/// The command line's contract: exit codes (0 ok, 1 bad value, 2 violations, 64 bad usage) and
/// that a failed command leaves the database as it was.
@Suite struct CommandLineTests {
    /// A fresh temporary directory per test.
    let directory: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("feedsim-cli-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    func run(_ arguments: String...) -> Int32 {
        runMain(["feedsim"] + arguments, commands: commands)
    }

    @Test func helpExitsZeroForEveryCommandAndGroup() {
        #expect(run("--help") == 0)
        #expect(run("bench", "--help") == 0)
        #expect(run("trace", "--help") == 0)
        #expect(run("bench") == 64)
        for command in commands {
            let words = command.name.split(separator: " ").map(String.init)
            #expect(runMain(["feedsim"] + words + ["--help"], commands: commands) == 0, "\(command.name) --help")
        }
    }

    @Test(arguments: [
        ["nonsense"],
        ["seed", "--db"],
        ["seed", "--bogus", "1"],
        ["page", "--db", "x.sqlite", "--limit"],
        ["replay", "--trace", "t.jsonl"],
    ])
    func badUsageExits64(arguments: [String]) {
        #expect(runMain(["feedsim"] + arguments, commands: commands) == 64)
    }

    @Test func badValuesExit1AndWriteNothing() throws {
        let db = path("feed.sqlite")
        // A number outside its option's range is a usage error (64) since issue 11: checked by the
        // option table before any work.
        #expect(run("seed", "--db", db, "--preset", "photos", "--count", "0") == 64)
        #expect(run("seed", "--db", db, "--preset", "photos", "--count", "-5") == 64)
        #expect(run("seed", "--db", db, "--preset", "no-such-preset", "--count", "10") == 1)
        #expect(run("seed", "--db", db, "--preset", "photos", "--count", "25") == 0)
        #expect(run("page", "--db", db, "--after", "not-a-cursor") == 1)
        #expect(run("page", "--db", db, "--limit", "0") == 64)
        #expect(run("page", "--db", db, "--feed", "no-such-feed") == 1)
        #expect(run("layout", "--kind", "nope", "--count", "3", "--viewport", "100x100") == 1)
        #expect(run("trace", "synth", "--model", "nope", "--duration", "5", "--seed", "1") == 1)
        #expect(run("import", "--db", db, "--feed", "x", path("missing.jsonl")) == 1)
        // A bad row in an import: nothing of the file is written.
        let bad = path("bad.jsonl")
        try """
        {"published_at": 1000, "kind": "photo", "width": 100, "height": 100}
        {"published_at": 2000, "kind": "photo", "width": "wide", "height": 100}
        """.write(toFile: bad, atomically: true, encoding: .utf8)
        #expect(run("import", "--db", db, "--feed", "home", "--format", "jsonl", bad) == 1)
        let store = try ItemStore(path: db)
        #expect(try store.stats().feeds.map(\.items).reduce(0, +) == 25)
    }

    @Test func replayOfAShippedTraceAgainstASeededFeedExitsZero() throws {
        let db = path("feed.sqlite")
        #expect(run("seed", "--db", db, "--preset", "mixed", "--count", "500") == 0)
        let trace = RealData.packageFile("Seeds/traces/flutter-velocity-tracker-drags.jsonl").path
        let report = path("report.json")
        #expect(run("replay", "--db", db, "--trace", trace, "--kind", "list", "--report", report, "--latency", "fixed:80") == 0)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as! [String: Any]
        #expect(json["version"] as? Int == 1)
        #expect((json["violations"] as? [Any])?.isEmpty == true)
        // Bad values: unknown trace format, missing database, malformed latency.
        #expect(run("replay", "--db", db, "--trace", trace, "--trace-format", "pdf") == 1)
        #expect(run("replay", "--db", path("none.sqlite"), "--trace", trace) == 1)
        #expect(run("replay", "--db", db, "--trace", trace, "--latency", "fixed:-3") == 1)
        #expect(!FileManager.default.fileExists(atPath: path("none.sqlite")))
    }

    @Test func extremeNumbersAreRefusedOrPrintedNeverATrap() throws {
        #expect(run("layout", "--kind", "grid", "--count", "5", "--viewport", "320x640", "--offset", "1e19,0") == 0)
        let sizes = path("big.csv")
        try "1e308,1e308\n1e308,1e308\n".write(toFile: sizes, atomically: true, encoding: .utf8)
        #expect(run("layout", "--kind", "list", "--sizes", sizes, "--viewport", "320x640") == 1)
        let db = path("feed.sqlite")
        #expect(run("seed", "--db", db, "--preset", "photos", "--count", "50") == 0)
        let header = #"{"refresh_rate":60,"screen_scale":1,"source":"t","type":"header","version":1,"viewport":{"height":600,"width":300}}"#
        let huge = path("huge.jsonl")
        try (header + "\n" + #"{"count":1000000000,"t":10,"type":"insert"}"# + "\n").write(toFile: huge, atomically: true, encoding: .utf8)
        #expect(run("replay", "--db", db, "--trace", huge) == 1)
        let slow = path("slow.jsonl")
        try header.replacingOccurrences(of: "\"refresh_rate\":60", with: "\"refresh_rate\":1e-9")
            .appending("\n").write(toFile: slow, atomically: true, encoding: .utf8)
        #expect(run("replay", "--db", db, "--trace", slow) == 1)
        let endOnly = path("end.jsonl")
        try (header + "\n" + #"{"t":0,"type":"end"}"# + "\n").write(toFile: endOnly, atomically: true, encoding: .utf8)
        #expect(run("replay", "--db", db, "--trace", endOnly, "--prefetch", "items:1e300") == 1)
        #expect(run("replay", "--db", db, "--trace", endOnly, "--costs", "base=1e308") == 1)
        // A trace with only `end` still runs until the first screen's rows arrive.
        let report = path("end-report.json")
        #expect(run("replay", "--db", db, "--trace", endOnly, "--latency", "fixed:100", "--report", report) == 0)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as! [String: Any]
        // Init lands at 100 ms, its rows are requested then and arrive at 200 ms.
        #expect(json["time_to_first_content_ms"] as? Double == 200)
    }
}
