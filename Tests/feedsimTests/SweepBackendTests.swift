import FeedSimTestSupport
import Foundation
import Testing

@testable import feedsim

/// `feedsim sweep --db postgresql://…`: the same sweep over a PostgreSQL database and over a SQLite
/// file seeded identically gives the same rows, frontier and page, byte for byte (the backend is
/// not part of the output). Needs `FEEDSIM_TEST_POSTGRES` (skips with a message without it).
@Suite(
    .enabled(
        if: testPostgresServer != nil,
        "FEEDSIM_TEST_POSTGRES not set: start a server with `eval \"$(.ci/postgres start)\"` (as .ci/run does)"))
struct SweepBackendTests {
    let directory = TemporaryDirectory.make("feedsim-sweep-pg")

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    func run(_ arguments: [String]) -> Int32 { runMain(["feedsim"] + arguments, commands: commands) }

    @Test func aSweepGivesTheSameRowsAsTheSameSweepOverSQLiteOnPostgreSQL() throws {
        let (schema, uri) = try PostgresCommandLineTests.freshSchema()
        defer { PostgresCommandLineTests.drop(schema) }
        let file = path("feed.sqlite")
        for db in [file, uri] {
            #expect(run(["seed", "--db", db, "--preset", "mixed", "--count", "700", "--seed", "5"]) == 0)
        }
        let traces = ["flutter-velocity-tracker-drags.jsonl", "chrome-wheel.jsonl"].flatMap {
            ["--trace", RealData.packageFile("Seeds/traces/\($0)").path]
        }
        let sweep =
            ["sweep"] + traces + [
                "--kind", "grid", "--columns", "3", "--latency", "lognormal:120,0.5", "--vary", "page-size=20,50",
                "--vary", "prefetch=items:5,items:20", "--vary", "ranges=uikit,texture",
            ]
        // Each job opens a connection of its own: two at once on PostgreSQL, one after another on SQLite.
        #expect(run(sweep + ["--db", file, "--jobs", "1", "--csv", path("sqlite.csv"), "--html", path("sqlite.html")]) == 0)
        #expect(run(sweep + ["--db", uri, "--jobs", "2", "--csv", path("pg.csv"), "--html", path("pg.html")]) == 0)
        let onSQLite = try String(contentsOfFile: path("sqlite.csv"), encoding: .utf8)
        let onPostgres = try String(contentsOfFile: path("pg.csv"), encoding: .utf8)
        #expect(onPostgres == onSQLite)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path("pg.html"))) == Data(contentsOf: URL(fileURLWithPath: path("sqlite.html"))))
        // A header and 8 combinations × 2 traces, each replay having fetched pages and rows.
        let rows = onSQLite.split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(rows.count == 16)
        let requests = try #require(onSQLite.split(separator: "\n").first?.split(separator: ",").firstIndex(of: "requests"))
        #expect(rows.allSatisfy { (Int($0[requests]) ?? 0) >= 1 }, "\(onSQLite)")
        #expect(Set(rows.map { $0[requests] }).count > 1, "page size and trigger distance change the requests")
    }

    @Test func aSweepNamingAnUnknownFeedFailsBeforeAnyReplayOnPostgreSQL() throws {
        let (schema, uri) = try PostgresCommandLineTests.freshSchema()
        defer { PostgresCommandLineTests.drop(schema) }
        #expect(run(["seed", "--db", uri, "--preset", "photos", "--count", "50"]) == 0)
        let trace = RealData.packageFile("Seeds/traces/chrome-wheel.jsonl").path
        #expect(
            run([
                "sweep", "--db", uri, "--trace", trace, "--feed", "nope", "--vary", "page-size=20,50", "--csv",
                path("s.csv"),
            ]) == 1)
        #expect(!FileManager.default.fileExists(atPath: path("s.csv")))
    }
}
