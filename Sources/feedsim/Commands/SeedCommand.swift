import FeedStore
import Foundation

let seedCommand = Command(
    name: "seed",
    summary: "Seed a feed with generated items from a preset (one transaction).",
    usage: "seed --db PATH --preset NAME --count N [--seed S] [--feed NAME] [--start ISO8601]",
    options: [
        OptionSpec("--db", "PATH", accepts: .path, help: "SQLite database file (created when missing)."),
        OptionSpec("--preset", .value, "NAME", help: "Preset in Seeds/: photos, news, mixed."),
        OptionSpec("--count", "N", accepts: .integer(1...100_000_000), help: "Items to generate."),
        OptionSpec("--seed", "S", accepts: .seed, default: "1", help: "Random seed."),
        OptionSpec("--feed", .value, "NAME", help: "Feed to fill, created when missing (default home)."),
        OptionSpec(
            "--start", .value, "ISO8601",
            help: "Time before the first item, 1970-01-01 to 9999-12-31 (default 2026-01-01T00:00:00Z); items go forward from it."),
    ],
    run: { arguments in
        Interruption.shared.install()
        let path = try arguments.required("--db")
        let presetName = try arguments.required("--preset")
        guard let count = try arguments.int("--count") else {
            throw UsageError("missing required option '--count'")
        }
        try arguments.expectNoPositionals()
        let seed = try arguments.seed("--seed") ?? 1
        var start = ItemGenerator.defaultStart
        if let text = arguments.value("--start") {
            guard let milliseconds = Timestamp.milliseconds(iso8601: text), Timestamp.storedRange.contains(milliseconds)
            else {
                throw UsageError.badValue(
                    "--start", "expected an ISO 8601 time from 1970-01-01 to 9999-12-31 such as 2026-01-01T00:00:00Z, got '\(text)'")
            }
            start = milliseconds
        }
        let feedName = arguments.value("--feed") ?? "home"
        let preset = try Preset.named(presetName)  // before opening: a bad preset writes nothing

        let store = try StoreCommandSupport.openForWriting(path)
        var generator = ItemGenerator(preset: preset, seed: seed, start: start)
        let showProgress = standardErrorIsTerminal
        let began = ContinuousClock.now
        let summary = try Seeder.seed(
            store, feedNamed: feedName, generator: &generator, count: count,
            progress: { done in if showProgress { StoreCommandSupport.progressBar(done: done, total: count) } },
            shouldStop: Interruption.shared.shouldStop)
        let seconds = StoreCommandSupport.seconds(since: began)
        let rate = seconds > 0 ? Double(summary.items) / seconds : 0
        print(
            "seeded \(summary.items) items into feed '\(feedName)' of \(path) in "
                + String(format: "%.2f s (%.0f rows/s)", seconds, rate))
        return 0
    }
)
