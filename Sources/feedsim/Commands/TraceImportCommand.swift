import FeedLayout
import FeedReplay
import Foundation

/// `feedsim trace import`: converts a recording to the canonical JSON Lines trace.
let traceImportCommand = Command(
    name: "trace import",
    summary: "Convert a recorded session (evemu, chrome, touch-csv, rrweb) to a FeedSim trace (JSON Lines).",
    usage: "trace import --from FORMAT FILE [-o OUT] [--viewport WxH] [--screen-scale S] [--refresh-rate HZ] [format options]",
    options: [
        OptionSpec("--from", .value, "FORMAT", help: "Input format: " + TraceFormat.allCases.map(\.rawValue).joined(separator: ", ") + "."),
        OptionSpec("-o", "OUT", accepts: .path, help: "Write the trace here (atomically) instead of to stdout."),
        OptionSpec(
            "--viewport", "WxH", accepts: .numbers(separator: "x", count: 2...2, each: 1...LayoutOptions.maxViewportSide),
            help: "Viewport in points (default: per format, see docs/trace-format.md)."),
        OptionSpec("--screen-scale", "S", accepts: .number(0.1...10), help: "Pixels per point written to the header (default: per format)."),
        OptionSpec("--refresh-rate", "HZ", accepts: .number(1...1000), default: "60", help: "Display refresh rate written to the header."),
        OptionSpec("--device", .value, "KIND", help: "evemu: auto (default), touchscreen or touchpad."),
        OptionSpec("--axis-x", .value, "MIN:MAX", help: "evemu: x axis range in device units (needed without A: lines)."),
        OptionSpec("--axis-y", .value, "MIN:MAX", help: "evemu: y axis range in device units (needed without A: lines)."),
        OptionSpec("--traditional", .flag, help: "evemu touchpads: traditional scrolling (default natural: content follows fingers)."),
        OptionSpec(
            "--drag-speed", "PT_PER_S", accepts: .number(1...100_000),
            help: "chrome: emit touch drags as scroll deltas at this speed (default: wheel only)."),
        OptionSpec(
            "--px-per-pt", "K", accepts: .number(0.01...100), default: "1",
            help: "touch-csv: pixels per point (2.625 for the AOSP sailfish rows)."),
        OptionSpec(
            "--pause", "MS", accepts: .number(0...3_600_000),
            help: "touch-csv: place gestures one after another with this pause (default: keep a continuous clock, else 500)."),
        OptionSpec("--rotary-step", "PT", accepts: .number(0...10_000), default: "64", help: "touch-csv: points per AXIS_SCROLL unit of SCROLL rows."),
        OptionSpec(
            "--scroll-id", "ID", accepts: .integer(0...Int(Int32.max)), help: "rrweb: node id of the feed's scroller (default: the document)."),
    ],
    positionals: 1...1,
    run: { args in
        guard let formatName = args.value("--from") else { throw UsageError("missing required option '--from'") }
        guard let format = TraceFormat(rawValue: formatName) else {
            throw CommandFailure("--from: unknown format '\(formatName)' (" + TraceFormat.allCases.map(\.rawValue).joined(separator: ", ") + ")")
        }
        guard args.positionals.count == 1, let file = args.positionals.first else { throw UsageError("expected exactly one input FILE") }
        let viewport = try args.numbers("--viewport").map { Size(width: $0[0], height: $0[1]) }
        let scale = try args.double("--screen-scale")
        let refreshRate = try args.double("--refresh-rate")!

        let trace: Trace
        switch format {
        case .canonical:
            trace = try Trace.read(contentsOf: file)
        case .evemu:
            guard let device = EvemuImporter.Device(rawValue: args.value("--device") ?? "auto") else {
                throw CommandFailure("--device: expected auto, touchscreen or touchpad")
            }
            let importer = EvemuImporter(
                device: device, viewport: viewport, axisX: try axisRange(args, "--axis-x"), axisY: try axisRange(args, "--axis-y"),
                naturalScrolling: !args.flag("--traditional"), screenScale: scale ?? 1, refreshRate: refreshRate)
            trace = try importer.importTrace(from: try TraceFormat.text(file), file: file)
        case .chrome:
            var importer = ChromeTraceImporter(dragSpeed: try args.double("--drag-speed"), refreshRate: refreshRate)
            if let viewport { importer.viewport = viewport }
            if let scale { importer.screenScale = scale }
            trace = try importer.importTrace(from: try TraceFormat.data(file), file: file)
        case .touchCSV:
            var importer = TouchCSVImporter(
                pixelsPerPoint: try args.double("--px-per-pt")!,
                pause: try args.double("--pause"),
                rotaryPointsPerStep: try args.double("--rotary-step")!,
                screenScale: scale, refreshRate: refreshRate)
            if let viewport { importer.viewport = viewport }
            trace = try importer.importTrace(from: try TraceFormat.text(file), file: file)
        case .rrweb:
            let importer = RRWebImporter(
                scrollTarget: try args.int("--scroll-id"), viewport: viewport, screenScale: scale ?? 1, refreshRate: refreshRate)
            trace = try importer.importTrace(from: try TraceFormat.data(file), file: file)
        }
        try emit(trace, to: args.value("-o"))
        return 0
    }
)

/// Parses `MIN:MAX` integer axis ranges. - Throws: ``CommandFailure`` naming the option.
private func axisRange(_ args: ParsedArguments, _ name: String) throws -> EvemuRecording.AxisRange? {
    guard let text = args.value(name) else { return nil }
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2, let low = Int(parts[0]), let high = Int(parts[1]), high > low else {
        throw CommandFailure("\(name): expected MIN:MAX integers with MIN < MAX, got '\(text)'")
    }
    return EvemuRecording.AxisRange(minimum: low, maximum: high)
}

/// Writes the trace to `path` atomically and a one-line summary to stdout, or the trace itself to stdout.
func emit(_ trace: Trace, to path: String?) throws {
    guard let path else {
        FileHandle.standardOutput.write(Data(trace.jsonLines().utf8))
        return
    }
    do {
        try writeOutput(Data(trace.jsonLines().utf8), to: path, option: "-o")
    } catch {
        throw CommandFailure("cannot write \(path): \(error.localizedDescription)")
    }
    let seconds = String(format: "%.3f", trace.durationMilliseconds / 1000)
    print("\(path): \(trace.events.count) events, \(seconds) s, source \(trace.header.source)")
}
