import FeedHTTP
import FeedLoad
import FeedModel
import FeedPostgres
import FeedStore
import Foundation

/// `feedsim load --source URL --convention NAME|FILE`: the load's sessions and writers against an
/// HTTP feed API instead of a database (``FeedHTTP/HTTPSourceConnector``).
enum LoadSource {
    /// `--session` and `--page-budget`: what each session does (any backend).
    static let specs: [OptionSpec] = [
        OptionSpec(
            "--session", .value, "KIND",
            help: "replay (default): each session replays a trace; pagination: each session pages down the feed as "
                + "fast as the backend answers (Init, then More), with the rows of each page, for --page-budget pages."),
        OptionSpec(
            "--page-budget", "N", accepts: .integer(1...1_000_000), default: "50",
            help: "Pagination sessions: page requests per session (then a new session starts)."),
    ]

    /// The session kind `--session` names. - Throws: ``UsageError``.
    static func sessionKind(_ arguments: ParsedArguments) throws -> SessionKind {
        switch arguments.value("--session") ?? "replay" {
        case "replay":
            if arguments.value("--page-budget") != nil { throw UsageError("--page-budget needs --session pagination") }
            return .replay
        case "pagination": return .pagination(pageBudget: try arguments.int("--page-budget") ?? 50)
        case let other: throw UsageError("--session: expected replay or pagination, got '\(other)'")
        }
    }

    /// Usage checks of `--source` with the load's other options, before anything is opened:
    /// `--db` and `--source` exclude each other; writers need the convention's insert request (and
    /// its delete request unless `--keep-writes`); an update in `--write-mix` has no HTTP request;
    /// OFFSET pages are a database's.
    /// - Throws: ``UsageError``; ``CommandFailure`` for an unreadable convention file.
    static func check(_ arguments: ParsedArguments, writers: Int, writeMix: WriteMix) throws -> Convention? {
        guard arguments.value("--source") != nil else {
            try SourceOptions.requireSource(arguments)
            return nil
        }
        if arguments.value("--db") != nil { throw UsageError("give --db or --source, not both", showsUsage: false) }
        try SourceOptions.checkValues(arguments)
        let convention: Convention
        do { convention = try Convention.load(arguments.value("--convention") ?? "feedsim") } catch let error as ConventionError {
            throw CommandFailure(error.message)
        }
        if arguments.value("--pagination") == "offset" {
            throw UsageError("--pagination offset: an HTTP feed API is paged by its own cursors (keyset only)", showsUsage: false)
        }
        if writers > 0 {
            guard convention.insert != nil else {
                throw UsageError(
                    "--writers: the '\(convention.name)' convention has no insert request (give a convention file with "
                        + "\"insert\", or --writers 0)", showsUsage: false)
            }
            if writeMix.update > 0 {
                throw UsageError("--write-mix: an HTTP feed API has no update request; use insert and delete only", showsUsage: false)
            }
            if convention.delete == nil, writeMix.delete > 0 || !arguments.flag("--keep-writes") {
                throw UsageError(
                    "--writers: the '\(convention.name)' convention has no delete request, so the writers cannot remove "
                        + "their items: add --keep-writes (and no deletes in --write-mix)", showsUsage: false)
            }
        }
        return convention
    }

    /// The connector for `--source`: headers from `--header` and `--header-env`, `--timeout-ms`, and
    /// `--truth-db` (a SQLite file or a postgresql:// URI, as `--db`) as the independent ground truth.
    /// - Throws: ``CommandFailure`` for a bad URL, header or truth database.
    static func connector(
        _ arguments: ParsedArguments, convention: Convention, configuration: LoadConfiguration
    ) throws -> HTTPSourceConnector {
        let headers = try SourceOptions.requestHeaders(arguments)
        var truth: (any FeedBackendConnector)?
        if let path = arguments.value("--truth-db") {
            if case .postgresURI(let uri) = FeedDatabase.Target(path) {
                // As `--db`: a PostgreSQL URI through FeedDatabase's migrations, the feed checked on a first connection.
                let connector = PostgresConnector(
                    conninfo: uri, migrator: try FeedDatabase.postgresMigrator(), feed: configuration.feedName)
                _ = try FeedDatabase.interruptible { try connector.connect() }
                truth = connector
            } else {
                guard FileManager.default.fileExists(atPath: path) else { throw CommandFailure("--truth-db \(path): no such file") }
                truth = try SQLiteConnector(path: path, feedName: configuration.feedName)
            }
        }
        do {
            let connector = try HTTPSourceConnector(
                source: configuration.path, convention: convention, feed: configuration.feedName, headers: headers,
                timeoutMs: try arguments.int("--timeout-ms") ?? 10_000, tls: SourceOptions.tls(arguments), truth: truth)
            // An API nothing answers for ends here, in one line: otherwise every session would fail at
            // once and be replaced for the whole --duration (17,419 sessions in 2 s against a closed port).
            try connector.probe()
            return connector
        } catch let error as HTTPSourceError {
            throw CommandFailure("--source: no answer from \(error.url): \(error.detail)")
        } catch let error as ConventionError {
            throw CommandFailure(error.message)
        } catch let error as HTTPClientError {
            throw CommandFailure(error.message)
        }
    }

    /// The problems the run's sessions found, for the report (call after the run).
    static func problems(_ connector: HTTPSourceConnector) -> LoadReport.SourceProblems {
        let audit = connector.combinedAudit()
        return LoadReport.SourceProblems(
            url: connector.pageURL, convention: connector.convention.name, requests: audit.requestMs.count,
            httpVersions: audit.httpVersions, problems: Dictionary(uniqueKeysWithValues: audit.counts.map { ($0.key.rawValue, $0.value) }),
            examples: audit.examples.map { "\($0.problem.rawValue) \($0.url): \($0.detail)" },
            skipsChecked: connector.checksSkips)
    }
}
