import FeedModel
import FeedPostgres
import FeedStore
import Foundation
import FeedResources

let seedCommand = Command(
    name: "seed",
    summary: "Seed a feed with generated items from a preset (one transaction).",
    usage: "seed --db PATH|URI --count N [--preset NAME] [--seed S] [--feed NAME] [--start ISO8601] [--append | --replace]",
    options: [
        OptionSpec(
            "--db", "PATH|URI", accepts: .path,
            help: "SQLite database file (created when missing) or postgresql:// URI (COPY, one transaction)."),
        OptionSpec("--preset", .value, "NAME", help: "Preset in Seeds/: photos, news, mixed (default mixed)."),
        OptionSpec("--count", "N", accepts: .integer(1...100_000_000), help: "Items to generate."),
        OptionSpec("--seed", "S", accepts: .seed, default: "1", help: "Random seed."),
        OptionSpec("--feed", .value, "NAME", help: "Feed to fill, created when missing (default home)."),
        OptionSpec(
            "--start", .value, "ISO8601",
            help: "Time before the first item, 1970-01-01 to 9999-12-31 (default 2026-01-01T00:00:00Z); items go forward from it."),
        OptionSpec(
            "--append", .flag,
            help: "The feed has items: continue after the newest one (without it or --replace, a feed with items is refused)."),
        OptionSpec("--replace", .flag, help: "The feed has items: delete them and seed afresh, in the same transaction."),
    ],
    run: { arguments in
        Interruption.shared.install()
        let path = try arguments.required("--db")
        let presetName = arguments.value("--preset") ?? "mixed"
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
        let preset = try namedPreset(presetName, option: "--preset")  // before opening: a bad preset writes nothing

        if arguments.flag("--append") && arguments.flag("--replace") {
            throw UsageError("--append and --replace exclude each other")
        }
        let mode: Seeder.Mode = arguments.flag("--append") ? .append : arguments.flag("--replace") ? .replace : .intoEmpty
        return try removingCreatedDatabaseOnFailure(path) {
            try seedDatabase(
                path: path, mode: mode, feedName: feedName, preset: preset, seed: seed, start: start, count: count)
        }
    }
)

/// Runs `body`, which creates the database at `path` when it is a SQLite file that does not exist
/// yet; when `body` throws (a failure, SIGINT, SIGTERM), that new file is removed again with its
/// `-wal`, `-shm` and `-journal`, so "nothing was written" holds for the file too (not an empty
/// database left behind), and so it is on a second signal, which exits at once. A file that
/// existed before is left to the store's rollback.
///
/// The file is created here, empty, with `O_CREAT | O_EXCL` (SQLite takes a zero-byte file for a
/// new database): only the process that made it removes it. Two `seed`s creating one database at
/// once both saw it missing, and the one that failed removed the other's (its items lost, or
/// written to an unlinked file while it reported success).
/// - Throws: what `body` throws.
func removingCreatedDatabaseOnFailure<T>(_ path: String, _ body: () throws -> T) throws -> T {
    var createdFile: String?
    if case .sqlitePath(let file) = FeedDatabase.Target(path) {
        let descriptor = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if descriptor >= 0 {
            close(descriptor)
            createdFile = file
        }
        // Else it exists (another process's, or an earlier run's: not ours to remove), or it cannot
        // be made (the store's open says why).
    }
    guard let createdFile else { return try body() }
    // Unfinished until `body` returns: a second signal, which exits at once, removes them too.
    let files = [createdFile, createdFile + "-wal", createdFile + "-shm", createdFile + "-journal"]
    for file in files { TemporaryFiles.add(file) }
    defer { for file in files { TemporaryFiles.remove(file) } }
    do {
        return try body()
    } catch {
        for file in files { try? FileManager.default.removeItem(atPath: file) }
        throw error
    }
}

/// Seeds `count` items into `feedName` of the database at `path` and prints the rate; the store is
/// closed when this returns. - Throws: what opening or seeding throws.
private func seedDatabase(
    path: String, mode: Seeder.Mode, feedName: String, preset: Preset, seed: UInt64, start: Int64, count: Int
) throws -> Int32 {
    let database = try FeedDatabase.open(path, for: .create)
    let showProgress = standardErrorIsTerminal
    let progress = { (done: Int) in
        if showProgress { StoreCommandSupport.progressBar(done: done, total: count) }
    }
    let began = ContinuousClock.now
    let items: Int
    switch database {
    case .sqlite(let store):
        items = try Seeder.seed(
            store, feedNamed: feedName, mode: mode, preset: preset, seed: seed, start: start, count: count,
            progress: progress, shouldStop: Interruption.shared.shouldStop
        ).items
    case .postgres(let store):
        let postgresMode: PostgresSeedMode = switch mode {
        case .intoEmpty: .intoEmpty
        case .append: .append
        case .replace: .replace
        }
        items = try FeedDatabase.interruptible {
            try store.seed(
                feedNamed: feedName, mode: postgresMode, count: count,
                makeGenerator: { newest in
                    var generator = ItemGenerator(preset: preset, seed: seed, start: newest ?? start)
                    var index = 0
                    return {
                        let item = generator.next()
                        index += 1
                        if let (field, rule) = item.boundsViolation {
                            throw GeneratedItemOutOfBounds(item: index, field: field, rule: rule)
                        }
                        return item
                    }
                }, progress: progress, shouldStop: Interruption.shared.shouldStop
            ).items
        }
    }
    let seconds = StoreCommandSupport.seconds(since: began)
    let rate = seconds > 0 ? Double(items) / seconds : 0
    print(
        "seeded \(items) items into feed '\(feedName)' of \(database.name) in "
            + String(format: "%.2f s (%.0f rows/s)", seconds, rate))
    return 0
}

/// The preset an option names (`--preset`, `--insert-preset`).
/// - Throws: ``UsageError`` naming the option and listing the presets for an unknown name (a value the
///   option cannot take, exit 64); ``FeedResources/PresetError`` (exit 1) for a preset file that cannot be read.
func namedPreset(_ name: String, option: String) throws -> Preset {
    let known = try Preset.availableNames()
    guard known.contains(name) else {
        throw UsageError.badValue(option, "unknown preset '\(name)' (\(known.joined(separator: ", ")))")
    }
    return try Preset.named(name)
}
