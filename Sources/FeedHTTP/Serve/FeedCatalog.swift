import FeedModel

/// What `feedsim serve` serves: the feeds of one database, each as a ``FeedModel/FeedBackend``.
///
/// A catalog owns one connection and is used by one thread at a time; the server opens one per
/// worker thread (``FeedServer/Configuration/threads``). SQLite and PostgreSQL implement it in the
/// command line, where their targets meet; tests use an in-memory one.
public protocol FeedCatalog: AnyObject {
    /// The feeds' names, sorted.
    func feedNames() throws -> [String]
    /// The backend of feed `name` on this catalog's connection, or `nil` when no such feed exists.
    func backend(feed name: String) throws -> (any FeedBackend)?
    /// The stub of item `id` in any feed (for its placeholder image), or `nil` when it does not exist.
    func stub(id: Int64) throws -> Item?
}
