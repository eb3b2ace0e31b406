import FeedSimTestSupport
import Foundation
import Testing

/// What a newcomer met on a fresh clone, run as the user ran it (the built binary in a process of
/// its own): bad option values that are usage errors (exit 64, "did you mean"), parse errors with
/// their position, a directory given as a database, reports `compare` must refuse, `import`'s rules.
@Suite(.enabled(if: FeedsimProcess.binary != nil, "feedsim binary not found next to the test runner; run `swift build`"))
struct FreshCloneFindingsProcessTests {
    let directory = TemporaryDirectory.make("feedsim-freshclone")
    var feedsim: FeedsimProcess { FeedsimProcess(directory: directory) }
    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    // MARK: 3. Usage errors for values the options cannot take

    @Test(arguments: [
        (["import", "--db", "none.sqlite", "--feed", "home", "--format", "wikimdia", "none.json"],
         "feedsim import: --format: expected one of jsonl, csv, wikimedia, got 'wikimdia' (did you mean 'wikimedia'?)"),
        (["page", "--source", "http://127.0.0.1:1", "--convention", "strpe"],
         "feedsim page: --convention: 'strpe' is neither a preset nor a file (did you mean 'stripe'? presets: feedsim, stripe, relay, link, jsonapi)"),
        (["page", "--source", "htp://x"],
         "feedsim page: --source: expected an http:// or https:// URL, got 'htp://x' (did you mean 'http://'?)"),
        (["replay", "--source", "file:///x", "--trace", "none.jsonl"],
         "feedsim replay: --source: expected an http:// or https:// URL, got 'file:///x'"),
        (["load", "--source", "http://127.0.0.1:1", "--convention", "relai", "--duration", "1"],
         "feedsim load: --convention: 'relai' is neither a preset nor a file (did you mean 'relay'? presets: feedsim, stripe, relay, link, jsonapi)"),
        // A header without a colon crashed with a double free (libcurl's handle freed by the
        // failed init and again by deinit).
        (["page", "--source", "http://127.0.0.1:1", "--header", "X-A"],
         "feedsim page: --header: expected 'Name: value' on one line, got 'X-A'"),
        (["replay", "--source", "http://127.0.0.1:1", "--header", "X-A; v", "--trace", "none.jsonl"],
         "feedsim replay: --header: expected 'Name: value' on one line, got 'X-A; v'"),
        (["load", "--source", "http://127.0.0.1:1", "--header", " ", "--duration", "1"],
         "feedsim load: --header: expected 'Name: value' on one line, got ' '"),
        // Was exit 1 at bind; and exit 1 naming the controller's field `maxLoadedItems`.
        (["serve", "--db", "none.sqlite", "--listen", "999.0.0.1:80"],
         "feedsim serve: --listen: expected a numeric IPv4 or IPv6 address or localhost, got '999.0.0.1'"),
        (["replay", "--db", "none.sqlite", "--trace", "none.jsonl", "--page-size", "10000", "--max-loaded", "1"],
         "feedsim replay: --max-loaded: 1 must hold an Init plus one page (≥ 40000 = (--initial-pages + 1) × --page-size)"),
        // Ignored without a word before: an importer option of another format.
        (["replay", "--db", "none.sqlite", "--trace", "none.json", "--trace-format", "chrome", "--px-per-pt", "2"],
         "feedsim replay: --px-per-pt: an importer option of touch-csv, but --trace-format is chrome: it would be ignored"),
        (["trace", "import", "--from", "rrweb", "--device", "touchpad", "none.json"],
         "feedsim trace import: --device: an importer option of evemu, but --from is rrweb: it would be ignored"),
        // Accepted before: a replay whose answers never land, a threshold that can never fail.
        (["replay", "--db", "none.sqlite", "--trace", "none.jsonl", "--latency", "fixed:1e300"],
         "feedsim replay: --latency 'fixed:1e300': latencies are at most 86400000 ms (24 h, the longest trace)"),
        (["load", "--db", "none.sqlite", "--threshold", "blank.p95<500%", "--duration", "1"],
         "feedsim load: --threshold 'blank.p95<500%': blank.p95 is a fraction: the limit must be 0...1 or 0%...100%, got '500%'"),
        (["replay", "--db", "none.sqlite", "--trace", "none.jsonl", "--max-loaded", "90", "--prefetch", "items:40"],
         "feedsim replay: --max-loaded: 90 must be ≥ --page-size + 2 × --prefetch (100), as Paging 3 requires"),
        // Accepted before: the last of a repeated key silently won; distances and ramps had no bound.
        (["replay", "--db", "none.sqlite", "--trace", "none.jsonl", "--faults", "error=0.1,error=0.2"],
         "feedsim replay: --faults 'error=0.1,error=0.2': 'error' given twice"),
        (["replay", "--db", "none.sqlite", "--trace", "none.jsonl", "--costs", "base=1,base=2"],
         "feedsim replay: --costs 'base=1,base=2': 'base' given twice"),
        (["serve", "--db", "none.sqlite", "--faults", "retry-after=1,retry-after=2"],
         "feedsim serve: --faults 'retry-after=1,retry-after=2': 'retry-after' given twice"),
        (["replay", "--db", "none.sqlite", "--trace", "none.jsonl", "--prefetch", "screens:1e9"],
         "feedsim replay: --prefetch: screens must be in 0...1000, got '1e9'"),
        (["replay", "--db", "none.sqlite", "--trace", "none.jsonl", "--prefetch", "points:1000001"],
         "feedsim replay: --prefetch: points must be in 0...1000000, got '1000001'"),
        // The last of a single-value option given twice won silently.
        (["replay", "--db", "none.sqlite", "--trace", "a.jsonl", "--trace", "b.jsonl"],
         "feedsim replay: option '--trace' given twice ('a.jsonl' and 'b.jsonl'); it takes one value"),
        (["seed", "--db", "none.sqlite", "--db=other.sqlite"],
         "feedsim seed: option '--db' given twice ('none.sqlite' and 'other.sqlite'); it takes one value"),
        (["page", "--source", "http://user:secret@127.0.0.1:1"],
         "feedsim page: --source: credentials in the URL would be printed and stored in the report; pass them in a header from the environment (--header-env VAR, VAR='Authorization: Basic …')"),
        (["load", "--db", "none.sqlite", "--sessions", "1", "--segment", "2/2"],
         "feedsim load: --segment 2/2: 1 session(s) cannot be cut into 2 segments; give --sessions 2 or more"),
        (["fuzz", "--cases", "1", "-o", "case.bin"],
         "feedsim fuzz: -o writes the input of one --case; add --case K (and --format) or drop -o"),
        (["bench", "layout", "--layouts", "nope"],
         "feedsim bench layout: --layouts: unknown layout 'nope' (grid, flow, mosaic, carousel, strip, waterfall, list)"),
        (["load", "--db", "none.sqlite", "--write-mix", "insert=1,delete=1"],
         "feedsim load: --write-mix sets the writers: add --writers N (N ≥ 1) or drop --write-mix"),
        (["page", "--source", "https://127.0.0.1:1", "--insecure", "--cacert", "none.pem"],
         "feedsim page: --insecure skips the certificate check --cacert sets up: give one of them"),
        (["page", "--db", "none.sqlite", "--max-pages", "3"],
         "feedsim page: --max-pages bounds a --walk; add --walk or drop --max-pages"),
        (["load", "--db", "none.sqlite", "--stages", "100000h:5"],
         "feedsim load: --stages '100000h:5': the stages last more than 86400 s in all (a day, as --duration)"),
    ])
    func aBadOptionValueIsAUsageErrorWithExit64(arguments: [String], message: String) throws {
        let outcome = try feedsim.run(arguments)
        #expect(outcome.status == 64, "\(outcome.stderr)")
        #expect(outcome.stderrLines == [message], "\(outcome.stderr)")
        #expect(outcome.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: path("none.sqlite")))
    }

