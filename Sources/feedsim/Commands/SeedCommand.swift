import FeedStore
import Foundation

let seedCommand = Command(
    name: "seed",
    summary: "Seed a feed with generated items from a preset (one transaction).",
    usage: "seed --db PATH|URI --preset NAME --count N [--seed S] [--feed NAME] [--start ISO8601]",
    options: [
        OptionSpec(
            "--db", .value, "PATH|URI",
            help: "SQLite database file (created when missing) or postgresql:// URI (COPY, one transaction)."),
        OptionSpec("--preset", .value, "NAME", help: "Preset in Seeds/: photos, news, mixed."),
        OptionSpec("--count", .value, "N", help: "Items to generate (1...100000000)."),
        OptionSpec("--seed", .value, "S", help: "Random seed, an unsigned 64-bit integer (default 1)."),
        OptionSpec("--feed", .value, "NAME", help: "Feed to fill, created when missing (default home)."),
        OptionSpec(
            "--start", .value, "ISO8601",
            help: "Time before the first item (default 2026-01-01T00:00:00Z); items go forward from it."),
    ],
    run: { arguments in
        let path = try arguments.required("--db")
        let presetName = try arguments.required("--preset")
        guard let count = try arguments.int("--count", in: 1...100_000_000) else {
            throw UsageError("missing required option '--count'")
        }
        let seedText = arguments.value("--seed") ?? "1"
        guard let seed = UInt64(seedText) else {
            throw CommandFailure("--seed: expected an unsigned 64-bit integer, got '\(seedText)'")
        }
        var start = ItemGenerator.defaultStart
        if let text = arguments.value("--start") {
            guard let milliseconds = Timestamp.milliseconds(iso8601: text) else {
                throw CommandFailure("--start: expected an ISO 8601 time such as 2026-01-01T00:00:00Z, got '\(text)'")
            }
            start = milliseconds
        }
        let feedName = arguments.value("--feed") ?? "home"
        let preset = try Preset.named(presetName)  // before opening: a bad preset writes nothing

        let database = try FeedDatabase.open(path, mustExist: false)
        var generator = ItemGenerator(preset: preset, seed: seed, start: start)
        let showProgress = standardErrorIsTerminal
        let progress = { (done: Int) in
            if showProgress { StoreCommandSupport.progressBar(done: done, total: count) }
        }
        let began = ContinuousClock.now
        let items: Int
        switch database {
        case .sqlite(let store):
            items = try Seeder.seed(store, feedNamed: feedName, generator: &generator, count: count, progress: progress)
                .items
        case .postgres(let store):
            items = try store.seed(feedNamed: feedName, count: count, next: { generator.next() }, progress: progress)
                .items
        }
        let seconds = StoreCommandSupport.seconds(since: began)
        let rate = seconds > 0 ? Double(items) / seconds : 0
        print(
            "seeded \(items) items into feed '\(feedName)' of \(database.name) in "
                + String(format: "%.2f s (%.0f rows/s)", seconds, rate))
        return 0
    }
)
