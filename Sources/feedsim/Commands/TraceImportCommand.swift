import FeedLayout
import FeedModel
import FeedReplay
import Foundation

/// `feedsim trace import`: converts a recording to the canonical JSON Lines trace.
let traceImportCommand = Command(
    name: "trace import",
    summary: "Convert a recorded session (evemu, chrome, touch-csv, rrweb; at most 24 h long) to a FeedSim trace (JSON Lines).",
    usage: "trace import --from FORMAT FILE [-o OUT] [--viewport WxH] [--screen-scale S] [--refresh-rate HZ] [format options]",
    options: [
        OptionSpec("--from", .value, "FORMAT", help: "Input format: " + TraceFormat.allCases.map(\.rawValue).joined(separator: ", ") + "."),
        OptionSpec("-o", "OUT", accepts: .output, help: "Write the trace here (atomically, via .OUT.feedsim-tmp) instead of to stdout."),
    ] + TraceImportParsing.specs,
    positionals: 1...1,
    run: { args in
        guard let formatName = args.value("--from") else { throw UsageError("missing required option '--from'") }
        guard let format = TraceFormat(rawValue: formatName) else {
            throw UsageError.badValue("--from", "unknown format '\(formatName)' (" + TraceFormat.allCases.map(\.rawValue).joined(separator: ", ") + ")")
        }
        guard args.positionals.count == 1, let file = args.positionals.first else { throw UsageError("expected exactly one input FILE") }
        try TraceImportParsing.checkFormatOptions(args, format: format, formatOption: "--from")
        let imported = try TraceImportParsing.settings(args).load(format, path: file)
        TraceImportParsing.warn(imported)
        try emit(imported.trace, to: args.value("-o"))
        return 0
    }
)

/// The importer options `trace import`, `replay` and `load` share: each works the same on all three.
enum TraceImportParsing {
    static let specs: [OptionSpec] = [
        OptionSpec(
            "--viewport", "WxH", accepts: .numbers(separator: "x", count: 2...2, each: 1...LayoutOptions.maxViewportSide),
            help: "Viewport in points (default: per format, see docs/trace-format.md); on replay and load it also overrides a trace header's."),
        OptionSpec("--screen-scale", "S", accepts: .number(0.1...10), help: "Pixels per point written to the header (default: per format)."),
        OptionSpec(
            "--refresh-rate", "HZ", accepts: .number(1...1000),
            help: "Display refresh rate written to the header (default 60; on replay and load it overrides a trace header's)."),
        OptionSpec("--device", .value, "KIND", help: "evemu: auto (default), touchscreen or touchpad."),
        OptionSpec("--axis-x", .value, "MIN:MAX", help: "evemu: x axis range in device units (needed without A: lines)."),
        OptionSpec("--axis-y", .value, "MIN:MAX", help: "evemu: y axis range in device units (needed without A: lines)."),
        OptionSpec("--traditional", .flag, help: "evemu touchpads: traditional scrolling (default natural: content follows fingers)."),
        OptionSpec(
            "--drag-speed", "PT_PER_S", accepts: .number(1...100_000),
            help: "chrome: emit touch drags as scroll deltas at this speed (default: wheel only)."),
        OptionSpec(
            "--px-per-pt", "K", accepts: .number(0.01...100),
            help: "touch-csv: pixels per point of the coordinates (default 1, with a warning; 2.625 for the AOSP sailfish rows)."),
        OptionSpec(
            "--pause", "MS", accepts: .number(0...3_600_000),
            help: "touch-csv: place gestures one after another with this pause (default: keep a continuous clock, else 500)."),
        OptionSpec("--rotary-step", "PT", accepts: .number(0...10_000), default: "64", help: "touch-csv: points per AXIS_SCROLL unit of SCROLL rows."),
        OptionSpec(
            "--scroll-id", "ID", accepts: .integer(0...Int(Int32.max)), help: "rrweb: node id of the feed's scroller (default: the document)."),
    ]

    /// The importer options that only one format reads, by option.
    static let formatOptions: [String: TraceFormat] = [
        "--device": .evemu, "--axis-x": .evemu, "--axis-y": .evemu, "--traditional": .evemu, "--drag-speed": .chrome,
        "--px-per-pt": .touchCSV, "--pause": .touchCSV, "--rotary-step": .touchCSV, "--scroll-id": .rrweb,
    ]

