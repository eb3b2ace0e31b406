import FeedSimTestSupport
import FeedHTTP
import FeedModel
import Foundation
import Testing

@testable import FeedPostgres

/// `--db postgresql://…` through the built `feedsim` binary, in processes of their own: the same
/// commands and output as on a SQLite file, libpq's `PG*` variables honoured, bad URIs and
/// interrupted seeds. Needs `FEEDSIM_TEST_POSTGRES` (skips with a message without it).
/// `FEEDSIM_TEST_POSTGRES`, the test server's URI (`nil` when not set).
let testPostgresServer: String? = {
    let value = ProcessInfo.processInfo.environment["FEEDSIM_TEST_POSTGRES"] ?? ""
    return value.isEmpty ? nil : value
}()

@Suite(
    .enabled(
        if: testPostgresServer != nil,
        "FEEDSIM_TEST_POSTGRES not set: start a server with `eval \"$(.ci/postgres start)\"` (as .ci/run does)"))
struct PostgresCommandLineTests {
    static var server: String? { testPostgresServer }

    let directory = TemporaryDirectory.make("feedsim-pg-cli")

    /// A schema of its own on the test server, and the URI that puts connections into it.
    static func freshSchema() throws -> (name: String, uri: String) {
        let server = try #require(server)
        let name = "feedsim_cli_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try PostgresConnection(server).execute("CREATE SCHEMA \(name)")
        let separator = server.contains("?") ? "&" : "?"
        return (name, server + separator + "options=-c%20search_path%3D" + name)
    }

    static func drop(_ schema: String) {
        guard let server else { return }
        _ = try? PostgresConnection(server).execute("DROP SCHEMA IF EXISTS \(schema) CASCADE")
    }

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs the binary; `environment` entries are added to (or, when `nil`, removed from) the test's own.
    func feedsim(_ arguments: [String], environment changes: [String: String?] = [:], killAfter seconds: Double? = nil)
        throws -> Run
    {
        let binary = try #require(ProcessDeterminismTests.binary)
        let name = UUID().uuidString
        let outURL = directory.appendingPathComponent("\(name).out")
        let errURL = directory.appendingPathComponent("\(name).err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        for (key, value) in changes { environment[key] = value }
        process.environment = environment
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        try process.run()
        if let seconds {
            Thread.sleep(forTimeInterval: seconds)
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, stdout: try String(contentsOf: outURL, encoding: .utf8),
            stderr: try String(contentsOf: errURL, encoding: .utf8))
    }

    @Test func seedPageAndStatsPrintTheSameAsOnSQLiteOnPostgreSQL() throws {
        let (schema, uri) = try Self.freshSchema()
        defer { Self.drop(schema) }
        let file = directory.appendingPathComponent("feed.sqlite").path
        for db in [file, uri] {
            #expect(try feedsim(["seed", "--db", db, "--preset", "mixed", "--count", "700", "--seed", "5"]).status == 0)
        }
        let sqlitePage = try feedsim(["page", "--db", file, "--limit", "7", "--json"])
        let postgresPage = try feedsim(["page", "--db", uri, "--limit", "7", "--json"])
        #expect(postgresPage.status == 0 && postgresPage.stdout == sqlitePage.stdout)
        let cursor = try #require(
            (try JSONSerialization.jsonObject(with: Data(sqlitePage.stdout.utf8)) as? [String: Any])?["last_cursor"] as? String)
        for direction in ["--after", "--before"] {
            let onSQLite = try feedsim(["page", "--db", file, direction, cursor, "--limit", "9", "--json"])
            let onPostgres = try feedsim(["page", "--db", uri, direction, cursor, "--limit", "9", "--json"])
            #expect(onPostgres.status == 0 && onPostgres.stdout == onSQLite.stdout, "\(direction)")
        }
        let sqliteStats = try feedsim(["stats", "--db", file, "--json"])
        let postgresStats = try feedsim(["stats", "--db", uri, "--json"])
        #expect(postgresStats.status == 0 && sqliteStats.status == 0)
        // The same feeds, kinds and counts; the schema versions differ since PostgreSQL's
        // 002_items_without_feed_fk.sql (SQLite stays at 1), and only PostgreSQL counts orphan items.
        let decoder = JSONDecoder()
        let onSQLite = try decoder.decode(StoreStats.self, from: Data(sqliteStats.stdout.utf8))
        let onPostgres = try decoder.decode(StoreStats.self, from: Data(postgresStats.stdout.utf8))
        #expect(onPostgres.feeds == onSQLite.feeds && onSQLite.totalItems == 700)
        #expect(onSQLite.schemaVersion == 1 && onPostgres.schemaVersion == 2)
        #expect(onSQLite.orphanItems == nil && !sqliteStats.stdout.contains("orphan_items"))
        #expect(onPostgres.orphanItems == 0)
        #expect(postgresStats.stdout.contains("\"items\" : 700"))
        let layout = ["layout", "--kind", "mosaic", "--count", "60", "--viewport", "320x640", "--json"]
        let sqliteLayout = try feedsim(layout + ["--db", file])
        let postgresLayout = try feedsim(layout + ["--db", uri])
        #expect(postgresLayout.status == 0 && postgresLayout.stdout == sqliteLayout.stdout)
        let trace = RealData.packageFile("Seeds/traces/flutter-velocity-tracker-drags.jsonl").path
        let replay = ["replay", "--trace", trace, "--kind", "grid", "--columns", "3", "--latency", "lognormal:120,0.5", "--json"]
        let sqliteReplay = try feedsim(replay + ["--db", file])
        let postgresReplay = try feedsim(replay + ["--db", uri])
        #expect(postgresReplay.status == 0 && postgresReplay.stdout == sqliteReplay.stdout)
        #expect(postgresReplay.stdout.contains("\"time_to_first_content_ms\""))
    }

