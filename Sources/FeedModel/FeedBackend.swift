/// An error after which a backend cannot answer correctly again, however often it is asked: a
/// damaged or unreadable database file (SQLite's `SQLITE_CORRUPT`, `SQLITE_NOTADB`,
/// `SQLITE_IOERR`). A replay stops on it with the error, instead of counting it among the feed's
/// failures and retrying as it does for an HTTP 500, a timeout or a busy database: a broken file
/// passed off as a flaky server would give figures that describe nothing.
public protocol PermanentBackendFailure: Error {
    /// Whether this error is one of those (an error type may hold both kinds).
    var isPermanent: Bool { get }
}

extension Error {
    /// Whether the error is a ``PermanentBackendFailure`` that says it is permanent.
    public var isPermanentBackendFailure: Bool { (self as? any PermanentBackendFailure)?.isPermanent ?? false }
}

/// An item to write: everything but the feed, with an optional id (`nil`: the backend assigns the next one).
///
/// What a writer from outside (an import, `feedsim serve`'s `POST`) may give, one rule for every
/// entry point: ids in ``idRange``, `published_at` in ``publishedAtRange``, sizes in ``sizeRange``.
public struct NewItem: Hashable, Sendable, Codable {
    /// Ids a written item may carry: 1 … 2^53 − 1 (exact as JSON numbers, which are doubles in
    /// JavaScript clients; far from `Int64.max`, so the ids assigned after them never overflow).
    public static let idRange: ClosedRange<Int64> = 1...9_007_199_254_740_991
    /// `published_at` a written item may carry, Unix milliseconds: 1970-01-01T00:00:00Z to
    /// 9999-12-31T23:59:59.999Z (what an ISO 8601 date with a four-digit year can show).
    public static let publishedAtRange: ClosedRange<Int64> = 0...253_402_300_799_999
    /// Intrinsic sizes a written item may carry, points: more than 0, at most 1,000,000 (the
    /// layouts' bound).
    public static let sizeRange: ClosedRange<Double> = .ulpOfOne...1_000_000
    /// Longest kind (the reuse identifier), characters (Unicode scalars); a kind is never empty.
    public static let kindMaxLength = 64
    /// Longest title or author, characters (Unicode scalars).
    public static let textMaxLength = 10_000

    public var id: Int64?
    /// Unix milliseconds.
    public var publishedAt: Int64
    /// Reuse identifier.
    public var kind: String
    /// Intrinsic width in points, ≥ 0.
    public var width: Double
    /// Intrinsic height in points, ≥ 0.
    public var height: Double
    public var title: String
    public var author: String
    /// JSON text.
    public var payload: String

    public init(
        id: Int64? = nil, publishedAt: Int64, kind: String, width: Double, height: Double,
        title: String = "", author: String = "", payload: String = "{}"
    ) {
        self.id = id
        self.publishedAt = publishedAt
        self.kind = kind
        self.width = width
        self.height = height
        self.title = title
        self.author = author
        self.payload = payload
    }
}

/// One feed of a backend, as the simulator sees it: the seam every backend implements (a SQLite
/// file, a PostgreSQL database, an HTTP feed API, an in-memory double) and every consumer (replay,
/// load tester, `serve`) uses, so a new backend slots in without touching the simulator.
///
/// A `FeedBackend` value is bound to one feed and one connection, and is used by one thread at a
/// time; open one per thread. Pages are in feed order (`published_at DESC, id DESC`) and served by
/// keyset cursor (``PageSource``); rows by id (``RowSource``). Latency, faults and timing are
/// decorators over any backend, never part of one.
///
/// Semantics every implementation must hold (tested on each, with the same tests): following
/// ``PageSource/after(_:limit:)`` cursors from any cursor yields exactly the items older than it,
/// in feed order, no duplicate and no gap, even while other connections write at the head;
/// ``PageSource/before(_:limit:)`` yields the newer ones; a page and its "more exists" probe come
/// from one snapshot.
public protocol FeedBackend: PageSource, RowSource {
    /// What serves the feed, for reports: `"sqlite"`, `"postgresql"`, `"http"`, `"memory"`.
    var backendName: String { get }

