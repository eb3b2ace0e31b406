import FeedLoad
import FeedStore
import Foundation

let loadCommand = Command(
    name: "load",
    summary: "Load-test pagination: many scroll sessions on real threads against one store, with writers.",
    usage: "load --db PATH [--sessions N | --arrival-rate R --sessions SLOTS] [--duration S] [--time-scale K|max] "
        + "[--writers W --write-rate R] [--pagination keyset|offset] [--json]",
    options: [
        OptionSpec("--db", .value, "PATH", help: "Seeded SQLite database file (see feedsim seed)."),
        OptionSpec("--feed", .value, "NAME", help: "Feed to scroll and write (default home)."),
        OptionSpec("--sessions", .value, "N", help: "Closed model: N concurrent sessions; open model: N slots (default 8)."),
        OptionSpec(
            "--arrival-rate", .value, "R",
            help: "Open model: R session arrivals per second; arrivals finding no free slot are dropped."),
        OptionSpec("--duration", .value, "SECONDS", help: "Stop after this many wall seconds (default 10)."),
        OptionSpec(
            "--time-scale", .value, "K|max",
            help: "Wall seconds per session second: 1 real time, 0.1 ten times faster, max no waiting (default 1)."),
        OptionSpec(
            "--profile", .value, "LIST",
            help: "Scroll profiles, comma separated, used in turn: reader, skimmer, flinger (default all three)."),
        OptionSpec("--pagination", .value, "MODE", help: "keyset (default) or offset (the baseline that breaks)."),
        OptionSpec("--page-size", .value, "N", help: "Items per page (default 20)."),
        OptionSpec("--writers", .value, "W", help: "Writer threads inserting at the feed's head (default 0)."),
        OptionSpec("--write-rate", .value, "R", help: "Items per second over all writers (default 10)."),
        OptionSpec("--write-batch", .value, "N", help: "Items per BEGIN IMMEDIATE transaction (default 1)."),
        OptionSpec("--writer-preset", .value, "NAME", help: "Preset shaping written items (default mixed)."),
        OptionSpec("--workers", .value, "N", help: "Session threads (default: active processors)."),
        OptionSpec("--seed", .value, "S", help: "Seed of the writers' item generators (default 1)."),
        OptionSpec("--json", .flag, help: "Print the report as JSON (sorted keys)."),
    ],
    run: { arguments in
        let configuration = try LoadCommandSupport.configuration(arguments)
        let stop = StopSignal()
        stop.installInterruptHandler()
        let runner = try LoadRunner(configuration: configuration, stop: stop)
        let report = LoadCommandSupport.runWithProgress(runner)
        print(arguments.flag("--json") ? try report.json() : report.text, terminator: arguments.flag("--json") ? "\n" : "")
        return report.hasViolations ? 2 : 0
    }
)

enum LoadCommandSupport {
    /// The load configuration from the command line. - Throws: ``UsageError`` or ``CommandFailure``.
    static func configuration(_ arguments: ParsedArguments) throws -> LoadConfiguration {
        let path = try arguments.required("--db")
        guard FileManager.default.fileExists(atPath: path) else {
            throw CommandFailure("\(path): no such database (create one with feedsim seed)")
        }
        let sessions = try arguments.int("--sessions", default: 8, in: 1...100_000) ?? 8
        let model: ArrivalModel
        if let rate = try arguments.double("--arrival-rate", in: 0.001...1_000_000) {
            model = .open(ratePerSecond: rate, slots: sessions)
        } else {
            model = .closed(sessions: sessions)
        }
        var timeScale: Double? = 1
        if let text = arguments.value("--time-scale") {
            if text == "max" {
                timeScale = nil
            } else {
                timeScale = try arguments.double("--time-scale", in: 0.000_001...1_000)
            }
        }
        var profiles = ScrollProfile.presets
        if let text = arguments.value("--profile") {
            profiles = try text.split(separator: ",").map { name in
                guard let profile = ScrollProfile.named(String(name)) else {
                    throw CommandFailure("--profile: unknown profile '\(name)' (reader, skimmer, flinger)")
                }
                return profile
            }
            if profiles.isEmpty { throw CommandFailure("--profile: expected reader, skimmer or flinger") }
        }
        let paginationText = arguments.value("--pagination") ?? "keyset"
        guard let pagination = PaginationMode(rawValue: paginationText) else {
            throw CommandFailure("--pagination: expected keyset or offset, got '\(paginationText)'")
        }
        let seedText = arguments.value("--seed") ?? "1"
        guard let seed = UInt64(seedText) else {
            throw CommandFailure("--seed: expected an unsigned 64-bit integer, got '\(seedText)'")
        }
        return LoadConfiguration(
            path: path, feedName: arguments.value("--feed") ?? "home", model: model, profiles: profiles,
            timeScale: timeScale, pagination: pagination,
            pageSize: try arguments.int("--page-size", default: 20, in: 1...10_000) ?? 20,
            durationSeconds: try arguments.double("--duration", default: 10, in: 0.001...86_400) ?? 10,
            workers: try arguments.int("--workers", default: ProcessInfo.processInfo.activeProcessorCount, in: 1...1_024)
                ?? 1,
            writers: try arguments.int("--writers", default: 0, in: 0...1_024) ?? 0,
            writeRate: try arguments.double("--write-rate", default: 10, in: 0.001...10_000_000) ?? 10,
            writeBatch: try arguments.int("--write-batch", default: 1, in: 1...100_000) ?? 1,
            writerPreset: arguments.value("--writer-preset") ?? "mixed", seed: seed)
    }

    /// Runs the load, redrawing a progress line on stderr twice a second when it is a terminal.
    static func runWithProgress(_ runner: LoadRunner) -> LoadReport {
        guard standardErrorIsTerminal else { return runner.run() }
        let finished = DispatchSemaphore(value: 0)
        let thread = Thread {
            while finished.wait(timeout: .now() + 0.5) == .timedOut {
                FileHandle.standardError.write(Data(("\r\u{1B}[K" + runner.progress().line).utf8))
            }
            FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
        }
        thread.start()
        let report = runner.run()
        finished.signal()
        Thread.sleep(forTimeInterval: 0.01)
        return report
    }
}
