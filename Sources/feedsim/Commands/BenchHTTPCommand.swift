import FeedResources
import FeedHTTP
import FeedLoad
import FeedModel
import FeedSimBenchmarks
import FeedStore
import Foundation

let benchHTTPCommand = Command(
    name: "bench http",
    summary: "Benchmark FeedSim's HTTP client (pagination sessions) against wrk on the same pages of feedsim serve (target ≥ 0.5).",
    usage: "bench http [--count N] [--connections C] [--seconds S] [--rounds R] [--threads T] [--json]",
    options: [
        OptionSpec("--count", "N", accepts: .integer(1000...10_000_000), default: "100000", help: "Items to seed."),
        OptionSpec("--connections", "C", accepts: .integer(1...256), default: "4", help: "Connections on each side."),
        OptionSpec("--seconds", "S", accepts: .number(0.5...600), default: "5", help: "Seconds each side runs."),
        OptionSpec(
            "--rounds", "R", accepts: .integer(1...20), default: "3",
            help: "Rounds of both sides, one right after the other; the figure is the median round's ratio."),
        OptionSpec("--threads", "T", accepts: .integer(1...64), default: "2", help: "Server worker threads."),
        OptionSpec("--json", .flag, help: "Print one JSON object."),
    ],
    run: { arguments in
        try arguments.expectNoPositionals()
        let count = try arguments.int("--count") ?? 100_000
        let connections = try arguments.int("--connections") ?? 4
        let seconds = try arguments.double("--seconds") ?? 5
        let threads = try arguments.int("--threads") ?? 2
        let rounds = try arguments.int("--rounds") ?? 3
        guard let wrk = findExecutable("wrk") else {
            throw CommandFailure("bench http needs wrk on the PATH (Debian: apt-get install wrk)")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("feedsim-bench-http-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("feed.sqlite").path
        do {
            let store = try ItemStore(path: db)
            var generator = ItemGenerator(preset: try Preset.named("mixed"), seed: 1)
            try Seeder.seed(store, feedNamed: "home", generator: &generator, count: count)
        }
        signal(SIGPIPE, SIG_IGN)
        let server = try FeedServer(configuration: FeedServer.Configuration(host: "127.0.0.1", port: 0, threads: threads)) {
            try DatabaseCatalog(db)
        }
        defer { server.stop() }
        let source = "http://127.0.0.1:\(server.port)"
        let configuration = HTTPBenchmark.Configuration(connections: connections, seconds: seconds)
        let urls = try HTTPBenchmark.pageURLs(source: source, pageSize: configuration.pageSize, pages: configuration.pagesPerSession)
        let paths = urls.map { $0.replacingOccurrences(of: source, with: "") }
        let script = directory.appendingPathComponent("pages.lua").path
        try HTTPBenchmark.wrkScript(paths: paths).write(toFile: script, atomically: true, encoding: .utf8)
        if standardErrorIsTerminal { printError("bench http: \(count) items, \(urls.count) page URLs; FeedSim sessions…") }
        let workers = min(connections, 2)  // as many threads as wrk's
        // The sides take turns, `rounds` times; each round's ratio sets FeedSim's side beside wrk's
        // measured seconds later, and the median round is the figure: this machine's speed drifts
        // (wrk's best and worst rounds of one run were 13,653 and 9,405 req/s), and pairing each
        // side's best round, as a first version did, paired moments up to a minute apart.
        var measured: [(report: HTTPBenchmark.Report, load: LoadReport)] = []
        for round in 1...rounds {
            if standardErrorIsTerminal { printError("bench http: round \(round) of \(rounds): FeedSim sessions…") }
            let serverCPUAtStart = server.workerCPUSeconds
            var (feedsim, load) = try HTTPLoadSide.run(source: source, database: db, workers: workers, configuration: configuration)
            let serverCPUAfterFeedSim = server.workerCPUSeconds
            feedsim.clientCPUSeconds = load.cpuSeconds
            feedsim.serverCPUSeconds = serverCPUAfterFeedSim - serverCPUAtStart
            if standardErrorIsTerminal { printError("bench http: round \(round) of \(rounds): wrk…") }
            var wrkSide = try runWrk(
                wrk, arguments: [
                    "-t", String(workers), "-c", String(connections), "-d", "\(Int(seconds.rounded(.up)))s", "-s", script, source,
                ])
            wrkSide.serverCPUSeconds = server.workerCPUSeconds - serverCPUAfterFeedSim
            let report = HTTPBenchmark.Report(
                connections: connections, pageSize: configuration.pageSize, urls: urls.count, feedsim: feedsim, wrk: wrkSide)
            measured.append((report, load))
        }
        let median = measured.sorted { $0.report.ratio < $1.report.ratio }[(measured.count - 1) / 2]
        var report = median.report
        let load = median.load
        report.roundRequestsPerSecond = HTTPBenchmark.RoundRates(
            feedsim: measured.map(\.report.feedsim.requestsPerSecond), wrk: measured.map(\.report.wrk.requestsPerSecond))
        let (feedsim, wrkSide) = (report.feedsim, report.wrk)
        if arguments.flag("--json") {
            print(try StoreCommandSupport.json(report))
            return 0
        }
        func line(_ name: String, _ side: HTTPBenchmark.Side) -> String {
            "\(name)\(String(repeating: " ", count: 10 - name.count))"
                + String(format: "%10.0f req/s  %8d requests in %.2f s, %d errors", side.requestsPerSecond, side.requests, side.seconds, side.errors)
        }
        print(
            [
                "bench http: feedsim serve on loopback (\(threads) threads, \(count) items), \(connections) connections each side, "
                    + "pages of \(configuration.pageSize) (\(urls.count) page URLs); ratio = FeedSim ÷ wrk requests/s (target ≥ \(HTTPBenchmark.Report.target))",
                line("feedsim", feedsim),
                line("wrk", wrkSide),
                String(format: "ratio     %.3f", report.ratio) + (report.withinTarget ? "  within target" : "  BELOW TARGET")
                    + " (median of \(rounds) rounds' ratios: "
                    + measured.map { String(format: "%.3f", $0.report.ratio) }.joined(separator: " ") + "; req/s by round: feedsim "
                    + measured.map { String(format: "%.0f", $0.report.feedsim.requestsPerSecond) }.joined(separator: " ") + ", wrk "
                    + measured.map { String(format: "%.0f", $0.report.wrk.requestsPerSecond) }.joined(separator: " ") + ")",
                "FeedSim's side: feedsim load --source pagination sessions (\(connections) sessions of \(configuration.pagesPerSession) "
                    + "pages on \(workers) workers, one libcurl multi handle each; \(load.sessions.completed) sessions completed, "
                    + "\(load.consistency.duplicates) duplicates, \(load.consistency.skips) skips against the served database); "
                    + "wrk: -t \(workers) -c \(connections)",
                String(
                    format: "CPU: feedsim's workers %.2f s (%.0f µs per request), serve meanwhile %.2f s (%.0f µs per request); "
                        + "wrk %.2f s (%.0f µs per request), serve meanwhile %.2f s (%.0f µs per request); load average %@",
                    load.cpuSeconds, feedsim.clientMicrosecondsPerRequest ?? 0, feedsim.serverCPUSeconds ?? 0,
                    feedsim.serverMicrosecondsPerRequest ?? 0, wrkSide.clientCPUSeconds ?? 0, wrkSide.clientMicrosecondsPerRequest ?? 0,
                    wrkSide.serverCPUSeconds ?? 0, wrkSide.serverMicrosecondsPerRequest ?? 0, loadAverage()),
            ].joined(separator: "\n"))
        return 0
    }
)

/// Runs wrk and reads its summary; its CPU is the on-CPU time (user + system) the run added to
/// this process's waited-for children.
/// - Throws: ``CommandFailure`` when wrk's output cannot be read.
private func runWrk(_ wrk: String, arguments: [String]) throws -> HTTPBenchmark.Side {
    func childrenCPU() -> Double {
        var children = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &children)
        return Double(children.ru_utime.tv_sec + children.ru_stime.tv_sec)
            + Double(children.ru_utime.tv_usec + children.ru_stime.tv_usec) / 1e6
    }
    let cpuBefore = childrenCPU()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: wrk)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard var side = HTTPBenchmark.parseWrk(output) else {
        throw CommandFailure("bench http: could not read wrk's output:\n\(output)")
    }
    side.clientCPUSeconds = childrenCPU() - cpuBefore
    return side
}

/// The first executable named `name` on the PATH.
func findExecutable(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
}

/// `/proc/loadavg`'s first three fields (the machine may be shared), or `?`.
func loadAverage() -> String {
    guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return "?" }
    return text.split(separator: " ").prefix(3).joined(separator: " ")
}
