import FeedSimTestSupport
import FeedStore
import Foundation
import Testing

@testable import feedsim

/// `replay --html/--perfetto`, `compare` and `sweep` at the command line: files written, exit codes,
/// bad input refused before anything runs.
@Suite struct ReportCommandTests {
    let directory = TemporaryDirectory.make("feedsim-report")

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    func run(_ arguments: [String]) -> Int32 { runMain(["feedsim"] + arguments, commands: commands) }

    /// The browser check's tiny feed (100 items of 100 × 100 pt) in a fresh database.
    func tinyDatabase() throws -> (db: String, trace: String) {
        let db = path("tiny.sqlite")
        #expect(
            run(["import", "--db", db, "--feed", "home", RealData.packageFile("Tests/browser/tiny-items.jsonl").path])
                == 0)
        return (db, RealData.packageFile("Tests/browser/tiny-trace.jsonl").path)
    }

    func tinyReplay(_ db: String, _ trace: String) -> [String] {
        [
            "replay", "--db", db, "--trace", trace, "--kind", "grid", "--columns", "3", "--latency", "fixed:200",
            "--initial-pages", "1",
        ]
    }

    @Test func replayWritesTheSameHTMLAndPerfettoBytesTwice() throws {
        let (db, trace) = try tinyDatabase()
        #expect(
            run(tinyReplay(db, trace) + ["--page-size", "30", "--html", path("a.html"), "--perfetto", path("a.json")])
                == 0)
        #expect(
            run(tinyReplay(db, trace) + ["--page-size", "30", "--html", path("b.html"), "--perfetto", path("b.json")])
                == 0)
        let a = try Data(contentsOf: URL(fileURLWithPath: path("a.html")))
        #expect(a == (try Data(contentsOf: URL(fileURLWithPath: path("b.html")))))
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: path("a.json")))
                == Data(contentsOf: URL(fileURLWithPath: path("b.json"))))
        #expect(String(decoding: a, as: UTF8.self).contains("data-series=\"offset\" data-points=\"91\""))
    }

    @Test func compareReadsTwoReportsAndRefusesAMissingOne() throws {
        let (db, trace) = try tinyDatabase()
        #expect(run(tinyReplay(db, trace) + ["--page-size", "30", "--report", path("a.json")]) == 0)
        #expect(run(tinyReplay(db, trace) + ["--page-size", "60", "--report", path("b.json")]) == 0)
        #expect(run(["compare", path("a.json"), path("b.json"), "--html", path("c.html"), "--json"]) == 0)
        #expect(FileManager.default.fileExists(atPath: path("c.html")))
        #expect(run(["compare", path("a.json")]) == 64)
        #expect(run(["compare", path("a.json"), path("missing.json")]) == 1)
        try Data("not json".utf8).write(to: URL(fileURLWithPath: path("bad.json")))
        #expect(run(["compare", path("a.json"), path("bad.json")]) == 1)
    }

    @Test(arguments: [
        ["--vary", "bogus=1,2"],
        ["--vary", "page-size=20,abc"],
        ["--vary", "ranges=uikit,nonsense"],
        ["--vary", "latency=fixed:100|wobbly:3"],
        ["--vary", "page-size"],
        ["--vary", "fade=maybe"],
        ["--vary", "page-size=20", "--cost", "money"],
        ["--vary", "db=a,b"],
    ])
    func sweepRefusesBadVariesBeforeAnythingRuns(extra: [String]) throws {
        let (db, trace) = try tinyDatabase()
        // No --csv file appears: nothing ran.
        #expect(run(["sweep", "--db", db, "--trace", trace, "--csv", path("s.csv")] + extra) == 64)
        #expect(!FileManager.default.fileExists(atPath: path("s.csv")))
    }

    @Test func sweepOutputDoesNotDependOnJobs() throws {
        let (db, trace) = try tinyDatabase()
        let common = [
            "sweep", "--db", db, "--trace", trace, "--kind", "grid", "--columns", "3", "--initial-pages", "1",
            "--vary", "page-size=20,30", "--vary", "latency=fixed:100|fixed:200", "--vary", "ranges=uikit,texture",
        ]
        #expect(run(common + ["--jobs", "1", "--csv", path("1.csv"), "--html", path("1.html")]) == 0)
        #expect(run(common + ["--jobs", "3", "--csv", path("3.csv"), "--html", path("3.html")]) == 0)
        let one = try String(contentsOfFile: path("1.csv"), encoding: .utf8)
        #expect(one == (try String(contentsOfFile: path("3.csv"), encoding: .utf8)))
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: path("1.html")))
                == Data(contentsOf: URL(fileURLWithPath: path("3.html"))))
        // A header and 2 × 2 × 2 rows, first axis slowest.
        let lines = one.split(separator: "\n")
        #expect(lines.count == 9)
        #expect(lines[1].hasPrefix("\(trace),20,fixed:100,uikit,"))
        #expect(lines[8].hasPrefix("\(trace),30,fixed:200,texture,"))
    }
}