    /// Writes `items` into this feed in one transaction, all or nothing.
    /// - Returns: the id of each item, in order (assigned by the backend where `id` is `nil`).
    /// - Throws: the backend's error when any item cannot be written; nothing is written then.
    @discardableResult
    func insert(_ items: [NewItem]) throws -> [Int64]

    /// Writes items at the feed's head: `makeItems` gets the newest `published_at` now (`nil` for an
    /// empty feed) and returns the items to write, each published after it. SQLite reads and
    /// writes in one write transaction (`BEGIN IMMEDIATE`), so no other writer's item lands above
    /// them in between; the default reads the newest page, then calls ``insert(_:)``.
    /// - Returns: the ids written, in order.
    /// - Throws: the backend's error; nothing is written then.
    @discardableResult
    func insertAtHead(_ makeItems: (_ newestPublishedAt: Int64?) -> [NewItem]) throws -> [Int64]

    /// Replaces the title, author and payload of the rows with these ids (stubs and feed order are
    /// unchanged), in one transaction. Ids that do not exist are ignored.
    /// - Returns: how many rows were updated.
    @discardableResult
    func update(_ rows: [ItemRow]) throws -> Int

    /// Deletes the items with these ids, in one transaction. Ids that do not exist are ignored.
    /// - Returns: how many items were deleted.
    @discardableResult
    func delete(ids: [Int64]) throws -> Int

    /// Ground truth for the consistency oracle: up to `limit` items strictly older than `cursor`,
    /// in feed order, read with a query independent of the paging code under test (not through
    /// ``PageSource``), bypassing any decorator. `limit` ≥ 0.
    func groundTruth(after cursor: Cursor, limit: Int) throws -> [Item]

    /// The cursors of ``groundTruth(after:limit:)``'s items, in the same order: what a gap check
    /// compares (ids and feed order), which a database reads from its feed-order index alone,
    /// without the table's rows. The default maps ``groundTruth(after:limit:)``.
    func groundTruthCursors(after cursor: Cursor, limit: Int) throws -> [Cursor]

    /// Runs `body` (pages, probes and row fetches on this backend) as one unit of work read from
    /// one snapshot, as a server answering one request would: a read transaction on SQLite and
    /// PostgreSQL. The default just runs `body`, for backends whose every call is its own snapshot
    /// (an HTTP feed API).
    /// - Throws: what `body` throws, or the backend's error beginning or ending the unit.
    func read<T>(_ body: () throws -> T) throws -> T
}

extension FeedBackend {
    /// ``groundTruth(after:limit:)``'s cursors.
    public func groundTruthCursors(after cursor: Cursor, limit: Int) throws -> [Cursor] {
        try groundTruth(after: cursor, limit: limit).map(\.cursor)
    }

    /// Reads the newest item, then inserts what `makeItems` returns (two steps; see the requirement).
    @discardableResult
    public func insertAtHead(_ makeItems: (_ newestPublishedAt: Int64?) -> [NewItem]) throws -> [Int64] {
        try insert(makeItems(try newest(limit: 1).items.first?.publishedAt))
    }

    /// Runs `body` as is: every call its own snapshot (see the requirement).
    public func read<T>(_ body: () throws -> T) throws -> T {
        try body()
    }
}

/// A backend that keeps state for the session using it: an HTTP feed API's cursor tokens, and the
/// rows an API without a rows request delivers in its pages. The load tester pools connections
/// between sessions (``FeedBackend`` instances), and tells the backend when one session is over so
/// that this state is bounded by a session, not by the run.
public protocol SessionScopedBackend: AnyObject {
    /// Forgets what was kept for the session that has just ended; the next session starts afresh
    /// (from the newest page).
    func sessionEnded()
}

/// What a connector's connections have found wrong in a service's answers so far, over all of
/// them: an HTTP feed API's problems (a non-2xx status, a timeout, malformed JSON, an item out of
/// order or seen twice, …) and the requests they were found in. The load tester's `api_problems`
/// threshold is measured on it, during the run (`--abort-on-fail`) and at its end.
public struct AnswerTally: Sendable, Equatable {
    /// Problems found, each once.
    public var problems: Int
    /// Requests made.
    public var requests: Int

