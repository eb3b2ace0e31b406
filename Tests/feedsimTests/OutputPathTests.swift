import Foundation
import Testing
import FeedSimTestSupport

@testable import feedsim

/// An output option never names one of the command's own inputs or another output: the command
/// stops with a usage error (64) before any work, and the input is left byte for byte as it was.
@Suite struct OutputPathTests {
    let directory = TemporaryDirectory.make("feedsim-outpaths")

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    func run(_ arguments: [String]) -> Int32 { runMain(["feedsim"] + arguments, commands: commands) }

    func bytes(_ name: String) -> Data? { FileManager.default.contents(atPath: path(name)) }

    /// A 50-item database and a 2-second flinger trace.
    func makeInputs() {
        #expect(run(["seed", "--db", path("feed.sqlite"), "--count", "50"]) == 0)
        #expect(run(["trace", "synth", "--model", "flinger", "--duration", "2", "--seed", "1", "-o", path("t.jsonl")]) == 0)
    }

    @Test func replayOutputsOntoTheDatabaseOrTheTraceExit64AndLeaveThemAsTheyWere() throws {
        makeInputs()
        let database = try #require(bytes("feed.sqlite"))
        let trace = try #require(bytes("t.jsonl"))
        let replay = ["replay", "--db", path("feed.sqlite"), "--trace", path("t.jsonl")]
        #expect(run(replay + ["--timeline", path("feed.sqlite")]) == 64)
        #expect(run(replay + ["--report", path("t.jsonl")]) == 64)
        // The same file by another spelling.
        try FileManager.default.createDirectory(atPath: path("sub"), withIntermediateDirectories: false)
        #expect(run(replay + ["--html", directory.path + "/./feed.sqlite"]) == 64)
        #expect(run(replay + ["--perfetto", directory.path + "/sub/../t.jsonl"]) == 64)
        #expect(bytes("feed.sqlite") == database)
        #expect(bytes("t.jsonl") == trace)
        #expect(run(["stats", "--db", path("feed.sqlite")]) == 0)
    }

    @Test func aHardOrSymbolicLinkToTheDatabaseIsTheDatabase() throws {
        makeInputs()
        let database = try #require(bytes("feed.sqlite"))
        try FileManager.default.linkItem(atPath: path("feed.sqlite"), toPath: path("hard.json"))
        try FileManager.default.createSymbolicLink(atPath: path("soft.json"), withDestinationPath: path("feed.sqlite"))
        let load = ["load", "--db", path("feed.sqlite"), "--duration", "1", "--time-scale", "max", "--iterations", "1"]
        #expect(run(load + ["--report", path("hard.json")]) == 64)
        #expect(run(load + ["--report", path("soft.json")]) == 64)
        #expect(bytes("feed.sqlite") == database)
    }

    /// `--report f.sqlite-wal` replaced the database's write-ahead log with JSON (a replay then
    /// reading the database failed with a disk I/O error); the log need not exist yet.
    @Test func theDatabasesWriteAheadLogAndJournalAreTheDatabase() throws {
        makeInputs()
        let database = try #require(bytes("feed.sqlite"))
        let replay = ["replay", "--db", path("feed.sqlite"), "--trace", path("t.jsonl")]
        for suffix in ["-wal", "-shm", "-journal"] {
            #expect(run(replay + ["--report", path("feed.sqlite" + suffix)]) == 64)
            #expect(!FileManager.default.fileExists(atPath: path("feed.sqlite" + suffix)))
        }
        #expect(bytes("feed.sqlite") == database)
        // Another file's name with the same ending is an ordinary output.
        #expect(run(replay + ["--report", path("t.jsonl-wal")]) == 0)
    }

    @Test func twoOutputsNamingOneFileExit64AndWriteNothing() {
        makeInputs()
        let replay = ["replay", "--db", path("feed.sqlite"), "--trace", path("t.jsonl")]
        #expect(run(replay + ["--report", path("same.json"), "--timeline", path("same.json")]) == 64)
        #expect(!FileManager.default.fileExists(atPath: path("same.json")))
    }

    @Test func compareAndMergeRefuseToWriteOverAReportTheyRead() throws {
        makeInputs()
        #expect(run(["replay", "--db", path("feed.sqlite"), "--trace", path("t.jsonl"), "--report", path("a.json")]) == 0)
        let report = try #require(bytes("a.json"))
        try report.write(to: URL(fileURLWithPath: path("b.json")))
        #expect(run(["compare", path("a.json"), path("b.json"), "--html", path("b.json")]) == 64)
        #expect(run(["report", "merge", path("a.json"), path("a.json"), path("b.json")]) == 64)
        #expect(bytes("a.json") == report)
        #expect(bytes("b.json") == report)
        // Distinct files: compare writes its page.
        #expect(run(["compare", path("a.json"), path("b.json"), "--html", path("c.html")]) == 0)
        #expect(FileManager.default.fileExists(atPath: path("c.html")))
    }

    @Test func theErrorNamesTheOutputOptionThePathAndTheInput() {
        #expect(throws: UsageError.self) {
            try OutputPaths.check(
                outputs: [.init(label: "option '--report'", path: "/dev/null")],
                inputs: [.init(label: "option '--db'", path: "/dev/null")])
        }
        do {
            try OutputPaths.check(
                outputs: [.init(label: "option '--report'", path: "/dev/null")],
                inputs: [.init(label: "option '--db'", path: "/dev/null")])
        } catch let error as UsageError {
            #expect(error.message == "option '--report': '/dev/null' is the input of option '--db'; writing it would destroy that input")
        } catch {
            Issue.record("unexpected \(error)")
        }
        // A path that does not exist is no input to lose; two outputs compare by path.
        #expect(throws: Never.self) {
            try OutputPaths.check(
                outputs: [.init(label: "option '--report'", path: path("new.json"))],
                inputs: [.init(label: "option '--trace'", path: path("new.json"))])
        }
        #expect(throws: UsageError.self) {
            try OutputPaths.check(
                outputs: [
                    .init(label: "option '--report'", path: path("new.json")),
                    .init(label: "option '--timeline'", path: directory.path + "/./new.json"),
                ],
                inputs: [])
        }
    }
}