    /// `serve --db postgresql://…` (through `FeedDatabase`, as every other command) answers the
    /// same pages, rows and placeholder images as `serve` over a SQLite file seeded alike: the
    /// same bytes, compared as they come off two real sockets.
    @Test func serveAnswersTheSameBytesAsOverTheSQLiteFileOnPostgreSQL() throws {
        let binary = try #require(ProcessDeterminismTests.binary)
        let (schema, uri) = try Self.freshSchema()
        defer { Self.drop(schema) }
        let file = directory.appendingPathComponent("served.sqlite").path
        for db in [file, uri] {
            #expect(try feedsim(["seed", "--db", db, "--preset", "mixed", "--count", "300", "--seed", "9"]).status == 0)
        }
        var origins: [String] = []
        var children: [ChildProcess] = []
        defer { for child in children { child.send(SIGTERM); _ = child.wait() } }
        for db in [file, uri] {
            let child = try ChildProcess(binary.path, ["serve", "--db", db, "--listen", "127.0.0.1:0", "--threads", "2"])
            children.append(child)
            let line = try #require(child.waitForLine(startingWith: "feedsim serve: listening on"), "\(child.standardError)")
            let port = try #require(line.components(separatedBy: "http://127.0.0.1:").last?.prefix { $0.isNumber })
            origins.append("http://127.0.0.1:\(port)")
        }
        #expect(!children[1].standardOutput.contains("password"))
        let client = try HTTPClient()
        var targets = ["/v1/feeds", "/v1/feeds/home/items?limit=25", "/v1/items?ids=1,2,3,150,300", "/v1/images/7.svg"]
        // Follow three More cursors as the SQLite server hands them out: the PostgreSQL one must agree.
        var next = try #require(
            (try JSONSerialization.jsonObject(with: Data(try client.get(origins[0] + targets[1]).body)) as? [String: Any])?[
                "next_cursor"] as? String)
        for _ in 0..<3 {
            let target = "/v1/feeds/home/items?limit=25&after=" + next
            targets.append(target)
            let body = try client.get(origins[0] + target).body
            next = try #require((try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])?["next_cursor"] as? String)
        }
        targets.append("/v1/feeds/nope/items")
        for target in targets {
            let onSQLite = try client.get(origins[0] + target)
            let onPostgres = try client.get(origins[1] + target)
            #expect(onPostgres.status == onSQLite.status, "\(target)")
            #expect(onPostgres.body == onSQLite.body, "\(target)")
        }
        #expect(try client.get(origins[1] + "/v1/feeds/home/items?limit=25").status == 200)
        #expect(try client.get(origins[1] + "/v1/feeds/nope/items").status == 404)
    }

    @Test func libpqEnvironmentVariablesFillWhatTheURILeavesOutOnPostgreSQL() throws {
        let (schema, uri) = try Self.freshSchema()
        defer { Self.drop(schema) }
        let serverURI = try #require(Self.server)
        let server = try #require(URLComponents(string: serverURI))
        // Only the database name in the URI; host, port, user and search path from PG* variables.
        let environment: [String: String?] = [
            "PGHOST": server.host, "PGPORT": server.port.map(String.init), "PGUSER": server.user,
            "PGOPTIONS": "-c search_path=\(schema)",
        ]
        let bare = "postgresql:///" + server.path.dropFirst()
        #expect(try feedsim(["seed", "--db", bare, "--preset", "photos", "--count", "40"], environment: environment).status == 0)
        let stats = try feedsim(["stats", "--db", uri])
        #expect(stats.status == 0 && stats.stdout.contains("40 items"), "\(stats.stdout)")
    }

    @Test func anUnreachableServerFailsWithOneLineAndExit1OnPostgreSQL() throws {
        let run = try feedsim(["stats", "--db", "postgres://someone:hunter2@127.0.0.1:1/feeds?connect_timeout=2"])
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("feedsim stats: postgres://someone:***@127.0.0.1:1/feeds"), "\(run.stderr)")
        #expect(run.stderr.contains("cannot connect to PostgreSQL"))
        #expect(!run.stderr.contains("hunter2"))
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
    }

    /// The test server trusts local connections, so a password in the URI is accepted and never
    /// checked: `page`'s next-page hints carry the URI masked (`postgres:***@`), with `--feed` and
    /// `--limit`, and stdout and stderr never hold the password.
    @Test func pageHintsMaskThePasswordAndKeepTheLimitOnPostgreSQL() throws {
        let (schema, uri) = try Self.freshSchema()
        defer { Self.drop(schema) }
        let withPassword = uri.replacingOccurrences(of: "://postgres@", with: "://postgres:s3cretpw@")
        #expect(withPassword != uri)
        #expect(try feedsim(["seed", "--db", withPassword, "--preset", "photos", "--count", "12"]).status == 0)
        let first = try feedsim(["page", "--db", withPassword, "--limit", "5"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(!first.stdout.contains("s3cretpw") && !first.stderr.contains("s3cretpw"), "\(first.stdout)")
        let masked = withPassword.replacingOccurrences(of: ":s3cretpw@", with: ":***@")
        let older = try #require(first.stdout.split(separator: "\n").first { $0.hasPrefix("older: ") }, "\(first.stdout)")
        #expect(older.hasPrefix("older: feedsim page --db \(masked) --limit 5 --after v1."), "\(older)")
        // The hint, its password given back, pages on: items 6 to 10 of 12, one more page after.
        let token = String(older.split(separator: " ").last!)
        let second = try feedsim(["page", "--db", withPassword, "--limit", "5", "--after", token, "--json"])
        #expect(second.status == 0, "\(second.stderr)")
        let page = try #require(try JSONSerialization.jsonObject(with: Data(second.stdout.utf8)) as? [String: Any])
        #expect((page["items"] as? [Any])?.count == 5)
        #expect(page["has_more_after"] as? Bool == true)
    }

    /// URIs libpq cannot parse: the message still masks the password (`feeds:***@`), in the
    /// target and in libpq's own text, which quotes the URI for an unclosed IPv6 bracket.
    @Test func aURIThatDoesNotParseIsEchoedWithItsPasswordMasked() throws {
        for uri in ["postgresql://feeds:secret@127.0.0.1:notaport/feeds", "postgresql://feeds:secret@[::1/feeds"] {
            let run = try feedsim(["stats", "--db", uri])
            #expect(run.status == 1, "\(run.stderr)")
            #expect(!run.stderr.contains("secret"), "\(run.stderr)")
            #expect(run.stderr.hasPrefix("feedsim stats: postgresql://feeds:***@"), "\(run.stderr)")
            #expect(run.stderr.contains("cannot connect to PostgreSQL"), "\(run.stderr)")
        }
    }

    @Test func aSeedKilledPartWayLeavesNeitherTheFeedNorAnyItemOnPostgreSQL() throws {
        let (schema, uri) = try Self.freshSchema()
        defer { Self.drop(schema) }
        // Three million items take far longer than two seconds: the process dies inside its COPY.
        let killed = try feedsim(["seed", "--db", uri, "--preset", "photos", "--count", "3000000"], killAfter: 2)
        #expect(killed.status != 0)
        let stats = try feedsim(["stats", "--db", uri])
        #expect(stats.status == 0)
        #expect(stats.stdout.contains("0 feed(s), 0 items"), "\(stats.stdout)")
    }

    @Test func seedingAFeedAgainNeedsAppendOrReplaceOnPostgreSQL() throws {
        let (schema, uri) = try Self.freshSchema()
        defer { Self.drop(schema) }
        let seed = ["seed", "--db", uri, "--preset", "news", "--count", "30"]
        #expect(try feedsim(seed).status == 0)
        let again = try feedsim(seed)
        #expect(again.status == 1)
        #expect(again.stderr.contains("feed 'home' already has 30 items: pass --append"), "\(again.stderr)")
        #expect(try feedsim(seed + ["--append"]).status == 0)
        #expect(try feedsim(["stats", "--db", uri]).stdout.contains("60 items"))
        #expect(try feedsim(seed + ["--replace"]).status == 0)
        #expect(try feedsim(["stats", "--db", uri]).stdout.contains("30 items"))
    }

    @Test func importGoesThroughCOPYAndADuplicateIdNamesTheFileAndItemOnPostgreSQL() throws {
        let (schema, uri) = try Self.freshSchema()
        defer { Self.drop(schema) }
        let csv = RealData.packageFile("Seeds/wikimedia/onthisday-items.csv").path
        let first = try feedsim(["import", "--db", uri, "--feed", "wiki", csv])
        #expect(first.status == 0, "\(first.stderr)")
        let again = try feedsim(["import", "--db", uri, "--feed", "wiki2", csv])
        #expect(again.status == 1)
        #expect(again.stderr.hasPrefix("feedsim import: \(csv), item "), "\(again.stderr)")
        #expect(again.stderr.contains(" of the file: field 'id': item id "), "\(again.stderr)")
        #expect(again.stderr.contains("nothing imported"))
        let stats = try feedsim(["stats", "--db", uri])
        #expect(stats.stdout.contains("1 feed(s)"), "\(stats.stdout)")
    }
}
