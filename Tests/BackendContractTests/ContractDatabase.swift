import FeedModel
import FeedSimTestSupport
import Foundation
import Testing

@testable import FeedPostgres
@testable import FeedStore

/// The backends every contract test runs on.
enum BackendKind: String, CaseIterable, CustomStringConvertible {
    case sqlite, postgresql
    var description: String { rawValue }
}

/// The throwaway PostgreSQL server of the test run: `FEEDSIM_TEST_POSTGRES` (a URI), exported by
/// `.ci/run` (which starts one with `.ci/postgres start`). Tests that need it skip without it.
enum TestPostgres {
    static let uri: String? = {
        let value = ProcessInfo.processInfo.environment["FEEDSIM_TEST_POSTGRES"] ?? ""
        return value.isEmpty ? nil : value
    }()

    static let skipMessage =
        "FEEDSIM_TEST_POSTGRES not set: start a server with `eval \"$(.ci/postgres start)\"` (as .ci/run does)"

    static let migrator: PostgresMigrator = {
        do {
            return try PostgresMigrator(directory: RealData.packageFile("Schema/postgres"))
        } catch {
            fatalError("Schema/postgres: \(error)")  // the package's own files: a broken checkout
        }
    }()

    /// Runs `sql` (the test's own text, never input) on an administrative connection.
    static func administer(_ sql: String) throws {
        let connection = try PostgresConnection(try #require(uri))
        try connection.execute(sql)
    }
}

/// Skips a test, with a message, when no PostgreSQL server was given.
let postgresAvailable = Testing.ConditionTrait.enabled(if: TestPostgres.uri != nil, "\(TestPostgres.skipMessage)")

/// A fresh, empty database of one kind: a SQLite file in a temporary directory, or a PostgreSQL
/// schema of its own (`search_path` set on every connection) in the test server's database, so
/// tests run side by side and each id sequence starts at 1. `cleanUp()` removes it.
final class ContractDatabase {
    let kind: BackendKind
    private let directory: URL?
    /// The PostgreSQL schema, `nil` for SQLite.
    let schema: String?

    init(_ kind: BackendKind) throws {
        self.kind = kind
        switch kind {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("feedsim-contract-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            self.directory = directory
            schema = nil
        case .postgresql:
            let name = "feedsim_t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
            try TestPostgres.administer("CREATE SCHEMA \(name)")
            directory = nil
            schema = name
        }
    }

    var sqlitePath: String { directory?.appendingPathComponent("test.sqlite").path ?? "" }

    /// libpq settings that put a connection into this database's schema.
    var postgresSettings: [(String, String)] { [("options", "-c search_path=\(schema ?? "public")")] }

    /// A new connection bound to the feed `name` (created when missing): one per thread.
    func open(feed name: String) throws -> any FeedBackend {
        switch kind {
        case .sqlite:
            let store = try ItemStore(path: sqlitePath)
            return store.pages(feed: try store.createFeed(named: name))
        case .postgresql:
            let store = try openPostgres()
            return store.backend(feed: try store.createFeed(named: name))
        }
    }

    /// A new PostgreSQL store on this database's schema.
    func openPostgres(migrator: PostgresMigrator = TestPostgres.migrator) throws -> PostgresStore {
        try PostgresStore(conninfo: try #require(TestPostgres.uri), settings: postgresSettings, migrator: migrator)
    }

    func cleanUp() {
        if let directory { try? FileManager.default.removeItem(at: directory) }
        if let schema { try? TestPostgres.administer("DROP SCHEMA \(schema) CASCADE") }
    }
}

/// The items of a feed as the test believes them to be, with brute-force pages to compare against
/// (plain sorts and filters, no cursor arithmetic shared with the backends).
struct FeedOracle {
    var items: [Item] = []

    var feedOrder: [Item] {
        items.sorted { ($0.publishedAt, $0.id) > ($1.publishedAt, $1.id) }
    }

    func older(than cursor: Cursor) -> [Item] {
        feedOrder.filter { ($0.publishedAt, $0.id) < (cursor.publishedAt, cursor.id) }
    }

    func newer(than cursor: Cursor) -> [Item] {
        feedOrder.filter { ($0.publishedAt, $0.id) > (cursor.publishedAt, cursor.id) }
    }

    func newestPage(limit: Int) -> Page {
        Page(items: Array(feedOrder.prefix(limit)), hasMoreBefore: false, hasMoreAfter: items.count > limit)
    }

    func afterPage(_ cursor: Cursor, limit: Int) -> Page {
        let older = older(than: cursor)
        let items = Array(older.prefix(limit))
        return Page(
            items: items, hasMoreBefore: !newer(than: items.first?.cursor ?? cursor).isEmpty,
            hasMoreAfter: older.count > limit)
    }

    func beforePage(_ cursor: Cursor, limit: Int) -> Page {
        let newer = newer(than: cursor)
        let items = Array(newer.suffix(limit))
        return Page(
            items: items, hasMoreBefore: newer.count > limit,
            hasMoreAfter: !older(than: items.last?.cursor ?? cursor).isEmpty)
    }
}

/// A minimal valid item for tests.
func stub(id: Int64?, at publishedAt: Int64, kind: String = "photo") -> NewItem {
    NewItem(id: id, publishedAt: publishedAt, kind: kind, width: 100, height: 50, title: "t\(id ?? 0)")
}

extension NewItem {
    /// The stub the backend must serve for this item (its id given).
    var expectedStub: Item {
        Item(id: id ?? 0, publishedAt: publishedAt, kind: kind, width: width, height: height)
    }
}
