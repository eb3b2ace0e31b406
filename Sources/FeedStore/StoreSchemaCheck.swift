/// Tells a FeedSim database from an empty one and from someone else's, by its tables (not by
/// `PRAGMA user_version` alone, which any application may set): run on open, before anything in
/// the file is changed.
enum StoreSchemaCheck {
    enum Verdict: Equatable {
        /// FeedSim's tables (`feeds`, `items` with their columns) and a schema version ≥ 1.
        case feedSim
        /// No tables and `user_version` 0: a new (or zero-byte) database.
        case empty
        /// A schema version above the newest this binary knows, with no tables or FeedSim's two.
        case newer(Int)
        /// Anything else, with the reason in words.
        case foreign(String)
    }

    /// The columns the store reads and writes, by table (Schema/001_initial.sql).
    static let requiredColumns: [String: Set<String>] = [
        "feeds": ["id", "name"],
        "items": ["id", "feed_id", "published_at", "kind", "width", "height", "title", "author", "payload"],
    ]

    /// - Parameter newestKnown: the newest schema version this binary has migrations for (`nil`:
    ///   unknown, then no version counts as newer).
    /// - Throws: ``SQLiteError`` when the schema cannot be read (not a database, corrupt).
    static func inspect(_ connection: Connection, newestKnown: Int?) throws -> Verdict {
        let version = try connection.scalarInt("PRAGMA user_version")
        let statement = try connection.prepare(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name")
        var tables: [String] = []
        while try statement.step() { tables.append(statement.text(at: 0)) }
        if version < 0 { return .foreign("its user_version is \(version), not a FeedSim schema version") }
        if let newestKnown, version > newestKnown,
            tables.isEmpty || (tables.contains("feeds") && tables.contains("items"))
        {
            return .newer(Int(version))
        }
        if tables.isEmpty {
            return version == 0 ? .empty : .foreign("its user_version is \(version) but it has no FeedSim tables")
        }
        for (table, columns) in requiredColumns.sorted(by: { $0.key < $1.key }) {
            guard tables.contains(table) else {
                return .foreign("it has tables (\(list(tables))) but no '\(table)' table")
            }
            let info = try connection.prepare("SELECT name FROM pragma_table_info(?1)")
            info.bind(table, at: 1)
            var found: Set<String> = []
            while try info.step() { found.insert(info.text(at: 0)) }
            let missing = columns.subtracting(found)
            guard missing.isEmpty else {
                return .foreign("its '\(table)' table has no column \(missing.sorted().joined(separator: ", "))")
            }
        }
        if version == 0 { return .foreign("it has FeedSim's tables but no FeedSim schema version (user_version 0)") }
        return .feedSim
    }

    private static func list(_ names: [String]) -> String {
        names.count <= 5 ? names.joined(separator: ", ") : names.prefix(5).joined(separator: ", ") + ", …"
    }
}
