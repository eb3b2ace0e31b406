import FeedHTTP
import FeedModel
import FeedStore
import Foundation

/// `--source URL --convention NAME|FILE` and friends, shared by `page` and `replay`: an HTTP feed
/// API as the backend instead of `--db`.
enum SourceOptions {
    static let specs: [OptionSpec] = [
        OptionSpec("--source", .value, "URL", help: "Read pages from an HTTP feed API instead of --db."),
        OptionSpec(
            "--convention", .value, "NAME|FILE",
            help: "How the API pages: " + Convention.presetNames.joined(separator: " | ") + " or a JSON file (default feedsim)."),
        OptionSpec("--header", .repeated, "'K: V'", help: "A request header for --source (repeatable)."),
        OptionSpec(
            "--header-env", .repeated, "VAR",
            help: "A request header read from environment variable VAR ('K: V'), so secrets stay off the command line."),
        OptionSpec("--timeout-ms", "MS", accepts: .integer(1...600_000), default: "10000", help: "Per-request timeout for --source."),
        OptionSpec(
            "--cacert", "FILE", accepts: .path,
            help: "Trust the certificate authorities in this PEM file for an https --source (a self-signed server's certificate)."),
        OptionSpec("--insecure", .flag, help: "Do not check an https --source's certificate (encrypted, not authenticated)."),
        OptionSpec(
            "--truth-db", "PATH", accepts: .path,
            help: "The database behind --source, for an independent ground truth (finds skipped items): a SQLite file, "
                + "or with load also a postgresql:// URI."),
    ]

    /// The HTTP backend named by `--source`, or `nil` when it is absent.
    /// - Throws: ``UsageError`` when `--db` is given too; ``CommandFailure`` for a bad convention,
    ///   header or truth database.
    static func backend(_ arguments: ParsedArguments, feed: String) throws -> HTTPFeedBackend? {
        guard let source = arguments.value("--source") else {
            try requireSource(arguments)
            return nil
        }
        if arguments.value("--db") != nil { throw UsageError("give --db or --source, not both") }
        try checkValues(arguments)
        let headers = try requestHeaders(arguments)
        let timeout = try arguments.int("--timeout-ms") ?? 10_000
        do {
            let convention = try Convention.load(arguments.value("--convention") ?? "feedsim")
            let client = try HTTPClient(headers: headers, timeoutMs: timeout, tls: tls(arguments))
            var truth: (any FeedBackend)?
            if let path = arguments.value("--truth-db") {
                let store = try StoreCommandSupport.openExisting(path)
                truth = store.pages(feed: try store.requireFeed(named: feed))
            }
            return try HTTPFeedBackend(source: source, convention: convention, client: client, feed: feed, truth: truth)
        } catch let error as ConventionError {
            throw CommandFailure(error.message)
        } catch let error as HTTPClientError {
            throw CommandFailure(error.message)
        }
    }

    /// Usage checks of `--source`, `--header` and `--convention` values, before anything is read: an
    /// URL whose scheme is not http or https, a header line without a colon or with a line break, a
    /// convention that is neither a preset nor an existing file.
    /// - Throws: ``UsageError`` (exit 64), with "did you mean" for a near scheme or preset name.
    static func checkValues(_ arguments: ParsedArguments) throws {
        if let source = arguments.value("--source") {
            let scheme = source.range(of: "://").map { String(source[..<$0.lowerBound]) }
            if scheme.map({ !["http", "https"].contains($0.lowercased()) }) ?? true {
                let near = scheme.flatMap { nearestName(to: $0.lowercased(), among: ["http", "https"]) }
                    .map { " (did you mean '\($0)://'?)" } ?? ""
                throw UsageError.badValue("--source", "expected an http:// or https:// URL, got '\(source)'\(near)")
            }
            // The rest as RFC 3986 has it: a host, a port of 1...65535, no space (libcurl's own
            // words came at the first request, exit 1).
            guard !source.contains(where: { $0.isWhitespace || $0.asciiValue.map { $0 < 0x20 } == true }),
                let url = URLComponents(string: source), let host = url.host, !host.isEmpty
            else {
                throw UsageError.badValue("--source", "'\(source)' is not a URL with a host (no spaces; %20 for one)")
            }
            if let port = url.port, !(1...65_535).contains(port) {
                throw UsageError.badValue("--source", "port \(port) is outside 1...65535")
            }
            // Both: the certificate would be checked against --cacert and not checked at all.
            if arguments.flag("--insecure"), arguments.value("--cacert") != nil {
                throw UsageError("--insecure skips the certificate check --cacert sets up: give one of them", showsUsage: false)
            }
            // The URL is printed in summaries and walk output and kept in the JSON report: a
            // password in it was shown and stored in clear.
            if url.user != nil || url.password != nil {
                throw UsageError.badValue(
                    "--source",
                    "credentials in the URL would be printed and stored in the report; pass them in a header from the environment "
                        + "(--header-env VAR, VAR='Authorization: Basic …')")
            }
        }
        for line in arguments.all("--header") where !HTTPClient.isHeaderLine(line) {
            throw UsageError.badValue("--header", "expected 'Name: value' on one line, got '\(line)'")
        }
        // A value that names a file (a path, or a .json name) is read as one: missing, it is exit 1
        // as every missing input file is; anything else that is no preset is a usage error.
        if let name = arguments.value("--convention"), Convention.preset(named: name) == nil,
            !name.contains("/"), !name.hasSuffix(".json"), !FileManager.default.fileExists(atPath: name)
        {
            let near = nearestName(to: name, among: Convention.presetNames).map { "did you mean '\($0)'? " } ?? ""
            throw UsageError.badValue(
                "--convention",
                "'\(name)' is neither a preset nor a file (\(near)presets: \(Convention.presetNames.joined(separator: ", ")))")
        }
    }

    /// Refuses the `--source` options without `--source`. - Throws: ``UsageError``.
    static func requireSource(_ arguments: ParsedArguments) throws {
        for name in ["--convention", "--header", "--header-env", "--truth-db", "--timeout-ms", "--cacert"]
        where arguments.value(name) != nil {
            throw UsageError("\(name) needs --source")
        }
        if arguments.flag("--insecure") { throw UsageError("--insecure needs --source") }
    }

    /// The request headers of `--header` and `--header-env` (each variable's value a `Name: value`
    /// line; a bad value is named by its variable, never shown: it is usually a secret).
    /// - Throws: ``CommandFailure`` for a variable that is not set or does not hold one header line.
    static func requestHeaders(_ arguments: ParsedArguments) throws -> [String] {
        var headers = arguments.all("--header")
        for variable in arguments.all("--header-env") {
            guard let line = ProcessInfo.processInfo.environment[variable], !line.isEmpty else {
                throw CommandFailure("--header-env \(variable): the environment variable is not set")
            }
            guard HTTPClient.isHeaderLine(line) else {
                throw CommandFailure(
                    "--header-env \(variable): the variable does not hold one 'Name: value' line (its value is not shown)")
            }
            headers.append(line)
        }
        return headers
    }

    /// `--cacert FILE` and `--insecure` (curl's names).
    static func tls(_ arguments: ParsedArguments) -> HTTPClient.TLSOptions {
        HTTPClient.TLSOptions(caFile: arguments.value("--cacert"), insecure: arguments.flag("--insecure"))
    }

    /// The audit as lines for stderr.
    static func auditText(_ backend: HTTPFeedBackend) -> String {
        (["http source \(backend.source) (convention \(backend.convention.name))"]
            + backend.audit.textLines.map { "  " + $0 }).joined(separator: "\n")
    }
}
