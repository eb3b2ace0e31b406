import FeedModel
/// Errors of the item store that are about the database as a whole or about the caller's request,
/// as opposed to a single failed SQLite call (``SQLiteError``).
public enum StoreError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The file is not an SQLite database (SQLite's `SQLITE_NOTADB`).
    case notADatabase(path: String)
    /// The file is an SQLite database but damaged (`SQLITE_CORRUPT`).
    case corrupt(path: String, message: String)
    /// The database was written by a newer FeedSim: its `user_version` is above the newest
    /// migration in `Schema/`.
    case newerSchema(path: String, version: Int, newestKnown: Int)
    /// No feed has this name.
    case unknownFeed(String, known: [String])
    /// A feed name that is empty or only white space.
    case emptyFeedName
    /// A new feed's name that breaks ``FeedModel/FeedName``'s rule (a `/`, a control character).
    case unusableFeedName(String)
    /// The id the store would assign next is past ``FeedModel/NewItem/idRange`` (2^53 − 1).
    case idsExhausted(next: Int64)
    /// An SQLite file that is not a FeedSim database (other tables, a foreign or negative
    /// `user_version`): left untouched. `reason` says what gave it away.
    case foreignDatabase(path: String, reason: String)
    /// An empty SQLite database (or a zero-byte file) given to a command that only reads.
    case emptyDatabase(path: String)
    /// A read-only store asked to write (or to migrate an older schema).
    case readOnly(path: String, reason: String)
    /// The run was interrupted (SIGINT, SIGTERM) and its transaction rolled back: nothing written.
    case interrupted
    /// An id given to ``ItemStore/insert(items:feed:)`` already exists.
    case duplicateID(Int64)
    /// A resource directory or file (`Schema/`, `Seeds/`) is missing or malformed.
    case resource(path: String, reason: String)
    /// Seeding a feed that already has items, without saying to append or replace.
    case feedNotEmpty(String, items: Int)

    public var description: String {
        switch self {
        case .notADatabase(let path):
            return "\(path): not an SQLite database"
        case .corrupt(let path, let message):
            return "\(path): database is corrupt (\(message))"
        case .newerSchema(let path, let version, let newestKnown):
            return "\(path): schema version \(version) is newer than this feedsim knows (\(newestKnown)); "
                + "use a newer feedsim"
        case .emptyFeedName:
            return "a feed name cannot be empty"
        case .unusableFeedName(let problem):
            return problem
        case .idsExhausted(let next):
            return NewItem.idsExhaustedReason(next: next)
        case .foreignDatabase(let path, let reason):
            return "\(path): an SQLite database, but not a FeedSim one (\(reason)); left untouched"
        case .emptyDatabase(let path):
            return "\(path): an empty database, not a FeedSim one (create one with feedsim seed or feedsim import)"
        case .readOnly(let path, let reason):
            return "\(path): opened read-only: \(reason)"
        case .interrupted:
            return "interrupted: rolled back, nothing written"
        case .unknownFeed(let name, let known):
            return "unknown feed '\(name)'" + (known.isEmpty ? " (the database has no feed)" : " (feeds: \(known.joined(separator: ", ")))")
        case .duplicateID(let id):
            return "item id \(id) already exists"
        case .resource(let path, let reason):
            return "\(path): \(reason)"
        case .feedNotEmpty(let name, let items):
            return "feed '\(name)' already has \(items) items: pass --append (continue after the newest item) or --replace (delete them first)"
        }
    }
}