    /// Refuses an importer option the trace's format does not read (`--px-per-pt` with a chrome
    /// trace was ignored without a word), as layout options a layout does not use are refused.
    /// - Throws: ``UsageError`` naming the option, its format and the one given.
    static func checkFormatOptions(_ args: ParsedArguments, format: TraceFormat, formatOption: String) throws {
        for (option, owner) in formatOptions.sorted(by: { $0.key < $1.key }) where owner != format && args.flag(option) {
            throw UsageError.badValue(
                option, "an importer option of \(owner.rawValue), but \(formatOption) is \(format.rawValue): it would be ignored")
        }
    }

    /// - Throws: ``CommandFailure`` naming the option whose value is malformed.
    static func settings(_ args: ParsedArguments) throws -> TraceImportSettings {
        var settings = TraceImportSettings()
        settings.viewport = try args.numbers("--viewport").map { Size(width: $0[0], height: $0[1]) }
        settings.screenScale = try args.double("--screen-scale")
        settings.refreshRate = try args.double("--refresh-rate")
        guard let device = EvemuImporter.Device(rawValue: args.value("--device") ?? "auto") else {
            throw UsageError.badValue("--device", "expected auto, touchscreen or touchpad")
        }
        settings.device = device
        settings.axisX = try axisRange(args, "--axis-x")
        settings.axisY = try axisRange(args, "--axis-y")
        settings.naturalScrolling = !args.flag("--traditional")
        settings.dragSpeed = try args.double("--drag-speed")
        settings.pixelsPerPoint = try args.double("--px-per-pt")
        settings.pause = try args.double("--pause")
        settings.rotaryStep = try args.double("--rotary-step") ?? 64
        settings.scrollTarget = try args.int("--scroll-id")
        return settings
    }

    /// Reads a trace in any supported format (`--trace-format`, default jsonl) with the importer
    /// options and header overrides given.
    /// - Throws: ``UsageError`` for an unknown format, ``CommandFailure`` for a missing file; ``TraceError`` naming
    ///   the file, line and field for malformed input.
    static func load(path: String, format: String?, _ args: ParsedArguments) throws -> ImportedTrace {
        let name = format ?? "jsonl"
        guard let traceFormat = TraceFormat(rawValue: name) else {
            throw UsageError.badValue("--trace-format", "unknown format '\(name)' (jsonl, evemu, chrome, touch-csv, rrweb)")
        }
        try checkFormatOptions(args, format: traceFormat, formatOption: "--trace-format")
        guard FileManager.default.fileExists(atPath: path) else { throw CommandFailure("\(path): no such file") }
        return try settings(args).load(traceFormat, path: path)
    }

    /// Prints each unit the import had to guess on stderr, one line each.
    static func warn(_ imported: ImportedTrace) {
        for guess in imported.guesses {
            FileHandle.standardError.write(Data("warning: \(imported.trace.header.source): \(guess)\n".utf8))
        }
    }
}

/// Parses `MIN:MAX` integer axis ranges. - Throws: ``CommandFailure`` naming the option.
private func axisRange(_ args: ParsedArguments, _ name: String) throws -> EvemuRecording.AxisRange? {
    guard let text = args.value(name) else { return nil }
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    let limits = EvemuRecording.AxisRange.limits
    guard parts.count == 2, let low = Int(parts[0]), let high = Int(parts[1]), high > low, limits.contains(low),
        limits.contains(high)
    else {
        throw UsageError(
            "\(name): expected MIN:MAX integers with MIN < MAX within \(limits.lowerBound)...\(limits.upperBound) "
                + "(the kernel's 32-bit axis values), got '\(text)'")
    }
    return EvemuRecording.AxisRange(minimum: low, maximum: high)
}

/// Writes the trace to `path` atomically and a one-line summary to stdout, or the trace itself to stdout.
func emit(_ trace: Trace, to path: String?) throws {
    guard let path else {
        FileHandle.standardOutput.write(Data(trace.jsonLines().utf8))
        return
    }
    try writeOutput(to: path, option: "-o") { writer in try trace.writeJSONLines { try writer.write($0) } }
    let seconds = String(format: "%.3f", trace.durationMilliseconds / 1000)
    print("\(path): \(trace.events.count) events, \(seconds) s, source \(trace.header.source)")
}
