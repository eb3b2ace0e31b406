import Foundation
import Testing
import FeedSimTestSupport

/// `feedsim load --iterations / --segment` and `feedsim report merge` as a user runs them: in
/// processes of their own, reports through files.
@Suite struct LoadSegmentProcessTests {
    let directory = TemporaryDirectory.make("feedsim-segments")

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    static func json(_ path: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: try Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    @Test func segmentsOfAnIterationsRunMergeIntoTheFullRunsCountsAndOtherRunsAreRefused() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let process = FeedsimProcess(directory: directory)
        let db = path("feed.sqlite")
        #expect(try process.run(["seed", "--db", db, "--preset", "mixed", "--count", "1500"]).status == 0)
        // Pagination sessions: their pages do not depend on how long a query took, so the merged
        // counts must equal the full run's exactly (LoadConsistencyContractTests checks replay
        // sessions on a virtual clock, where that holds for them too).
        let load = [
            "load", "--db", db, "--iterations", "6", "--time-scale", "max", "--sessions", "3", "--session", "pagination",
            "--page-budget", "5",
        ]
        let full = try process.run(load + ["--report", path("full.json")])
        #expect(full.status == 0, "\(full.stderr)")
        for index in 1...2 {
            let part = try process.run(load + ["--segment", "\(index)/2", "--report", path("s\(index).json")])
            #expect(part.status == 0, "\(part.stderr)")
        }
        let merge = try process.run(["report", "merge", path("merged.json"), path("s1.json"), path("s2.json")])
        #expect(merge.status == 0, "\(merge.stderr)")
        #expect(merge.stdout.contains("sessions: 6 started, 6 completed"))
        let merged = try Self.json(path("merged.json"))
        let whole = try Self.json(path("full.json"))
        for key in ["pages", "items", "rows"] {
            #expect(merged[key] as? Int == whole[key] as? Int, "\(key)")
        }
        // 6 sessions of 5 pages over 1 500 items: Init loads 3 pages' worth (60 items, as Paging 3's
        // initialLoadSize = 3 × pageSize), then 4 More pages of 20; a row per item.
        #expect(whole["pages"] as? Int == 30 && whole["items"] as? Int == 6 * (60 + 4 * 20) && whole["rows"] as? Int == 840)
        #expect((merged["sessions"] as? [String: Int])?["completed"] == 6)
        #expect((merged["settings"] as? [String: Any])?["segment"] == nil)

        // 2 iterations cut into 3: sessions 0 and 1 go to segments 1 and 2, none to segment 3 (k mod 3
        // = 2 never holds). Its run asks nothing of the database and is no failure: exit 0, a note.
        let empty = try process.run([
            "load", "--db", db, "--iterations", "2", "--time-scale", "max", "--sessions", "3", "--session", "pagination",
            "--segment", "3/3",
        ])
        #expect(empty.status == 0)
        #expect(
            empty.stderrLines == [
                "feedsim load: no session started: segment 3/3's share of the sessions is empty; nothing was asked of \(db)"
            ], "\(empty.stderr)")

        // Another run's segment (another seed): one line naming the setting, exit 1, no file.
        let other = try process.run(load + ["--segment", "2/2", "--seed", "9", "--report", path("other.json")])
        #expect(other.status == 0)
        let refused = try process.run(["report", "merge", path("bad.json"), path("s1.json"), path("other.json")])
        #expect(refused.status == 1)
        #expect(refused.stderrLines == [
            "feedsim report merge: \(path("other.json")): not the same run as \(path("s1.json")): seed (1 vs 9) differs; "
                + "refusing to merge"
        ])
        #expect(!FileManager.default.fileExists(atPath: path("bad.json")))
        let missing = try process.run(["report", "merge", path("bad.json"), path("nope.json")])
        #expect(missing.status == 1 && missing.stderrLines == ["feedsim report merge: \(path("nope.json")): no such file"])

        let badSegment = try process.run(load + ["--segment", "3/2"])
        #expect(badSegment.status == 64)
        #expect(badSegment.stderrLines.first == "feedsim load: --segment: expected I/N with 1 <= I <= N <= 10000, got '3/2'")
    }

    @Test func segmentsOfARampRunTheirShareAndMergeStageByStage() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let process = FeedsimProcess(directory: directory)
        let db = path("feed.sqlite")
        #expect(try process.run(["seed", "--db", db, "--preset", "mixed", "--count", "500"]).status == 0)
        // A closed ramp to 4 sessions and an open one to 40 arrivals/s, each cut in 2 (k6's
        // execution segments take ramping executors too); 0.5 s stages keep the test short.
        for (ramp, perSecond) in [(["--stages", "0.5s:4,0.5s:4"], false), (["--arrival-rate", "0.5s:40,0.5s:40"], true)] {
            let load = ["load", "--db", db, "--session", "pagination", "--page-budget", "2", "--time-scale", "max"] + ramp
            for index in 1...2 {
                let part = try process.run(load + ["--segment", "\(index)/2", "--report", path("s\(index).json")])
                #expect(part.status == 0, "\(part.stderr)")
                #expect(part.stdout.hasPrefix("load: \(db) feed home, segment \(index)/2 of \(perSecond ? "open" : "closed"), stages "))
            }
            let merge = try process.run(["report", "merge", path("merged.json"), path("s1.json"), path("s2.json")])
            #expect(merge.status == 0, "\(merge.stderr)")
            let merged = try Self.json(path("merged.json"))
            let parts = try [Self.json(path("s1.json")), Self.json(path("s2.json"))]
            func stages(_ report: [String: Any]) -> [[String: Any]] { report["stages"] as? [[String: Any]] ?? [] }
            let names = perSecond ? ["1: 0→40/s", "2: 40→40/s"] : ["1: 0→4", "2: 4→4"]
            #expect(stages(merged).compactMap { $0["name"] as? String } == names)
            for (k, stage) in stages(merged).enumerated() {
                // Each stage's counts are the segments' summed, and carry the histograms to merge again.
                for key in ["sessions_started", "pages", "dropped_iterations"] {
                    let sum = parts.reduce(0) { $0 + (stages($1).indices.contains(k) ? stages($1)[k][key] as? Int ?? 0 : 0) }
                    #expect(stage[key] as? Int == sum, "\(names[k]) \(key)")
                }
                #expect((stage["histograms"] as? [String: Any])?["newest"] != nil)
            }
            let started = stages(merged).reduce(0) { $0 + ($1["sessions_started"] as? Int ?? 0) }
            // Stage boundaries are snapshots on the sampler's clock, a moment ahead of the scheduler's,
            // so a session started in the run's last instant may fall past the last stage's snapshot.
            #expect(started > 0 && started <= (merged["sessions"] as? [String: Int])?["started"] ?? 0)
            try FileManager.default.removeItem(atPath: path("merged.json"))
        }
    }
}

