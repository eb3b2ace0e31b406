import FeedStore
import Foundation

let statsCommand = Command(
    name: "stats",
    summary: "Print items per feed and kind, each feed's time range and the schema version.",
    usage: "stats --db PATH|URI [--json]",
    options: [
        OptionSpec("--db", "PATH|URI", accepts: .path, help: "SQLite database file or postgresql:// URI."),
        OptionSpec("--json", .flag, help: "Print one JSON object."),
    ],
    run: { arguments in
        let path = try arguments.required("--db")
        try arguments.expectNoPositionals()
        let database = try FeedDatabase.open(path, for: .readOnly)
        let stats = try database.stats()
        if arguments.flag("--json") {
            print(try StoreCommandSupport.json(stats))
            return 0
        }
        var lines = [
            "\(database.name): schema version \(stats.schemaVersion), \(stats.feeds.count) feed(s), \(stats.totalItems) items"
        ]
        for feed in stats.feeds {
            var header = "feed \(feed.name): \(feed.items) items"
            if let oldest = feed.oldestPublishedAt, let newest = feed.newestPublishedAt {
                header += ", \(Timestamp.iso8601(milliseconds: oldest)) … \(Timestamp.iso8601(milliseconds: newest))"
            }
            lines.append(header)
            let width = feed.kinds.map(\.kind.count).max() ?? 0
            for kind in feed.kinds {
                let share = feed.items > 0 ? 100 * Double(kind.items) / Double(feed.items) : 0
                lines.append(
                    "  " + kind.kind + String(repeating: " ", count: width - kind.kind.count + 2)
                        + String(format: "%10d  %5.1f%%", kind.items, share))
            }
        }
        if let orphans = stats.orphanItems, orphans > 0 {
            lines.append("\(orphans) orphan items: their feed does not exist (see docs/postgres.md, \"Items and their feed\")")
        }
        print(lines.joined(separator: "\n"))
        return 0
    }
)