    /// The same line from an environment variable is not a usage error (the command line is
    /// right), but still one line and exit 1, never the double free it was; the line names the
    /// variable and not its value, which is usually a secret (it showed the value until stop 22).
    @Test func aHeaderVariableWithoutAColonIsRefusedWithoutACrash() throws {
        let outcome = try feedsim.run(
            ["page", "--source", "http://127.0.0.1:1", "--header-env", "FEEDSIM_TEST_HEADER"],
            shell: "export FEEDSIM_TEST_HEADER='no colon here';")
        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(
            outcome.stderrLines == [
                "feedsim page: --header-env FEEDSIM_TEST_HEADER: the variable does not hold one 'Name: value' line (its value is not shown)"
            ])
    }

    /// A convention file that is missing is exit 1, as every missing input file; it was a usage error.
    @Test func aMissingConventionFileIsExit1NamingTheFile() throws {
        for name in ["./nope.json", "nope.json", "conventions/x"] {
            let outcome = try feedsim.run(["page", "--source", "http://127.0.0.1:1", "--convention", name])
            #expect(outcome.status == 1, "\(name) \(outcome.stderr)")
            #expect(outcome.stderrLines == ["feedsim page: --convention \(name): no such file"])
        }
    }

    /// `report merge` says where a truncated report's JSON breaks off (file:line:column), as
    /// `compare` does; and how many files it takes.
    @Test func reportMergeNamesWhereATruncatedReportEndsAndHowManyFilesItTakes() throws {
        let truncated = path("cut.json")
        try "{\n  \"settings\": {".write(toFile: truncated, atomically: true, encoding: .utf8)
        let outcome = try feedsim.run(["report", "merge", path("out.json"), truncated, truncated])
        #expect(outcome.status == 1, "\(outcome.stderr)")
        // Line 2 is `  "settings": {` (15 bytes): the text ends after its 15th byte, column 16.
        #expect(outcome.stderrLines.first?.hasPrefix("feedsim report merge: \(truncated):2:16: not JSON: ") == true, "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path("out.json")))
        let none = try feedsim.run(["report", "merge"])
        #expect(none.status == 64)
        #expect(none.stderrLines.first == "feedsim report merge: expected 2 to 10001 FILEs (OUT and one IN per segment), got 0", "\(none.stderr)")
    }

