import Foundation

/// Applies the numbered SQL files of `Schema/postgres/` (`001_initial.sql`, `002_*.sql`, ...) in order.
///
/// The schema version is the largest `version` in the table `feedsim_schema` of the connection's
/// current schema (`current_schema()`, so one database can hold several FeedSim stores, one per
/// schema). Each file runs in its own transaction that also inserts its version, so a failure
/// leaves the database at the previous version. A concurrent migration of the same schema loses
/// on `feedsim_schema`'s primary key (or on the duplicate table) and re-reads the version.
///
/// Before anything is written it refuses: a server older than ``minimumServerVersion``; a schema
/// with tables but no `feedsim_schema` (a foreign database); a version newer than this binary knows.
public struct PostgresMigrator: Sendable {
    /// One migration: its number and its SQL.
    public struct Migration: Sendable {
        public var version: Int
        public var sql: String
        /// Where it came from, for messages.
        public var source: String

        public init(version: Int, sql: String, source: String) {
            self.version = version
            self.sql = sql
            self.source = source
        }
    }

    /// The oldest `server_version_num` accepted: PostgreSQL 11, the version YugabyteDB reports
    /// (CockroachDB reports 13). Everything FeedSim sends (row values, `= ANY`, CTEs, `COPY`,
    /// `ON CONFLICT DO NOTHING`) exists there.
    public static let minimumServerVersion = 110_000

    /// The migrations, sorted by version, numbered 1, 2, 3, ... without gaps.
    public let migrations: [Migration]
    /// The oldest server accepted (``minimumServerVersion`` unless a test asks for more).
    public var minimumServerVersion = PostgresMigrator.minimumServerVersion

    /// The newest schema version this binary knows.
    public var newestVersion: Int { migrations.last?.version ?? 0 }

    /// - Throws: ``PostgresStoreError/resource(path:reason:)`` for an empty list or a gap in the numbering.
    public init(migrations: [Migration]) throws {
        let sorted = migrations.sorted { $0.version < $1.version }
        for (index, migration) in sorted.enumerated() where migration.version != index + 1 {
            throw PostgresStoreError.resource(
                path: migration.source, reason: "expected migration number \(index + 1), found \(migration.version)")
        }
        guard !sorted.isEmpty else {
            throw PostgresStoreError.resource(path: "Schema/postgres", reason: "no migration files (NNN_name.sql)")
        }
        self.migrations = sorted
    }

    /// Reads the migration files `NNN_description.sql` of `directory`.
    /// - Throws: ``PostgresStoreError/resource(path:reason:)`` for a missing directory, a badly
    ///   named or unreadable file, or a gap in the numbering.
    public init(directory: URL) throws {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw PostgresStoreError.resource(path: directory.path, reason: "cannot list schema directory")
        }
        var found: [Migration] = []
        for name in names.sorted() where name.hasSuffix(".sql") {
            let url = directory.appendingPathComponent(name)
            let digits = name.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, let version = Int(digits), name.dropFirst(digits.count).first == "_" else {
                throw PostgresStoreError.resource(path: url.path, reason: "migration files are named NNN_description.sql")
            }
            guard let sql = try? String(contentsOf: url, encoding: .utf8) else {
                throw PostgresStoreError.resource(path: url.path, reason: "cannot read migration file")
            }
            found.append(Migration(version: version, sql: sql, source: url.path))
        }
        guard !found.isEmpty else {
            throw PostgresStoreError.resource(path: directory.path, reason: "no migration files (NNN_name.sql)")
        }
        try self.init(migrations: found)
    }

    static let schemaTableSQL = """
        SELECT count(*) FROM information_schema.tables
        WHERE table_schema = current_schema() AND table_name = 'feedsim_schema'
        """
    static let otherTablesSQL = """
        SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema()
        """
    static let createSchemaTableSQL = """
        CREATE TABLE IF NOT EXISTS feedsim_schema (
            version    INTEGER PRIMARY KEY,
            applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
        )
        """
    static let versionSQL = "SELECT COALESCE(max(version), 0) FROM feedsim_schema"
    static let recordSQL = "INSERT INTO feedsim_schema (version) VALUES ($1)"

    /// Brings the connection's current schema up to ``newestVersion``.
    /// - Returns: the schema version after migrating.
    /// - Throws: ``PostgresStoreError/unsupportedServer(database:version:minimum:)``,
    ///   ``PostgresStoreError/foreignDatabase(database:schema:)``,
    ///   ``PostgresStoreError/newerSchema(database:version:newestKnown:)``, or ``PostgresError``
    ///   when a script fails (its transaction is rolled back).
    func migrate(_ connection: PostgresConnection) throws -> Int {
        let server = connection.serverVersion
        guard server >= minimumServerVersion else {
            throw PostgresStoreError.unsupportedServer(
                database: connection.database, version: server, minimum: minimumServerVersion)
        }
        for attempt in 0..<3 {
            do {
                return try migrateOnce(connection)
            } catch let error as PostgresError where (error.isUniqueViolation || error.isDuplicateObject) && attempt < 2 {
                continue  // another connection migrated the same schema at the same moment
            }
        }
        return try migrateOnce(connection)
    }

    private func migrateOnce(_ connection: PostgresConnection) throws -> Int {
        var current = try connection.transaction { () throws -> Int in
            if try connection.execute(Self.schemaTableSQL).int64(0, 0) == 0 {
                if try connection.execute(Self.otherTablesSQL).int64(0, 0) > 0 {
                    let schema = try connection.execute("SELECT current_schema()").text(0, 0)
                    throw PostgresStoreError.foreignDatabase(database: connection.database, schema: schema)
                }
                try connection.execute(Self.createSchemaTableSQL)
            }
            return Int(try connection.execute(Self.versionSQL).int64(0, 0))
        }
        try refuseNewer(current, connection)
        for migration in migrations where migration.version > current {
            try connection.transaction {
                let now = Int(try connection.execute(Self.versionSQL).int64(0, 0))
                try refuseNewer(now, connection)
                guard now < migration.version else { return }  // another connection applied it
                try connection.execute(migration.sql)
                var parameters = PostgresParameters()
                parameters.append(migration.version)
                try connection.execute(prepared: "feedsim_record_version", sql: Self.recordSQL, parameters)
            }
            current = migration.version
        }
        return Int(try connection.execute(Self.versionSQL).int64(0, 0))
    }

    private func refuseNewer(_ version: Int, _ connection: PostgresConnection) throws {
        if version > newestVersion {
            throw PostgresStoreError.newerSchema(
                database: connection.database, version: version, newestKnown: newestVersion)
        }
    }
}
