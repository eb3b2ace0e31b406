import FeedHTTP
import FeedReplay
import Foundation
import Synchronization

/// `feedsim serve`: a seeded database as a JSON feed API, with injected latency and faults.
let serveCommand = Command(
    name: "serve",
    summary: "Serve a database as an HTTP feed API (JSON pages by cursor, rows, inserts, placeholder images).",
    usage: "serve --db PATH|URI [--listen HOST:PORT] [--latency M] [--faults F] [--seed S] [--threads N] [--access-log FILE]",
    options: [
        OptionSpec(
            "--db", "PATH|URI", accepts: .path,
            help: "The database to serve (made by feedsim seed or import): a SQLite file or a postgresql:// URI."),
        OptionSpec("--listen", .value, "HOST:PORT", help: "Address to listen on (default 127.0.0.1:8080; port 0: any free port)."),
        OptionSpec(
            "--latency", .value, "MODEL",
            help: "Hold each response: fixed:MS | uniform:MIN,MAX | lognormal:MEDIAN,SIGMA | table:P=MS,... (default none)."),
        OptionSpec(
            "--faults", .value, "SPEC",
            help: "error=P (500), rate-limit=P (429), retry-after=S, timeout=P, timeout-ms=MS (held, then closed), "
                + "outage=START-END (503, ms since start) (default none)."),
        OptionSpec(
            "--seed", "S", accepts: .seed, default: "1",
            help: "Seed of the per-request draws: request n gets the same draws in every run."),
        OptionSpec(
            "--threads", "N", accepts: .integer(1...256), default: "4",
            help: "Worker threads, each with its own database connection."),
        OptionSpec("--access-log", "FILE", accepts: .output, help: "Append one line per request (Common Log Format plus ms); - for stderr."),
    ],
    run: { arguments in
        try arguments.expectNoPositionals()
        let path = try arguments.required("--db")
        // Usage first: a value an option cannot take is refused before the database is opened.
        let (host, port) = try parseListen(arguments.value("--listen") ?? "127.0.0.1:8080")
        let latency: LatencyModel?
        do {
            latency = try arguments.value("--latency").map(LatencyModel.parse)
        } catch let error as ModelParseError {
            throw UsageError(error.description, showsUsage: false)
        }
        let faults = try ServeFaults.parse(arguments.value("--faults") ?? "none")
        if case .sqlitePath = FeedDatabase.Target(path) { try StoreCommandSupport.requireDatabaseFile(path) }
        // Fail now, not at the first request, when it is not a FeedSim database or cannot be reached.
        let shownName = try DatabaseCatalog(path).database.name
        let seed = try ReplayOptionsParsing.seed(arguments)
        let threads = try arguments.int("--threads") ?? 4
        var accessLog: AccessLog?
        if let logPath = arguments.value("--access-log") {
            accessLog = logPath == "-" ? AccessLog(descriptor: STDERR_FILENO) : try AccessLog(path: logPath)
        }
        let injects = latency != nil || arguments.value("--faults").map { $0 != "none" } == true
        let configuration = FeedServer.Configuration(
            host: host, port: port, threads: threads,
            planner: injects ? faults.planner(latency: latency, seed: seed) : nil, accessLog: accessLog)

        // SIGINT / SIGTERM: stop accepting, finish what is in flight, exit 0.
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        signal(SIGPIPE, SIG_IGN)
        // The first signal starts the drain; a second answers held requests and stops at once.
        let stop = DispatchSemaphore(value: 0)
        let signals = ServeSignals()
        let sources = [SIGINT, SIGTERM].map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                if signals.count.wrappingAdd(1, ordering: .relaxed).oldValue == 0 {
                    stop.signal()
                } else {
                    printError("feedsim serve: second signal: answering held requests now")
                    signals.server.withLock { $0 }?.stopNow()
                }
            }
            source.resume()
            return source
        }
        let server: FeedServer
        do {
            server = try FeedServer(configuration: configuration) { try DatabaseCatalog(path) }
        } catch let error as FeedServerError {
            throw CommandFailure(error.description)
        }
        signals.server.withLock { $0 = server }
        let shownHost = host.contains(":") ? "[\(host)]" : host
        FileHandle.standardOutput.write(
            Data("feedsim serve: listening on http://\(shownHost):\(server.port) (\(shownName), \(threads == 1 ? "1 thread" : "\(threads) threads"))\n".utf8))
        stop.wait()
        printError("feedsim serve: stopping; finishing requests in flight")
        server.stop()
        let received = server.requestsReceived
        printError("feedsim serve: stopped after \(received) \(received == 1 ? "request" : "requests")")
        withExtendedLifetime(sources) {}
        return 0
    }
)

/// What `serve`'s signal handlers share: how many signals came, and the server to hurry.
private final class ServeSignals: Sendable {
    let count = Atomic<Int>(0)
    let server = Mutex<FeedServer?>(nil)
}
