import Foundation
import Testing
import FeedSimTestSupport

/// `feedsim load --threshold`, `--abort-on-fail`, `--stages` and `--arrival-rate` ramps run as a
/// user would: a bad expression or ramp is one line and exit 64 before any work; a breach exits 99
/// (k6's code) with the threshold marked ✗ and its measured value; `--abort-on-fail` ends the run
/// at the first check that finds a breach.
@Suite(.enabled(if: FeedsimProcess.binary != nil, "feedsim binary not found next to the test runner; run `swift build`"))
struct LoadThresholdProcessTests {
    let directory = TemporaryDirectory.make("feedsim-thresholds")
    var feedsim: FeedsimProcess { FeedsimProcess(directory: directory) }

    /// A tiny seeded feed: 300 items, seed 1.
    private func seeded() throws -> String {
        let db = directory.appendingPathComponent("feed.sqlite").path
        let outcome = try feedsim.run(["seed", "--db", db, "--preset", "mixed", "--count", "300", "--seed", "1"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        return db
    }

    @Test(arguments: [
        (["--threshold", "latency.p99<50ms"], "--threshold 'latency.p99<50ms': unknown metric 'latency'"),
        (["--threshold", "after.p99<<50ms"], "--threshold 'after.p99<<50ms': '<50ms' is not a number"),
        (["--threshold", "after.p99"], "--threshold 'after.p99': no operator"),
        (["--threshold", "consistency.p99==0"], "--threshold 'consistency.p99==0': consistency has no aggregate 'p99'"),
        (["--threshold", "blank.p95<5ms"], "'ms' is a time unit; blank.p95 is a fraction"),
        (["--abort-on-fail"], "--abort-on-fail needs at least one --threshold"),
        (["--stages", "30:10"], "--stages stage 1 of '30:10': '30' is not a duration"),
        (["--stages", "1s:2", "--duration", "3"], "--stages: the stages set the run's length; drop --duration"),
        (["--stages", "1s:2", "--sessions", "3"], "--stages: the stages' targets are the sessions; drop --sessions"),
        (["--stages", "1s:2", "--arrival-rate", "5"], "--stages ramps sessions (closed model), --arrival-rate arrivals"),
        (["--arrival-rate", "1s:fast"], "--arrival-rate stage 1 of '1s:fast': 'fast' is not a rate"),
        (["--arrival-rate", "0"], "--arrival-rate: expected a number in 0.001...1000000 or a ramp"),
        (["--writers", "1", "--writer-preset", "nope"], "--writer-preset: unknown preset 'nope' (mixed, news, photos)"),
    ])
    func aBadThresholdOrRampIsOneLineAndExit64BeforeAnyWork(extra: [String], message: String) throws {
        let db = try seeded()
        let base = ["load", "--db", db, "--time-scale", "max"] + (extra.contains("--stages") ? [] : ["--sessions", "1"])
        let outcome = try feedsim.run(base + extra)
        #expect(outcome.status == 64, "\(outcome.stderr)")
        #expect(outcome.stderrLines.count == 1, "\(outcome.stderr)")
        #expect(outcome.stderr.hasPrefix("feedsim load: " + message) || outcome.stderr.contains(message), "\(outcome.stderr)")
        #expect(outcome.stdout.isEmpty, "no run started")
    }

    @Test func aMalformedLatencyModelIsOneLineAndExit64AsInReplay() throws {
        let db = try seeded()
        let outcome = try feedsim.run(["load", "--db", db, "--latency", "fixed:x"])
        #expect(outcome.status == 64)
        #expect(outcome.stderrLines == ["feedsim load: --latency 'fixed:x': fixed takes 1 non-negative number(s)"])
    }

    @Test func aBreachedThresholdExits99AndTheSummaryMarksIt() throws {
        let db = try seeded()
        // No SQLite query answers in under a microsecond (every page kind: the Init page comes first,
        // however busy the machine); the walks of a run without writers are clean.
        let arguments = [
            "load", "--db", db, "--sessions", "2", "--workers", "1", "--duration", "1", "--time-scale", "max",
            "--threshold", "pages.p99<1us", "--threshold", "consistency==0",
        ]
        let text = try feedsim.run(arguments)
        #expect(text.status == 99, "\(text.stderr)")
        #expect(text.stdout.contains("thresholds: 1 of 2 failed"), "\(text.stdout)")
        #expect(text.stdout.contains("  ✗ pages.p99<1us  pages.p99 = "), "\(text.stdout)")
        #expect(text.stdout.contains("  ✓ consistency==0  consistency.count = 0"), "\(text.stdout)")
        #expect(text.stderr.contains("thresholds failed: pages.p99<1us"), "\(text.stderr)")

        let json = try feedsim.run(arguments + ["--json"])
        #expect(json.status == 99)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let thresholds = try #require(report["thresholds"] as? [[String: Any]])
        #expect(thresholds.map { $0["expression"] as? String } == ["pages.p99<1us", "consistency==0"])
        #expect(thresholds.map { $0["passed"] as? Bool } == [false, true])
        #expect(thresholds[0]["limit"] as? Double == 0.001 && thresholds[0]["unit"] as? String == "ms")
        let measured = try #require(thresholds[0]["value"] as? Double)
        #expect(measured > 0.001)
        #expect(report["aborted"] == nil, "no --abort-on-fail: the run went on to its end")
    }

    @Test func thresholdsThatHoldExit0() throws {
        let db = try seeded()
        let outcome = try feedsim.run([
            "load", "--db", db, "--sessions", "2", "--workers", "1", "--duration", "0.5", "--time-scale", "max",
            "--threshold", "consistency==0", "--threshold", "errors.rate<=0.5", "--threshold", "offset.p99<1ms",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("thresholds: all 3 passed"))
        #expect(outcome.stdout.contains("✓ offset.p99<1ms  no samples"), "keyset pages run no OFFSET query")
    }

    @Test func abortOnFailEndsTheRunAtTheFirstCheckThatFindsABreach() throws {
        let db = try seeded()
        // A minute-long run; the first check, after a second, finds pages served: it stops there.
        let outcome = try feedsim.run([
            "load", "--db", db, "--sessions", "2", "--workers", "1", "--duration", "60", "--time-scale", "1",
            "--threshold", "pages.count<1", "--abort-on-fail", "--json",
        ])
        #expect(outcome.status == 99, "\(outcome.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        let aborted = try #require(report["aborted"] as? [String: Any])
        #expect(aborted["threshold"] as? String == "pages.count<1")
        let elapsed = try #require(report["elapsed_seconds"] as? Double)
        #expect(elapsed < 30, "stopped long before its 60 s (\(elapsed) s)")
        // The first check is a second after the sampler starts (just before the scheduler does).
        #expect((aborted["at_s"] as? Double ?? 0) >= 0.9, "checked once a second")
        #expect(report["stopped_early"] as? Bool == true)
        #expect(outcome.stderr.contains("threshold pages.count<1 breached at"), "\(outcome.stderr)")
    }

    @Test func aRampedRunReportsEveryStage() throws {
        let db = try seeded()
        let outcome = try feedsim.run([
            "load", "--db", db, "--stages", "0.5s:2,0.5s:2", "--workers", "1", "--time-scale", "10", "--json",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        let stages = try #require(report["stages"] as? [[String: Any]])
        #expect(stages.map { $0["name"] as? String } == ["1: 0→2", "2: 2→2"])
        #expect(stages.map { $0["planned_end_s"] as? Double } == [0.5, 1.0])
        let settings = try #require(report["settings"] as? [String: Any])
        #expect(settings["stages"] as? String == "0.5s:2,0.5s:2")
        #expect(settings["duration_seconds"] as? Double == 1)
        let timeline = try #require(report["timeline"] as? [[String: Any]])
        #expect(timeline.first?["stage"] as? String == "1: 0→2", "each interval names its stage")
    }
}
