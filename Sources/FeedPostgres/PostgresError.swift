import FeedModel
import Foundation

/// An error reported by PostgreSQL (or by libpq on its behalf), captured the moment it happened.
///
/// Carries the SQLSTATE (<https://www.postgresql.org/docs/current/errcodes-appendix.html>), the
/// server's primary message and detail (`PQresultErrorField`, copied at once, before the result is
/// cleared), the SQL that failed and the database it ran on. Callers branch on ``sqlState``, never
/// on the English text.
public struct PostgresError: Error, CustomStringConvertible, Sendable, Equatable {
    /// Five characters such as `23505` (unique violation); `nil` when libpq failed before the
    /// server answered (connection lost, out of memory).
    public var sqlState: String?
    /// The primary message.
    public var message: String
    /// The optional detail line (e.g. which key was duplicated).
    public var detail: String?
    /// The statement that failed, when there was one.
    public var sql: String?
    /// The database, as `host:port/dbname` (never the password).
    public var database: String

    public init(sqlState: String?, message: String, detail: String? = nil, sql: String?, database: String) {
        self.sqlState = sqlState
        self.message = message
        self.detail = detail
        self.sql = sql
        self.database = database
    }

    /// `23505`: a UNIQUE or PRIMARY KEY constraint failed.
    public var isUniqueViolation: Bool { sqlState == "23505" }
    /// Class `23`: an integrity constraint (CHECK, NOT NULL, FOREIGN KEY, UNIQUE) failed.
    public var isConstraintViolation: Bool { sqlState?.hasPrefix("23") ?? false }
    /// `42P07` (duplicate table) or `42710` (duplicate object): a concurrent migration won the race.
    public var isDuplicateObject: Bool { sqlState == "42P07" || sqlState == "42710" }
    /// `40001` (serialization failure) or `40P01` (deadlock): the transaction may be retried.
    public var isRetryable: Bool { sqlState == "40001" || sqlState == "40P01" }

    public var description: String {
        var text = "\(database): \(message)"
        if let detail { text += " (\(detail))" }
        if let sqlState { text += " [SQLSTATE \(sqlState)]" }
        if let sql {
            let oneLine = sql.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
                .joined(separator: " ")
            text += " in: \(oneLine.count > 160 ? oneLine.prefix(157) + "..." : Substring(oneLine))"
        }
        return text
    }
}

/// Errors about a PostgreSQL database as a whole or about the caller's request, as opposed to one
/// failed statement (``PostgresError``).
public enum PostgresStoreError: Error, CustomStringConvertible, Sendable, Equatable {
    /// libpq could not connect (bad URI, no server, authentication failed): libpq's own message.
    case connectionFailed(target: String, message: String)
    /// The server is older than FeedSim supports (`server_version_num` below `minimum`).
    case unsupportedServer(database: String, version: Int, minimum: Int)
    /// The schema was written by a newer FeedSim: `feedsim_schema` holds a version above the newest migration.
    case newerSchema(database: String, version: Int, newestKnown: Int)
    /// The schema holds tables but no `feedsim_schema` table: someone else's database, left untouched.
    case foreignDatabase(database: String, schema: String)
    /// No feed has this name.
    case unknownFeed(String, known: [String])
    /// A feed name that is empty or only white space.
    case emptyFeedName
    /// A new feed's name that breaks ``FeedModel/FeedName``'s rule (a `/`, a control character).
    case unusableFeedName(String)
    /// The id the sequence gave is past ``FeedModel/NewItem/idRange`` (2^53 − 1).
    case idsExhausted(next: Int64)
    /// An id given to an insert or import already exists (or appears twice in one import).
    case duplicateID(Int64)
    /// A migration directory or file is missing or malformed.
    case resource(path: String, reason: String)
    /// The run was interrupted (SIGINT, SIGTERM) and its transaction rolled back: nothing written.
    case interrupted
    /// Seeding a feed that has items, without saying to append or replace.
    case feedNotEmpty(String, items: Int)
    /// The feed with this id does not exist (or was deleted while items were written into it): the
    /// items' transaction rolled back. Schema version 2 has no foreign key; FeedSim checks this itself.
    case missingFeed(id: Int64)

    public var description: String {
        switch self {
        case .connectionFailed(let target, let message):
            return "\(target): cannot connect to PostgreSQL: \(message)"
        case .unsupportedServer(let database, let version, let minimum):
            return "\(database): server version \(Self.versionText(version)) is not supported "
                + "(FeedSim needs PostgreSQL \(Self.versionText(minimum)) or newer, or a compatible engine reporting it)"
        case .newerSchema(let database, let version, let newestKnown):
            return "\(database): schema version \(version) is newer than this feedsim knows (\(newestKnown)); "
                + "use a newer feedsim"
        case .foreignDatabase(let database, let schema):
            return "\(database): schema '\(schema)' has tables but no feedsim_schema table: not a FeedSim database; "
                + "left untouched (use an empty database or schema)"
        case .unknownFeed(let name, let known):
            return "unknown feed '\(name)'"
                + (known.isEmpty ? " (the database has no feed)" : " (feeds: \(known.joined(separator: ", ")))")
        case .emptyFeedName:
            return "a feed name cannot be empty"
        case .unusableFeedName(let problem):
            return problem
        case .idsExhausted(let next):
            return NewItem.idsExhaustedReason(next: next)
        case .duplicateID(let id):
            return "item id \(id) already exists"
        case .resource(let path, let reason):
            return "\(path): \(reason)"
        case .interrupted:
            return "interrupted: rolled back, nothing written"
        case .feedNotEmpty(let name, let items):
            return "feed '\(name)' already has \(items) items: pass --append (continue after the newest item) "
                + "or --replace (delete them first)"
        case .missingFeed(let id):
            return "feed \(id) does not exist (deleted while items were being written?): rolled back, nothing written"
        }
    }

    /// `150018` → `15.18`, `110000` → `11.0` (PostgreSQL ≥ 10 numbering: major × 10000 + minor).
    package static func versionText(_ number: Int) -> String {
        number >= 100_000 ? "\(number / 10_000).\(number % 10_000)" : "\(number / 10_000).\(number / 100 % 100)"
    }
}