    public init(problems: Int, requests: Int) {
        self.problems = problems
        self.requests = requests
    }
}

/// A connector whose connections check a service's answers (``AnswerTally``).
public protocol AnswerAuditing: Sendable {
    /// The tally so far; safe to read from any thread while the connections work.
    var answerTally: AnswerTally { get }
}

/// Opens connections to one feed of a backend: the load tester runs sessions and writers on
/// threads of their own and opens one connection for each (a ``FeedBackend`` belongs to one thread
/// at a time), and one ``GroundTruthReader`` per session thread for its consistency checks.
public protocol FeedBackendConnector: Sendable {
    /// What serves the feed, for reports: `"sqlite"`, `"postgresql"`, `"http"`, `"memory"`.
    var backendName: String { get }

    /// A new connection to the feed, for one thread at a time.
    /// - Throws: the backend's error when it cannot be reached or the feed does not exist.
    func connect() throws -> any FeedBackend

    /// A new connection for a writer thread (the load tester's writers and a trace's insert
    /// events). The default is ``connect()``; SQLite opens it counting its lock waits.
    func connectWriter() throws -> any FeedBackend

    /// A new reader of the feed's ground truth, on a connection of its own, independent of the
    /// paging code under test.
    /// - Parameter reuseUnchangedSpans: whether a span asked for again may be answered from the last
    ///   read when the backend can prove nothing was written since (SQLite's `PRAGMA data_version`).
    func groundTruthReader(reuseUnchangedSpans: Bool) throws -> any GroundTruthReader
}

extension FeedBackendConnector {
    /// ``connect()``.
    public func connectWriter() throws -> any FeedBackend { try connect() }
}

/// The ground truth the load tester's consistency checks read: what the backend holds now, read
/// independently of the paging code under test. One thread at a time.
public protocol GroundTruthReader: AnyObject {
    /// The largest item id in the backend now. With insert-only writers and backend-assigned
    /// increasing ids, exactly the items with a larger id were inserted later.
    func maxID() throws -> Int64

    /// The ids of the feed's items now from `newest` down to `oldest` in feed order, both included
    /// (empty when `newest` comes after `oldest`), read from one snapshot.
    /// - Parameter expected: how many ids to reserve room for.
    func spanIDs(newest: Cursor, oldest: Cursor, expected: Int) throws -> [Int64]

    /// Spans read from the backend since this reader opened.
    var spansRead: Int { get }
    /// Spans answered from the last read instead, the backend having proved nothing changed since.
    var spansReused: Int { get }
    /// Whether ``spanIDs(newest:oldest:expected:)`` lists the feed (a reader that cannot, such as
    /// an HTTP API read without an independent database, answers every span empty: no skip can
    /// be told, and a session's ``maxID()`` at its start would be read for nothing).
    var listsSpans: Bool { get }
}

extension GroundTruthReader {
    /// `true`: a reader lists the feed's spans unless it says otherwise.
    public var listsSpans: Bool { true }
}

/// A backend that also serves pages by position (`LIMIT ? OFFSET ?`): the baseline the load
/// tester's `--pagination offset` compares keyset cursors with, which repeats and skips items
/// under concurrent writes. Not part of ``FeedBackend``: a backend need not offer it.
public protocol OffsetPageSource {
    /// Up to `limit` items of the feed starting at position `offset` (0 = the newest), in feed
    /// order; `hasMoreAfter` when more follow. `offset` ≥ 0, `limit` ≥ 1.
    func offsetPage(offset: Int, limit: Int) throws -> Page
}

/// A backend connection that counts how often a write found another connection holding the lock
/// and waited before retrying (SQLite's `SQLITE_BUSY`), for the load tester's report.
public protocol LockWaitCounting {
    /// Waits since the connection opened.
    var lockWaits: Int { get }
}

