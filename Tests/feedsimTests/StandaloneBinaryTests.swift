import FeedSimTestSupport
import Foundation
import Testing

/// The built `feedsim` copied alone into an empty directory (no `Schema/`, no `Seeds/`, no
/// `FEEDSIM_ROOT`, run from there) does its main jobs from the files it carries; `--seeds DIR` and
/// `FEEDSIM_ROOT` still override them; the process-wide settings are the executable's own.
@Suite(.serialized) struct StandaloneBinaryTests {
    /// An empty directory holding only a copy of the binary.
    let directory: URL
    let binary: URL

    init() throws {
        let built = try #require(ProcessDeterminismTests.binary, "feedsim is built next to the test runner")
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("feedsim-alone-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        binary = directory.appendingPathComponent("feedsim")
        try ExecutableCopy.copy(built.path, to: binary.path)  // not in this process: see ExecutableCopy
    }

    /// Runs the copy in `directory` with `FEEDSIM_ROOT` removed (plus `environment`); returns the
    /// exit status, stdout and stderr.
    func feedsim(_ arguments: [String], environment extra: [String: String] = [:]) throws
        -> (status: Int32, stdout: String, stderr: String)
    {
        let name = UUID().uuidString
        let outURL = directory.appendingPathComponent("\(name).out")
        let errURL = directory.appendingPathComponent("\(name).err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        environment["FEEDSIM_ROOT"] = nil
        environment.merge(extra) { $1 }
        process.environment = environment
        process.standardOutput = out
        process.standardError = err
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        return (
            process.terminationStatus, try String(contentsOf: outURL, encoding: .utf8),
            try String(contentsOf: errURL, encoding: .utf8)
        )
    }

    /// What the directory holds besides the binary, sorted.
    func leftovers() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0 != "feedsim" }.sorted()
    }

    @Test func copiedBinaryRunsDemoSeedStatsReplayAndLoadFromAnEmptyDirectory() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let demo = try feedsim(["demo"])
        #expect(demo.status == 0, "\(demo.stderr)")
        // The demo's three replays, from the traces and the Wikimedia feed the binary carries.
        #expect(demo.stdout.contains("trace Seeds/traces/flutter-velocity-tracker-drags.jsonl, feed 'photos'"))
        #expect(demo.stdout.contains("trace Seeds/traces/chrome-wheel.jsonl, feed 'wikimedia'"))

        let seed = try feedsim(["seed", "--db", "feed.sqlite", "--preset", "news", "--count", "600"])
        #expect(seed.status == 0, "\(seed.stderr)")
        let stats = try feedsim(["stats", "--db", "feed.sqlite"])
        #expect(stats.status == 0, "\(stats.stderr)")
        #expect(stats.stdout.hasPrefix("feed.sqlite: schema version 1, 1 feed(s), 600 items"))

        let synth = try feedsim(["trace", "synth", "--model", "skimmer", "--duration", "5", "--seed", "3", "-o", "t.jsonl"])
        #expect(synth.status == 0, "\(synth.stderr)")
        let replay = try feedsim(["replay", "--db", "feed.sqlite", "--trace", "t.jsonl", "--json"])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout.contains("\"frames\""))

        let load = try feedsim([
            "load", "--db", "feed.sqlite", "--sessions", "2", "--duration", "1", "--time-scale", "max",
            "--trace-duration", "2", "--writers", "1", "--write-rate", "20", "--json",
        ])
        #expect(load.status == 0, "\(load.stderr)")
        #expect(load.stdout.contains("\"pages\""))
        #expect(try leftovers() == ["feed.sqlite", "feed.sqlite-shm", "feed.sqlite-wal", "t.jsonl"].filter {
            FileManager.default.fileExists(atPath: directory.appendingPathComponent($0).path)
        })
    }

    @Test func seedsDirectoryAndPackageRootOverrideTheEmbeddedFiles() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        // A seeds directory with one preset of its own: `news` exists only in the embedded copy.
        let seeds = directory.appendingPathComponent("MySeeds", isDirectory: true)
        try FileManager.default.createDirectory(at: seeds, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: RealData.packageRoot.appendingPathComponent("Seeds/photos.json"), to: seeds.appendingPathComponent("tiles.json"))
        let own = try feedsim(["--seeds", seeds.path, "seed", "--db", "a.sqlite", "--preset", "tiles", "--count", "10"])
        #expect(own.status == 0, "\(own.stderr)")
        let missing = try feedsim(["--seeds", seeds.path, "seed", "--db", "b.sqlite", "--preset", "news", "--count", "10"])
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("--preset: unknown preset 'news' (tiles)"), "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("b.sqlite").path))
        // FEEDSIM_ROOT names a package root: its Schema/ and Seeds/ are read instead.
        let root = try feedsim(
            ["seed", "--db", "c.sqlite", "--preset", "news", "--count", "10"], environment: ["FEEDSIM_ROOT": directory.path])
        #expect(root.status == 1)
        #expect(root.stderr.contains(directory.appendingPathComponent("Seeds").path), "\(root.stderr)")
        let badSeeds = try feedsim(["--seeds", "NoSuchDir", "stats", "--db", "a.sqlite"])
        #expect(badSeeds.status == 1)
        #expect(badSeeds.stderr == "feedsim: --seeds: NoSuchDir: directory not found\n")
    }

    @Test func executableMakesTheProcessWideSettingsAtStart() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let bench = try feedsim(["bench", "store", "--count", "100", "--repetitions", "1"])
        #expect(bench.status == 0, "\(bench.stderr)")
        #expect(bench.stdout.contains("process settings: SQLite memory statistics off, glibc trim threshold 64 MiB"))
    }
}
