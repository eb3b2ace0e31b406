import Foundation
import Testing
import FeedSimTestSupport

/// `feedsim load --write-mix`, run as a user would: a bad mix is one line naming the option and
/// exit 64 before any work; a good one shows its updates and deletes in the report.
@Suite(.enabled(if: FeedsimProcess.binary != nil, "feedsim binary not found next to the test runner; run `swift build`"))
struct WriteMixProcessTests {
    let directory = TemporaryDirectory.make("feedsim-write-mix")
    var feedsim: FeedsimProcess { FeedsimProcess(directory: directory) }

    private func seeded() throws -> String {
        let db = directory.appendingPathComponent("feed.sqlite").path
        let outcome = try feedsim.run(["seed", "--db", db, "--preset", "mixed", "--count", "500"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        return db
    }

    @Test(arguments: ["insert=8,bogus=1", "insert", "insert=-1", "insert=0,update=0", "update=1,update=2"])
    func aBadMixIsOneLineNamingTheOptionAndExit64(mix: String) throws {
        let db = try seeded()
        let outcome = try feedsim.run(["load", "--db", db, "--writers", "1", "--write-mix", mix, "--duration", "0.2"])
        #expect(outcome.status == 64, "\(outcome.stderr)")
        #expect(outcome.stderrLines.count == 1 && outcome.stderr.contains("--write-mix:"), "\(outcome.stderr)")
        #expect(outcome.stdout.isEmpty, "no run started")
    }

    @Test func aMixOfUpdatesAndDeletesIsCountedInTheJSONReport() throws {
        let db = try seeded()
        let outcome = try feedsim.run([
            "load", "--db", db, "--sessions", "2", "--workers", "1", "--writers", "2", "--write-rate", "200",
            "--write-mix", "insert=2,update=1,delete=1", "--duration", "1", "--time-scale", "10", "--json",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        let updated = try #require(json["updated"] as? Int)
        let deleted = try #require(json["deleted"] as? Int)
        #expect(updated > 0 && deleted > 0, "\(outcome.stdout.prefix(400))")
        let settings = try #require(json["settings"] as? [String: Any])
        #expect(settings["write_mix"] as? String == "insert=2,update=1,delete=1")
        let help = try feedsim.run(["load", "--help"])
        #expect(help.stdout.contains("--write-mix"))
    }
}
