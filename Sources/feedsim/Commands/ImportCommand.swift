import FeedModel
import FeedPostgres
import FeedStore
import Foundation

let importCommand = Command(
    name: "import",
    summary: "Import items from a JSON Lines, CSV or Wikimedia feed file (all or nothing).",
    usage: "import --db PATH|URI --feed NAME [--format jsonl|csv|wikimedia] FILE",
    options: [
        OptionSpec(
            "--db", "PATH|URI", accepts: .path,
            help: "SQLite database file (created when missing) or postgresql:// URI (COPY, one transaction)."),
        OptionSpec("--feed", .value, "NAME", help: "Feed to import into, created when missing."),
        OptionSpec(
            "--format", .value, "FORMAT",
            help: "jsonl | csv (store column names) | wikimedia (REST feed JSON). Default: from the extension."),
    ],
    positionals: 1...1,
    run: { arguments in
        Interruption.shared.install()  // first: a signal while the file is parsed still stops the import
        let path = try arguments.required("--db")
        let feedName = try arguments.required("--feed")
        guard arguments.positionals.count == 1, let file = arguments.positionals.first else {
            throw UsageError("expected exactly one FILE, got \(arguments.positionals.count)")
        }
        let format: ImportFormat
        if let text = arguments.value("--format") {
            guard let chosen = ImportFormat(rawValue: text) else {
                let names = ImportFormat.allCases.map(\.rawValue)
                let near = nearestName(to: text, among: names).map { " (did you mean '\($0)'?)" } ?? ""
                throw UsageError.badValue("--format", "expected one of \(names.joined(separator: ", ")), got '\(text)'\(near)")
            }
            format = chosen
        } else {
            switch URL(fileURLWithPath: file).pathExtension.lowercased() {
            case "csv": format = .csv
            case "jsonl", "ndjson": format = .jsonl
            case "json": format = .wikimedia
            default: throw CommandFailure("\(file): cannot tell the format from the extension; give --format")
            }
        }
        try requireInputFile(file)
        // Parse everything before opening the database: a bad row writes nothing.
        let items = try ItemImporter.read(URL(fileURLWithPath: file), format: format)
        return try removingCreatedDatabaseOnFailure(path) {
            try importItems(items, from: file, into: path, feedName: feedName)
        }
    }
)

/// Imports `items` (read from `file`) into `feedName` of the database at `path`, in one
/// transaction, and prints the rate; the store is closed when this returns.
/// - Throws: ``CommandFailure`` for an id that exists already; what
///   opening or inserting throws (``StoreError/interrupted`` on SIGINT or SIGTERM).
private func importItems(_ items: [NewItem], from file: String, into path: String, feedName: String) throws -> Int32 {
    let database = try FeedDatabase.open(path, for: .create)
    let began = ContinuousClock.now
    // An id twice in the file is refused by the parser, on its line: this one is in the database.
    func duplicate(_ id: Int64) -> CommandFailure {
        let index = items.firstIndex { $0.id == id }.map { ", item \($0 + 1) of the file" } ?? ""
        return CommandFailure(
            "\(file)\(index): field 'id': item id \(id) is already in \(database.name) (ids are unique across feeds); nothing imported")
    }
    do {
        switch database {
        case .sqlite(let store):
            try store.insert(items: items, feedNamed: feedName, shouldStop: Interruption.shared.shouldStop)
        case .postgres(let store):
            try FeedDatabase.interruptible {
                try store.importItems(items, feedNamed: feedName, shouldStop: Interruption.shared.shouldStop)
            }
        }
    } catch StoreError.duplicateID(let id) {
        throw duplicate(id)
    } catch PostgresStoreError.duplicateID(let id) {
        throw duplicate(id)
    }
    let seconds = StoreCommandSupport.seconds(since: began)
    print(
        "imported \(items.count) items from \(file) into feed '\(feedName)' of \(database.name) in "
            + String(format: "%.2f s", seconds))
    return 0
}
