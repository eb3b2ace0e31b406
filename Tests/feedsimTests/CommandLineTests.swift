import FeedSimTestSupport
import FeedModel
import FeedStore
import Foundation
import Testing

@testable import feedsim

/// The command line's contract: exit codes (0 ok, 1 bad value, 2 violations, 64 bad usage) and
/// that a failed command leaves the database as it was.
@Suite struct CommandLineTests {
    /// A fresh temporary directory per test.
    let directory = TemporaryDirectory.make("feedsim-cli")

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

    /// Issue 12: an option the layout does not read is a usage error naming option and layout,
    /// on every command that parses layout options.
    @Test(arguments: [
        ["layout", "--kind", "strip", "--spacing", "4", "--count", "3", "--viewport", "100x100"],
        ["layout", "--kind", "grid", "--direction", "horizontal", "--count", "3", "--viewport", "100x100"],
        ["layout", "--kind", "carousel", "--item-size", "50x50", "--footer-height", "10", "--count", "3", "--viewport", "100x100"],
        ["layout", "--kind", "mosaic", "--columns", "2", "--count", "3", "--viewport", "100x100"],
        ["layout", "--kind", "list", "--line-spacing", "2", "--count", "3", "--viewport", "100x100"],
        ["layout", "--kind", "flow", "--big-height", "90", "--count", "3", "--viewport", "100x100"],
        ["replay", "--db", "x.sqlite", "--trace", "t.jsonl", "--kind", "strip", "--spacing", "4"],
        ["replay", "--db", "x.sqlite", "--trace", "t.jsonl", "--zoom", "0.2"],
        ["load", "--db", "x.sqlite", "--kind", "waterfall", "--fade"],
    ])
    func layoutOptionsTheLayoutDoesNotUseExit64(arguments: [String]) {
        #expect(runMain(["feedsim"] + arguments, commands: commands) == 64)
    }

    @Test func unusedLayoutOptionIsNamedWithTheLayout() throws {
        var arguments = try ParsedArguments(["--kind", "strip", "--spacing", "4"], specs: LayoutOptions.specs)
        #expect(throws: UsageError.self) { try LayoutOptions.configuration(from: arguments) }
        do {
            _ = try LayoutOptions.configuration(from: arguments)
        } catch let error as UsageError {
            #expect(error.message == "--spacing is not used by the strip layout (strip uses no layout options)")
        }
        arguments = try ParsedArguments(["--kind", "grid", "--footer-height", "44", "--refresh-height", "50"], specs: LayoutOptions.specs)
        let grid = try LayoutOptions.configuration(from: arguments)
        #expect(grid.footerHeight == 44 && grid.refreshHeight == 50)
    }

    /// `--pull-threshold`: 50 pt by default (UIKit), 64 with `--scroll android`
    /// (SwipeRefreshLayout's DEFAULT_CIRCLE_TARGET = 64 dp), or as given; a non-positive value fails.
    @Test func pullThresholdDefaultsPerPlatformAndCanBeSet() throws {
        func threshold(_ tokens: [String]) throws -> Double {
            try ReplayOptionsParsing.options(from: ParsedArguments(tokens, specs: ReplayOptionsParsing.specs)).controller.refreshThreshold
        }
        #expect(try threshold([]) == 50)
        #expect(try threshold(["--scroll", "android"]) == 64)
        #expect(try threshold(["--scroll", "android", "--pull-threshold", "80"]) == 80)
        // Out of its option's range: bad usage (exit 64) since issue 11, refused as the parser binds it.
        #expect(throws: UsageError.self) { try threshold(["--pull-threshold", "-1"]) }
    }

