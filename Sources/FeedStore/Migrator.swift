import FeedResources
import Foundation

/// Applies the numbered SQL files of `Schema/` (`001_initial.sql`, `002_*.sql`, ...) in order.
///
/// The schema version is `PRAGMA user_version`. Each file runs in its own `BEGIN IMMEDIATE`
/// transaction that also sets `user_version` to the file's number, so a crash leaves the
/// database at the previous version, never between two. The version is read again inside the
/// transaction, so connections opening a new file at the same moment apply each file once.
struct Migrator {
    /// One migration file.
    struct Migration {
        var version: Int
        /// The file's name inside the schema directory (`001_initial.sql`).
        var name: String
    }

    /// Where the files are read from (the embedded `Schema/`, or a directory on disk).
    let directory: ResourceDirectory

    /// The migrations, sorted by version, numbered 1, 2, 3, ... without gaps.
    let migrations: [Migration]

    /// The newest schema version this binary knows.
    var newestVersion: Int { migrations.last?.version ?? 0 }

    /// Reads the migration list from `directory` (its `*.sql` files; subdirectories, such as
    /// another backend's migrations, are not SQLite's).
    /// - Throws: ``StoreError/resource(path:reason:)`` for a missing directory, a badly named file
    ///   or a gap in the numbering.
    init(directory: ResourceDirectory) throws {
        self.directory = directory
        let names: [String]
        do {
            names = try directory.fileNames()
        } catch {
            throw StoreError.resource(path: directory.description, reason: "cannot list schema directory")
        }
        var found: [Migration] = []
        for name in names where name.hasSuffix(".sql") {
            let digits = name.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, let version = Int(digits), name.dropFirst(digits.count).first == "_" else {
                throw StoreError.resource(
                    path: directory.path(name), reason: "migration files are named NNN_description.sql")
            }
            found.append(Migration(version: version, name: name))
        }
        found.sort { $0.version < $1.version }
        for (index, migration) in found.enumerated() where migration.version != index + 1 {
            throw StoreError.resource(
                path: directory.path(migration.name), reason: "expected migration number \(index + 1), found \(migration.version)")
        }
        guard !found.isEmpty else {
            throw StoreError.resource(path: directory.description, reason: "no migration files (NNN_name.sql)")
        }
        migrations = found
    }

    /// Brings the database up to ``newestVersion``.
    /// - Returns: the schema version after migrating.
    /// - Throws: ``StoreError/newerSchema(path:version:newestKnown:)`` when the database is newer
    ///   than this binary; ``SQLiteError`` when a script fails (its transaction is rolled back).
    func migrate(_ connection: Connection) throws -> Int {
        let current = Int(try connection.scalarInt("PRAGMA user_version"))
        try refuseNewer(current, connection)
        if current == newestVersion { return current }
        for migration in migrations where migration.version > current {
            guard let data = try? directory.data(migration.name), let script = String(data: data, encoding: .utf8)
            else {
                throw StoreError.resource(path: directory.path(migration.name), reason: "cannot read migration file")
            }
            try connection.transaction {
                let now = Int(try connection.scalarInt("PRAGMA user_version"))
                try refuseNewer(now, connection)
                guard now < migration.version else { return }  // another connection applied it
                try connection.execute(script)
                // The version is an integer from our own file name, not input text.
                try connection.execute("PRAGMA user_version = \(migration.version)")
            }
        }
        return Int(try connection.scalarInt("PRAGMA user_version"))
    }

    private func refuseNewer(_ version: Int, _ connection: Connection) throws {
        if version > newestVersion {
            throw StoreError.newerSchema(path: connection.path, version: version, newestKnown: newestVersion)
        }
    }
}
