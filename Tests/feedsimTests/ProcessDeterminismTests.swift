import FeedSimTestSupport
import Foundation
import Testing

/// Determinism across processes: the built `feedsim` binary run twice, as two separate processes,
/// prints the same bytes. Each process draws its own hash seed (Swift randomizes `Hasher` per
/// process), so Dictionary or Set iteration order leaking into the output shows up here, which an
/// in-process comparison (`ReplayEndToEndTests`) cannot catch.
@Suite struct ProcessDeterminismTests {
    /// The `feedsim` executable next to the test runner (`.build/<configuration>/`), if built.
    static let binary: URL? = {
        var directories: [URL] = []
        if let runner = CommandLine.arguments.first {
            directories.append(URL(fileURLWithPath: runner).deletingLastPathComponent())
        }
        directories.append(Bundle.main.bundleURL.deletingLastPathComponent())
        directories.append(Bundle.main.bundleURL)
        return directories.map { $0.appendingPathComponent("feedsim") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// A fresh temporary directory per test.
    let directory = TemporaryDirectory.make("feedsim-process")

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Runs the binary in a new process with `arguments`; returns its exit status and stdout bytes.
    /// Stdout and stderr go to files (no pipe to fill up); the environment drops
    /// `SWIFT_DETERMINISTIC_HASHING`, so each process gets its own hash seed.
    func feedsim(_ arguments: [String]) throws -> (status: Int32, stdout: Data) {
        let binary = try #require(Self.binary)
        let name = UUID().uuidString
        let outPath = path("\(name).out")
        let errPath = path("\(name).err")
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_DETERMINISTIC_HASHING"] = nil
        process.environment = environment
        process.standardOutput = out
        process.standardError = err
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        let stdout = try Data(contentsOf: URL(fileURLWithPath: outPath))
        if process.terminationStatus != 0 {
            let stderr = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
            Issue.record("feedsim \(arguments.joined(separator: " ")) exited \(process.terminationStatus): \(stderr)")
        }
        return (process.terminationStatus, stdout)
    }

    /// Replay options that exercise what makes determinism hard: lognormal latency, errors and
    /// timeouts with retries, page dropping (5-item pages, at most 20 loaded: the floor for Init
    /// 3 × 5 plus a page, and ≥ 5 + 2 × 5 for the default prefetch of 5 items), a mosaic layout.
    static let replayOptions = [
        "--json", "--kind", "mosaic", "--page-size", "5", "--max-loaded", "20", "--latency", "lognormal:150,0.7",
        "--faults", "error=0.15,timeout=0.05,timeout-ms=2000", "--seed", "99",
    ]

    @Test(.enabled(if: binary != nil, "feedsim binary not found next to the test runner; run `swift build` first"))
    func twoProcessesReplayingTheSameTracesPrintTheSameBytes() throws {
        let db = path("feed.sqlite")
        #expect(try feedsim(["seed", "--db", db, "--preset", "mixed", "--count", "3000", "--seed", "7"]).status == 0)

        // A synthesized refresher: pulls to refresh, each after upstream inserts. Synthesized twice,
        // in two processes: the same bytes.
        let refresher = path("refresher.jsonl")
        let synth = ["trace", "synth", "--model", "refresher", "--duration", "60", "--seed", "11"]
        #expect(try feedsim(synth + ["-o", refresher]).status == 0)
        #expect(try feedsim(synth + ["-o", path("refresher-again.jsonl")]).status == 0)
        let refresherBytes = try Data(contentsOf: URL(fileURLWithPath: refresher))
        #expect(refresherBytes == (try Data(contentsOf: URL(fileURLWithPath: path("refresher-again.jsonl")))))
        #expect(String(decoding: refresherBytes, as: UTF8.self).contains(#""type":"insert""#))

        let shipped = RealData.packageFile("Seeds/traces/aosp-velocitytracker-flings.jsonl").path
        for trace in [shipped, refresher] {
            let arguments = ["replay", "--db", db, "--trace", trace] + Self.replayOptions
            let first = try feedsim(arguments)
            let second = try feedsim(arguments)
            #expect(first.status == 0)
            #expect(second.status == first.status)
            #expect(!first.stdout.isEmpty)
            #expect(first.stdout == second.stdout, "stdout differs between two processes replaying \(trace)")

            // The runs exercised faults, retries, More and page dropping: a prepend only happens
            // after pages were dropped at the top (Init and Refresh leave the top at its end).
            let report = try #require(try JSONSerialization.jsonObject(with: first.stdout) as? [String: Any])
            let pages = try #require(report["pages"] as? [String: Int])
            #expect(pages["failures", default: 0] + pages["retries", default: 0] > 0, "\(trace)")
            #expect(pages["more", default: 0] > 0, "\(trace)")
            #expect(pages["prepend", default: 0] > 0, "\(trace)")
            #expect((report["violations"] as? [Any])?.isEmpty == true, "\(trace)")
            if trace == refresher {
                #expect(pages["refresh", default: 0] > 0)
            }
        }
        try? FileManager.default.removeItem(at: directory)
    }
}