    /// Plain reasons for unreadable inputs and out-of-range ids, not Foundation's sentences or "expected an integer".
    @Test func unreadableSizesAndAnIDPast2To53GetPlainReasons() throws {
        let sizes = try feedsim.run(["layout", "--layout", "list", "--viewport", "390x844", "--sizes", path("nope.txt")])
        #expect(sizes.status == 1)
        #expect(sizes.stderrLines == ["feedsim layout: \(path("nope.txt")): cannot read intrinsic sizes: no such file"], "\(sizes.stderr)")
        let items = path("big.jsonl")
        try #"{"id":9007199254740992,"published_at":1000,"kind":"photo","width":100,"height":100}"#.write(
            toFile: items, atomically: true, encoding: .utf8)
        let outcome = try feedsim.run(["import", "--db", path("big.sqlite"), "--feed", "home", items])
        #expect(outcome.status == 1)
        #expect(outcome.stderrLines.count == 1 && outcome.stderr.contains("field 'id': 9007199254740992 is out of range"), "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path("big.sqlite")))
    }

    // MARK: 4. Outputs checked before the run

    /// An output that cannot be written is refused before the run, with nothing written: it was
    /// found only after the run, when `--report` (or `--csv`) was already written and the load's
    /// whole run spent.
    @Test func anUnwritableOutputIsRefusedBeforeTheRunAndNothingIsWritten() throws {
        let db = path("feed.sqlite")
        #expect(try feedsim.run(["seed", "--db", db, "--preset", "mixed", "--count", "200", "--seed", "1"]).status == 0)
        let trace = path("t.jsonl")
        #expect(try feedsim.run(["trace", "synth", "--model", "reader", "--duration", "2", "--seed", "1", "-o", trace]).status == 0)
        let missing = path("no-such-dir")
        for (arguments, option) in [
            (["replay", "--db", db, "--trace", trace, "--report", path("r.json"), "--html", "\(missing)/x.html"], "--html"),
            (["replay", "--db", db, "--trace", trace, "--report", path("r.json"), "--perfetto", "\(missing)/x.json"], "--perfetto"),
            (["replay", "--db", db, "--trace", trace, "--report", path("r.json"), "--timeline", "\(missing)/x.csv"], "--timeline"),
            (["load", "--db", db, "--duration", "60", "--report", path("r.json"), "--html", "\(missing)/x.html"], "--html"),
            (["sweep", "--db", db, "--trace", trace, "--vary", "page-size=10,20", "--csv", path("s.csv"), "--html", "\(missing)/s.html"], "--html"),
        ] {
            let started = Date()
            let outcome = try feedsim.run(arguments)
            let file = "\(missing)/\(arguments.last!.split(separator: "/").last!)"
            #expect(outcome.status == 1, "\(arguments) \(outcome.stderr)")
            #expect(outcome.stderrLines == ["feedsim \(arguments[0]): \(option) \(file): no directory \(missing)"], "\(arguments)")
            #expect(outcome.stdout.isEmpty, "\(arguments)")
            #expect(!FileManager.default.fileExists(atPath: path("r.json")) && !FileManager.default.fileExists(atPath: path("s.csv")))
            #expect(Date().timeIntervalSince(started) < 30, "refused before the 60-s load ran")
        }
    }

    /// A sweep's option varied twice is a usage error: it printed a second column that won and
    /// rows repeating each other, all on the frontier.
    @Test func anOptionVariedTwiceInASweepIsAUsageError() throws {
        let outcome = try feedsim.run([
            "sweep", "--db", path("none.sqlite"), "--trace", path("none.jsonl"), "--vary", "page-size=10,20", "--vary", "page-size=30",
        ])
        #expect(outcome.status == 64, "\(outcome.stderr)")
        #expect(outcome.stderrLines == [
            "feedsim sweep: --vary: 'page-size' is varied twice; give all its values in one --vary (e.g. 'page-size=a,b,c')"
        ])
    }

    // MARK: 5. A directory given as --db

    /// SQLite opens a directory and fails at the first read with "disk I/O error" (SQLITE_IOERR,
    /// extended 266 = SQLITE_IOERR_READ): every command opening a store says what it is instead.
    @Test func aDirectoryGivenAsTheDatabaseIsNamedAsADirectory() throws {
        let db = path("somedir")
        try FileManager.default.createDirectory(atPath: db, withIntermediateDirectories: true)
        let trace = path("t.jsonl")
        #expect(try feedsim.run(["trace", "synth", "--model", "reader", "--duration", "1", "--seed", "1", "-o", trace]).status == 0)
        for arguments in [
            ["stats", "--db", db], ["page", "--db", db], ["layout", "--layout", "list", "--viewport", "390x844", "--db", db],
            ["serve", "--db", db, "--listen", "127.0.0.1:0"], ["replay", "--db", db, "--trace", trace],
            ["load", "--db", db, "--duration", "1"], ["seed", "--db", db, "--count", "3"],
        ] {
            let outcome = try feedsim.run(arguments)
            #expect(outcome.status == 1, "\(arguments) \(outcome.stderr)")
            #expect(outcome.stderrLines == ["feedsim \(arguments[0]): \(db): is a directory, not a database file"], "\(arguments)")
        }
    }

    // MARK: 6. compare checks the reports it reads

    /// A real replay report, then the same with one field made wrong: `compare` refuses it with
    /// one line naming the file and the field (exit 1); the untouched pair compares (exit 0).
    @Test func compareRefusesAReportWithAFieldOfTheWrongTypeOrANegativeCount() throws {
        let db = path("feed.sqlite")
        #expect(try feedsim.run(["seed", "--db", db, "--preset", "mixed", "--count", "300", "--seed", "1"]).status == 0)
        let trace = path("t.jsonl")
        #expect(try feedsim.run(["trace", "synth", "--model", "skimmer", "--duration", "3", "--seed", "1", "-o", trace]).status == 0)
        let replay = try feedsim.run(["replay", "--db", db, "--trace", trace, "--json"])
        #expect(replay.status == 0, "\(replay.stderr)")
        let good = path("a.json")
        try Data(replay.stdout.utf8).write(to: URL(fileURLWithPath: good))
        let same = try feedsim.run(["compare", good, good])
        #expect(same.status == 0, "\(same.stderr)")
        var object = try #require(try JSONSerialization.jsonObject(with: Data(replay.stdout.utf8)) as? [String: Any])
        object["frames"] = "many"
        let wrongType = path("ta.json")
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: wrongType))
        let typed = try feedsim.run(["compare", good, wrongType])
        #expect(typed.status == 1, "\(typed.stderr)")
        #expect(typed.stderrLines == ["feedsim compare: \(wrongType): field 'frames': expected an integer"], "\(typed.stderr)")
        object = try #require(try JSONSerialization.jsonObject(with: Data(replay.stdout.utf8)) as? [String: Any])
        var pages = try #require(object["pages"] as? [String: Any])
        pages["more"] = -3
        object["pages"] = pages
        let negative = path("tb.json")
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: negative))
        let signed = try feedsim.run(["compare", negative, good])
        #expect(signed.status == 1, "\(signed.stderr)")
        #expect(
            signed.stderrLines == ["feedsim compare: \(negative): field 'pages.more': expected a figure ≥ 0 (a count, a time or a share), got -3"],
            "\(signed.stderr)")
        #expect(signed.stdout.isEmpty)
        // A share above 1 (compare printed "500 %" blank).
        object = try #require(try JSONSerialization.jsonObject(with: Data(replay.stdout.utf8)) as? [String: Any])
        var blank = try #require(object["blank"] as? [String: Any])
        blank["mean_fraction"] = 5
        object["blank"] = blank
        let over = path("tc.json")
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: over))
        let shared = try feedsim.run(["compare", good, over])
        #expect(shared.status == 1, "\(shared.stderr)")
        #expect(
            shared.stderrLines == ["feedsim compare: \(over): field 'blank.mean_fraction': expected a share in 0...1, got 5"],
            "\(shared.stderr)")
    }

    /// A directory given as a report or an import file was "no such file" (or "cannot read file").
    @Test func aDirectoryGivenAsAnInputFileIsSaidToBeOne() throws {
        let folder = path("reports")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        for arguments in [["compare", folder, folder], ["report", "merge", path("out.json"), folder],
                          ["import", "--db", path("x.sqlite"), "--feed", "f", "--format", "csv", folder]] {
            let outcome = try feedsim.run(arguments)
            #expect(outcome.status == 1, "\(arguments): \(outcome.stderr)")
            #expect(outcome.stderrLines.count == 1 && outcome.stderr.contains("\(folder): a directory, not a file"), "\(outcome.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: path("x.sqlite")))
    }

    /// `replay --report FILE` wrote the JSON without the newline `--json` prints (a 1-byte diff).
    @Test func replaysReportFileIsWhatJSONPrints() throws {
        let db = path("feed.sqlite")
        #expect(try feedsim.run(["seed", "--db", db, "--count", "100"]).status == 0)
        let trace = path("t.jsonl")
        #expect(try feedsim.run(["trace", "synth", "--model", "reader", "--duration", "2", "--seed", "1", "-o", trace]).status == 0)
        let printed = try feedsim.run(["replay", "--db", db, "--trace", trace, "--json"])
        #expect(try feedsim.run(["replay", "--db", db, "--trace", trace, "--report", path("r.json")]).status == 0)
        #expect(FileManager.default.contents(atPath: path("r.json")) == Data(printed.stdout.utf8))
    }

    /// `layout --svg` into a missing directory read "The operation could not be completed.
    /// (feedsim.CommandFailure error 1.)".
    @Test func layoutSVGIntoAMissingDirectorySaysWhich() throws {
        let target = path("nope/d.svg")
        let outcome = try feedsim.run(["layout", "--layout", "grid", "--count", "10", "--viewport", "390x844", "--svg", target])
        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(outcome.stderrLines == ["feedsim layout: --svg \(target): no directory \(path("nope"))"], "\(outcome.stderr)")
    }

    /// `--offset 0,1e20` trapped in the SVG's number formatting (exit 132); 1e307 likewise.
    @Test(arguments: ["0,1e20", "0,1e307", "-1e300,0"])
    func layoutSVGFarAwayDrawsWithoutATrap(offset: String) throws {
        let outcome = try feedsim.run(
            ["layout", "--layout", "grid", "--count", "1", "--viewport", "390x844", "--offset", offset, "--svg", path("far.svg")])
        #expect(!outcome.signalled && outcome.status == 0, "\(outcome.status) \(outcome.stderr)")
        let svg = try String(contentsOfFile: path("far.svg"), encoding: .utf8)
        #expect(svg.hasPrefix("<svg") && !svg.contains("\"inf") && !svg.contains("\"nan") && !svg.contains(" inf"))
    }

    @Test func layoutSVGOfAnEndlessViewportIsOneLine() throws {
        let outcome = try feedsim.run(
            ["layout", "--layout", "waterfall", "--count", "10", "--viewport", "390x844", "--rect", "0,0,390,1e308",
             "--svg", path("big.svg")])
        #expect(!outcome.signalled && outcome.status == 1, "\(outcome.status) \(outcome.stderr)")
        #expect(outcome.stderrLines.count == 1, "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path("big.svg")))
    }

    /// `--crash-file` into a missing directory and `--data` of a missing directory did nothing, silently.
    @Test func fuzzRefusesACrashFileOrDataItCannotUse() throws {
        for arguments in [["fuzz", "--cases", "1", "--crash-file", path("nope/crash.bin")], ["fuzz", "--cases", "1", "--data", path("nope")]] {
            let outcome = try feedsim.run(arguments)
            #expect(outcome.status == 1, "\(arguments): \(outcome.stderr)")
            #expect(outcome.stderrLines.count == 1 && outcome.stdout.isEmpty, "\(outcome.stderr)")
        }
    }

    /// sweep refused replay's importer options (`--px-per-pt`: unknown option) and did not warn
    /// when it guessed the unit: AOSP touch-csv rows were swept at 1 px = 1 pt, silently.
    @Test func sweepReadsRecordedTracesWithReplaysImporterOptions() throws {
        let db = path("feed.sqlite")
        #expect(try feedsim.run(["seed", "--db", db, "--count", "200"]).status == 0)
        let csv = path("drag.csv")
        try "t_ms,action,x,y\n0,DOWN,500,1500\n16,MOVE,500,1300\n32,MOVE,500,1100\n48,UP,500,900\n"
            .write(toFile: csv, atomically: true, encoding: .utf8)
        let sweep = ["sweep", "--db", db, "--trace", csv, "--trace-format", "touch-csv", "--vary", "page-size=10,20", "--jobs", "1"]
        let guessed = try feedsim.run(sweep)
        #expect(guessed.status == 0, "\(guessed.stderr)")
        #expect(guessed.stderr.contains("warning: "), "\(guessed.stderr)")
        let scaled = try feedsim.run(sweep + ["--px-per-pt", "2.625"])
        #expect(scaled.status == 0, "\(scaled.stderr)")
        #expect(!scaled.stderr.contains("warning: "), "\(scaled.stderr)")
    }

    /// An impossible layout started and failed 27,678 sessions in a busy loop, then said the
    /// sessions "could not read" the database; `replay` refuses it at once.
    @Test func loadRefusesAnImpossibleLayoutBeforeAnySession() throws {
        let db = path("feed.sqlite")
        #expect(try feedsim.run(["seed", "--db", db, "--count", "100"]).status == 0)
        let outcome = try feedsim.run(["load", "--db", db, "--duration", "1", "--columns", "1000", "--spacing", "1"])
        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(
            outcome.stderrLines == ["feedsim load: invalid layout parameter spacing=1.0: 999 gap(s) are wider than the viewport's 390.0 pt"],
            "\(outcome.stderr)")
    }

    // MARK: 8. The load summary line

    /// `--write-rate` is items per second over all writers: the summary says "in all".
    @Test func theLoadSummarySaysTheWriteRateIsTheWritersTotal() throws {
        let db = path("feed.sqlite")
        #expect(try feedsim.run(["seed", "--db", db, "--preset", "mixed", "--count", "300", "--seed", "1"]).status == 0)
        let outcome = try feedsim.run([
            "load", "--db", db, "--sessions", "1", "--time-scale", "max", "--duration", "0.3", "--writers", "2", "--write-rate", "50",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains(", 2 writers at 50.0 items/s in all, seed "), "\(outcome.stdout)")
    }
}