    /// Run as a child process: its stdout is its own, so tests printing in parallel (Swift
    /// Testing runs them on many threads of this process) cannot mix into the JSON.
    @Test(.enabled(if: FeedsimProcess.binary != nil, "feedsim binary not found next to the test runner; run `swift build`"))
    func layoutJSONListsSupplementaryViewsWithUIKitsKinds() throws {
        let outcome = try FeedsimProcess(directory: directory).run([
            "layout", "--kind", "grid", "--count", "7", "--viewport", "320x600", "--spacing", "10", "--header-height", "40",
            "--footer-height", "44", "--refresh-height", "50", "--rect", "0,-50,320,500", "--json",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let data = Data(outcome.stdout.utf8)
        let json = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        let elements = json["elements"] as! [[String: Any]]
        // Hand-computed in SupplementaryViewTests: refresh at y −50, header at 0, 7 cells, footer at 360.
        #expect(elements.count == 10)
        #expect(elements.first?["category"] as? String == "supplementary")
        #expect(elements.first?["element_kind"] as? String == "FeedSimElementKindRefresh")
        #expect(elements[1]["element_kind"] as? String == "UICollectionElementKindSectionHeader")
        #expect(elements.last?["element_kind"] as? String == "UICollectionElementKindSectionFooter")
        #expect((elements.last?["frame"] as? [String: Any])?["y"] as? Double == 360)
        #expect(elements[2]["category"] as? String == "cell" && elements[2]["element_kind"] == nil)
    }

    @Test func seedWithoutAPresetSeedsTheMixedPreset() throws {
        let implicit = path("implicit.sqlite")
        let explicit = path("explicit.sqlite")
        #expect(run("seed", "--db", implicit, "--count", "40") == 0)
        #expect(run("seed", "--db", explicit, "--preset", "mixed", "--count", "40") == 0)
        func items(_ db: String) throws -> [Item] {
            let store = try ItemStore(path: db)
            return try store.newest(feed: try store.requireFeed(named: "home"), limit: 100).items
        }
        let seeded = try items(implicit)
        #expect(seeded.count == 40)
        #expect(seeded == (try items(explicit)))
    }

    @Test func badValuesExit1AndWriteNothing() throws {
        let db = path("feed.sqlite")
        // A number outside its option's range is a usage error (64) since issue 11: checked by the
        // option table before any work.
        #expect(run("seed", "--db", db, "--preset", "photos", "--count", "0") == 64)
        #expect(run("seed", "--db", db, "--preset", "photos", "--count", "-5") == 64)
        // A value the option cannot take (an unknown preset, layout or model) is a usage error too (64).
        #expect(run("seed", "--db", db, "--preset", "no-such-preset", "--count", "10") == 64)
        #expect(run("seed", "--db", db, "--preset", "photos", "--count", "25") == 0)
        #expect(run("page", "--db", db, "--after", "not-a-cursor") == 1)
        #expect(run("page", "--db", db, "--limit", "0") == 64)
        #expect(run("page", "--db", db, "--feed", "no-such-feed") == 1)
        #expect(run("layout", "--kind", "nope", "--count", "3", "--viewport", "100x100") == 64)
        #expect(run("trace", "synth", "--model", "nope", "--duration", "5", "--seed", "1") == 64)
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
        // Seeding the same feed again is refused unless --append or --replace.
        #expect(run("seed", "--db", db, "--preset", "photos", "--count", "5") == 1)
        #expect(run("seed", "--db", db, "--preset", "photos", "--count", "5", "--append", "--replace") == 64)
        #expect(try store.stats().feeds.map(\.items).reduce(0, +) == 25)
        #expect(run("seed", "--db", db, "--preset", "photos", "--count", "5", "--append") == 0)
        #expect(try store.stats().feeds.map(\.items).reduce(0, +) == 30)
        #expect(run("seed", "--db", db, "--preset", "photos", "--count", "7", "--replace") == 0)
        #expect(try store.stats().feeds.map(\.items).reduce(0, +) == 7)
    }

    @Test func replayTakesTheImporterOptionsAndHeaderOverrides() throws {
        let db = path("feed.sqlite")
        #expect(run("seed", "--db", db, "--preset", "mixed", "--count", "300") == 0)
        let csv = path("drag.csv")
        // A touch at 0 (before the feed loads), then at 1000 ms a 1050 px drag up.
        try """
        t_ms,action,gesture_index,x,y
        0,DOWN,0,525,700
        10,UP,0,525,700
        1000,DOWN,1,525,1312.5
        1016,MOVE,1,525,962.5
        1032,MOVE,1,525,612.5
        1048,MOVE,1,525,262.5
        1400,MOVE,1,525,262.5
        1416,UP,1,525,262.5

        """.write(toFile: csv, atomically: true, encoding: .utf8)
        func report(_ extra: [String]) throws -> [String: Any] {
            let out = path("r-\(UUID().uuidString).json")
            let arguments = ["feedsim", "replay", "--db", db, "--trace", csv, "--trace-format", "touch-csv", "--report", out]
            #expect(runMain(arguments + extra, commands: commands) == 0)
            return try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out))) as! [String: Any]
        }
        let guessed = try report([])
        let guessedOptions = guessed["options"] as! [String: String]
        #expect(guessedOptions["trace_import"]?.hasPrefix("touch-csv: no --px-per-pt") == true)
        let given = try report(["--px-per-pt", "2.625", "--viewport", "390x844", "--refresh-rate", "120"])
        let options = given["options"] as! [String: String]
        #expect(options["trace_import"] == "as recorded")
        #expect(options["viewport"] == "390x844")
        #expect(options["refresh_rate"] == "120")
        #expect(given["refresh_rate_hz"] as? Double == 120)
        // The finger rests before it lifts (no fling): 1050 px of travel is 1050 pt read as points,
        // 400 pt at 2.625 px/pt (less any touch slop).
        let divided = try report(["--px-per-pt", "2.625"])
        let guessedDistance = guessed["distance_pt"] as! Double
        let dividedDistance = divided["distance_pt"] as! Double
        #expect(guessedDistance > 1000 && guessedDistance <= 1050)
        #expect(dividedDistance > 350 && dividedDistance <= 400)
        // The same options are accepted by load (and rejected when malformed, naming the option).
        #expect(run("replay", "--db", db, "--trace", csv, "--trace-format", "touch-csv", "--px-per-pt", "0") == 64)
        #expect(run("load", "--help") == 0)
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
        // Bad values: unknown trace format and malformed latency (values the options cannot take: 64),
        // missing database (1).
        #expect(run("replay", "--db", db, "--trace", trace, "--trace-format", "pdf") == 64)
        #expect(run("replay", "--db", path("none.sqlite"), "--trace", trace) == 1)
        #expect(run("replay", "--db", db, "--trace", trace, "--latency", "fixed:-3") == 64)
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
        // Values --prefetch and --costs cannot take: usage errors (64).
        #expect(run("replay", "--db", db, "--trace", endOnly, "--prefetch", "items:1e300") == 64)
        #expect(run("replay", "--db", db, "--trace", endOnly, "--costs", "base=1e308") == 64)
        // A trace with only `end` still runs until the first screen's rows arrive.
        let report = path("end-report.json")
        #expect(run("replay", "--db", db, "--trace", endOnly, "--latency", "fixed:100", "--report", report) == 0)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as! [String: Any]
        // Init lands at 100 ms, its rows are requested then and arrive at 200 ms.
        #expect(json["time_to_first_content_ms"] as? Double == 200)
    }
}
