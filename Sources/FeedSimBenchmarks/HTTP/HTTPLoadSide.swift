import FeedEngine
import FeedHTTP
import FeedLoad
import FeedModel
import FeedReplay
import FeedStore
import Foundation

/// FeedSim's side of `feedsim bench http`: the load tester's own pagination sessions
/// (``FeedLoad/PaginationLoadSession`` under ``FeedLoad/LoadRunner``, as `feedsim load --source`
/// runs them) against a running `feedsim serve`, one session per connection of wrk's, each walking
/// ``HTTPBenchmark/Configuration/pagesPerSession`` pages from the newest and then
/// replaced by a new session (the closed model), every answer checked, the consistency check
/// against the served database at the end of each session.
///
/// Rows come from the pages' own fields (the `feedsim` convention without its rows request), so
/// the sessions ask for exactly the page URLs wrk replays: the requests on both sides are the same.
public enum HTTPLoadSide {
    /// The `feedsim` convention with rows read from the pages (no `/v1/items` requests).
    public static var pagesOnlyConvention: Convention {
        var convention = Convention.feedsim
        convention.rows = nil
        convention.rowsItems = nil
        return convention
    }

    /// Runs the sessions for `configuration.seconds` and returns their figures (requests: the page
    /// requests the sessions made; errors: failed requests plus every API problem found).
    /// - Parameters:
    ///   - source: the server's origin (`http://127.0.0.1:PORT`).
    ///   - database: the SQLite file behind it, for the sessions' ground truth.
    ///   - workers: the load tester's worker threads (each with one libcurl multi handle).
    /// - Throws: ``FeedLoad/LoadConfigurationError``, the connector's errors.
    public static func run(
        source: String, database: String, workers: Int, configuration: HTTPBenchmark.Configuration
    ) throws -> (side: HTTPBenchmark.Side, report: LoadReport) {
        var controller = FeedController.Configuration()
        controller.pageSize = configuration.pageSize
        controller.initialLoadPages = 1  // the first page has the size of the others, as in wrk's URLs
        let load = LoadConfiguration(
            path: source, feedName: "home", model: .closed(sessions: configuration.connections),
            session: .pagination(pageBudget: configuration.pagesPerSession),
            replay: ReplayOptions(controller: controller), timeScale: nil,
            durationSeconds: configuration.seconds, workers: workers)
        var connector: HTTPSourceConnector?
        let runner = try LoadRunner(configuration: load) { load in
            let made = try HTTPSourceConnector(
                source: load.path, convention: pagesOnlyConvention, feed: load.feedName, headers: [], timeoutMs: 10_000,
                truth: try SQLiteConnector(path: database, feedName: load.feedName))
            connector = made
            return made
        }
        let report = runner.run()
        let audit = connector?.combinedAudit() ?? SourceAudit()
        let requests = audit.requestMs.count
        let seconds = report.elapsedSeconds
        let errors = audit.problemCount + report.errors.values.reduce(0, +)
        return (
            HTTPBenchmark.Side(
                requests: requests, seconds: seconds, requestsPerSecond: seconds > 0 ? Double(requests) / seconds : 0,
                errors: errors),
            report
        )
    }
}
