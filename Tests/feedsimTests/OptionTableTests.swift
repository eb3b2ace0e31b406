import Foundation
import Testing

@testable import feedsim
@testable import FeedLoad
import FeedStore

/// The option tables: one row per option (name, value name, range, default, help) read by the
/// parser, `--help` and validation alike (issues 11 and 13).
@Suite struct OptionTableTests {
    @Test func everyShippedCommandsTableIsValid() throws {
        for command in commands {
            try OptionTableError.check(command.options, command: command.name)
        }
    }

    @Test func aDuplicateOptionNameInATableIsAnErrorAtStart() {
        let broken = Command(
            name: "broken", summary: "", usage: "broken",
            options: [OptionSpec("--x", help: "one"), OptionSpec("--x", "N", accepts: .integer(1...2), help: "two")],
            run: { _ in 0 })
        #expect(throws: OptionTableError.self) { try OptionTableError.check(broken.options, command: "broken") }
        // runMain refuses to run anything, even a valid command, while a table is broken.
        #expect(runMain(["feedsim", "--help"], commands: commands + [broken]) == 70)
        let badDefault = [OptionSpec("--n", "N", accepts: .integer(1...5), default: "9", help: "")]
        #expect(throws: OptionTableError.self) { try OptionTableError.check(badDefault, command: "c") }
    }

    @Test(arguments: [
        (OptionValue.integer(1...1000), "1000", true), (.integer(1...1000), "1001", false), (.integer(1...1000), "9223372036854775808", false),
        (.integer(1...1000), "3.0", false), (.number(0...100_000), "1e308", false), (.number(0...100_000), "nan", false),
        (.number(0...100_000), "100000", true), (.numbers(separator: "x", count: 2...2, each: 1...100_000), "1e12x1e12", false),
        (.numbers(separator: "x", count: 2...2, each: 1...100_000), "390x844", true),
        (.numbers(separator: "x", count: 2...2, each: 1...100_000), "390x", false), (.seed, "18446744073709551615", true),
        (.seed, "-1", false), (.path, "", false), (.path, "a.sqlite", true), (.numberOrWord(1...2, word: "max"), "max", true),
    ])
    func valuesAreCheckedAgainstTheirRule(rule: OptionValue, text: String, accepted: Bool) {
        #expect((rule.problem(with: text) == nil) == accepted, "\(rule) \(text)")
    }

    @Test func theParserRefusesAnOutOfRangeValueAsItBindsIt() throws {
        let specs = [OptionSpec("--columns", "C", accepts: .integer(1...1000), default: "3", help: "Columns.")]
        #expect(throws: UsageError.self) { try ParsedArguments(["--columns", "0"], specs: specs) }
        do {
            _ = try ParsedArguments(["--columns=1001"], specs: specs)
        } catch let error as UsageError {
            #expect(error.message == "--columns: expected an integer in 1...1000, got '1001'")
            #expect(!error.showsUsage)
        } catch {
            Issue.record("\(error)")
        }
        // Absent: the table's default.
        #expect(try ParsedArguments([], specs: specs).int("--columns") == 3)
        #expect(specs[0].helpLine == "Columns. [Range: 1...1000; default 3]")
    }
}

/// What `feedsim load` says and returns once the run is over (issue 11: a store the sessions could
/// not read is exit 1 with a line on stderr, not exit 0 with `SQLITE_BUSY` inside the JSON).
@Suite struct LoadOutcomeTests {
    func report(pages: Int, busy: Int) -> LoadReport {
        var metrics = LoadMetrics()
        metrics.pages = pages
        for _ in 0..<busy { metrics.recordError(SQLiteError(code: 5, extendedCode: 5, message: "database is locked", sql: nil, path: "f.sqlite")) }
        let configuration = LoadConfiguration(path: "f.sqlite", feedName: "home", model: .closed(sessions: 2), workers: 1)
        return LoadReport(configuration: configuration, counts: SessionCounts(), metrics: metrics, elapsed: .seconds(1), stoppedEarly: false)
    }

    @Test func noPageServedBecauseOfALockIsExit1WithALine() {
        let (status, line) = LoadCommandSupport.outcome(of: report(pages: 0, busy: 3))
        #expect(status == 1)
        #expect(line == "no page was served: the sessions could not read f.sqlite (SQLITE_BUSY 3); another process holds a lock on it")
    }

    /// Sessions started, nothing failed, no page: the run ended before any answer (`--duration
    /// 0.002`). It said the sessions "could not read" the database.
    @Test func noPageServedWithoutAnyFailureSaysTheRunEndedFirst() {
        var unanswered = report(pages: 0, busy: 0)
        unanswered.sessions.started = 2
        let (status, line) = LoadCommandSupport.outcome(of: unanswered)
        #expect(status == 1)
        #expect(
            line == "no page was served: the run ended after 1.000 s, before any answer from f.sqlite arrived (nothing failed); give a longer --duration")
    }

    @Test func someFailedQueriesAreAWarningAndACleanRunIsSilent() {
        #expect(LoadCommandSupport.outcome(of: report(pages: 10, busy: 2)) == (0, "some queries failed (SQLITE_BUSY 2); see errors in the report"))
        #expect(LoadCommandSupport.outcome(of: report(pages: 10, busy: 0)) == (0, nil))
    }

    /// Exit 2 says why: 2 of 5 sessions failed on their errors (counted with the failed queries);
    /// a walk that repeated and lost items, and the replays' violations, are named with counts.
    @Test func exit2SaysWhichViolationsAndFailuresItCounts() {
        var failed = report(pages: 10, busy: 2)
        failed.sessions.started = 5
        failed.sessions.failed = 2
        #expect(
            LoadCommandSupport.outcome(of: failed)
                == (2, "some queries failed (SQLITE_BUSY 2); see errors in the report; "
                    + "2 of 5 session(s) failed (errors above, and under `sessions`)"))
        var dirty = report(pages: 10, busy: 0)
        dirty.consistency.duplicates = 1
        dirty.consistency.skips = 3
        dirty.consistency.replayViolations = ["gap": 2, "duplicate_id": 1]
        #expect(
            LoadCommandSupport.outcome(of: dirty)
                == (2, "the walks repeated 1 and lost 3 item(s); 3 replay violation(s)"))
    }
}