extension PostgresCommandLineTests {
    @Test func loadRunsSessionsAndWritersAndPutsTheFeedBackOnPostgreSQL() throws {
        let (schema, uri) = try Self.freshSchema()
        defer { Self.drop(schema) }
        #expect(try feedsim(["seed", "--db", uri, "--preset", "mixed", "--count", "2000"]).status == 0)
        let run = try feedsim([
            "load", "--db", uri, "--duration", "1.5", "--sessions", "3", "--time-scale", "10", "--trace-duration", "6",
            "--writers", "2", "--write-rate", "100", "--write-mix", "insert=2,update=1,delete=1", "--json",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let consistency = try #require(report["consistency"] as? [String: Any])
        #expect(consistency["duplicates"] as? Int == 0 && consistency["skips"] as? Int == 0)
        #expect((report["inserted"] as? Int ?? 0) > 10 && (report["pages"] as? Int ?? 0) > 3)
        let settings = try #require(report["settings"] as? [String: Any])
        let name = try #require(settings["db"] as? String)
        #expect(!name.contains("://") && name.contains("/"), "host:port/dbname, never the URI: \(name)")
        // The writers removed their rows and put back what they changed: 2 000 items again.
        let stats = try feedsim(["stats", "--db", uri, "--json"])
        #expect(stats.stdout.contains("\"items\" : 2000"))

        let counted = try feedsim(["load", "--db", uri, "--iterations", "4", "--time-scale", "max", "--trace-duration", "2", "--json"])
        #expect(counted.status == 0, "\(counted.stderr)")
        let sessions = (try JSONSerialization.jsonObject(with: Data(counted.stdout.utf8)) as? [String: Any])?["sessions"]
        #expect((sessions as? [String: Int])?["completed"] == 4)
        let unknownFeed = try feedsim(["load", "--db", uri, "--feed", "nope", "--duration", "1"])
        #expect(unknownFeed.status == 1 && unknownFeed.stderr.contains("nope"))
    }
}

extension PostgresCommandLineTests {
    @Test func benchLoadSetsSessionsBesideARawLoopAndPgbenchOnTheSameDataOnPostgreSQL() throws {
        let run = try feedsim([
            "bench", "load", "--db", try #require(Self.server), "--count", "3000", "--threads", "1", "--seconds", "0.5",
            "--rounds", "1", "--pages-per-session", "10", "--json",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        func side(_ key: String) -> [String: Any] { report[key] as? [String: Any] ?? [:] }
        #expect((side("sessions")["pages"] as? Int ?? 0) > 0 && (side("raw")["pages"] as? Int ?? 0) > 0)
        // Pages of 20 and rows in statements of 20: every page brings 20 rows on both sides.
        #expect(side("sessions")["rows"] as? Int == 20 * (side("sessions")["pages"] as? Int ?? -1))
        #expect(side("raw")["rows"] as? Int == 20 * (side("raw")["pages"] as? Int ?? -1))
        #expect(report["consistencyViolations"] as? Int == 0)
        // pgbench ran (Debian's postgresql ships it) and answered transactions.
        #expect((report["pgbenchTPS"] as? Double ?? 0) > 0 && (report["pgbenchPageStatementTPS"] as? Double ?? 0) > 0)
        #expect(report["clients"] as? Int == 1 && report["items"] as? Int == 3_000)
    }
}