/// A backend error that names its code, for reports that group errors by it (`"SQLITE_BUSY"`, a
/// SQLSTATE, an HTTP status).
public protocol NamedErrorCode: Error {
    /// The code's name.
    var codeName: String { get }
}

extension NewItem {
    /// Why a store refuses to assign `next` as an id: it is past ``idRange``. The message of both
    /// stores' `idsExhausted` errors.
    public static func idsExhaustedReason(next: Int64) -> String {
        "the next item id would be \(next), past \(idRange.upperBound) (2^53 − 1, the largest id a JSON client reads exactly); nothing was written"
    }

    /// The first field outside the bounds every writer keeps (``idRange``, ``publishedAtRange``,
    /// ``sizeRange``, ``kindMaxLength``, ``textMaxLength``), with the rule it breaks; `nil` when
    /// the item keeps them all. The payload is not checked here (each entry point reads it as JSON).
    public var boundsViolation: (field: String, rule: String)? {
        if let id, !Self.idRange.contains(id) {
            return ("id", "an id in \(Self.idRange.lowerBound)...\(Self.idRange.upperBound), got \(id)")
        }
        if !Self.publishedAtRange.contains(publishedAt) {
            return (
                "published_at",
                "Unix milliseconds from 1970-01-01 to 9999-12-31 (0...\(Self.publishedAtRange.upperBound)), got \(publishedAt)"
            )
        }
        for (field, size) in [("width", width), ("height", height)] where !(size.isFinite && Self.sizeRange.contains(size)) {
            return (field, "a size in points, more than 0 and at most \(Int(Self.sizeRange.upperBound)), got \(size)")
        }
        let kindLength = kind.unicodeScalars.count
        if kindLength == 0 || kindLength > Self.kindMaxLength {
            return ("kind", "1 to \(Self.kindMaxLength) characters, got \(kindLength)")
        }
        for (field, text) in [("title", title), ("author", author)] where text.unicodeScalars.count > Self.textMaxLength {
            return (field, "at most \(Self.textMaxLength) characters, got \(text.unicodeScalars.count)")
        }
        return nil
    }
}

/// A generated item (`feedsim seed`) outside the bounds every writer keeps
/// (``NewItem/boundsViolation``): the preset or `--start` takes the feed past them. Nothing is written.
public struct GeneratedItemOutOfBounds: Error, CustomStringConvertible, Sendable {
    /// Which item of the run, from 1.
    public var item: Int
    public var field: String
    public var rule: String
    public init(item: Int, field: String, rule: String) {
        self.item = item
        self.field = field
        self.rule = rule
    }
    public var description: String {
        "generated item \(item): field '\(field)': expected \(rule) (the preset and --start take the feed past what a store keeps); nothing was written"
    }
}

/// The rule for a new feed's name, one for every backend: not blank, no `/` (a name is one path
/// segment of `feedsim serve`'s `/v1/feeds/{feed}/items`, and libmicrohttpd decodes `%2F` before
/// routing, so such a feed could never be reached), no control characters (names are printed in
/// tables and suggested commands), at most ``maxLength`` characters.
public enum FeedName {
    /// Longest feed name, characters (Unicode scalars).
    public static let maxLength = 200

    /// What is wrong with a new feed's name.
    public enum Problem: Equatable, Sendable, CustomStringConvertible {
        /// Empty or only white space.
        case empty
        /// Breaks the rest of the rule; the reason, in one line.
        case unusable(String)

        public var description: String {
            switch self {
            case .empty: "a feed name cannot be empty"
            case .unusable(let reason): reason
            }
        }
    }

    /// What is wrong with `name` as a new feed's name, `nil` when nothing is.
    public static func problem(_ name: String) -> Problem? {
        if name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return .empty }
        if name.contains("/") { return .unusable("a feed name cannot hold '/' (it is one segment of serve's URLs), got '\(name)'") }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return .unusable("a feed name cannot hold control characters (tabs, newlines, escapes)")
        }
        if name.unicodeScalars.count > maxLength { return .unusable("a feed name has at most \(maxLength) characters") }
        return nil
    }
}
