import FeedLayout
import FeedModel
import Foundation

/// The layout options shared by `feedsim layout` and `feedsim replay`: they become a
/// ``LayoutConfiguration``. Intrinsic sizes (`--sizes`, `--db`) and the viewport are read by
/// the helpers below, so each command chooses which it offers.
enum LayoutOptions {
    /// The options that describe a layout (kind and parameters). One a kind does not read
    /// (``LayoutKind/parameters``) is a usage error naming the option and the layout.
    static let specs: [OptionSpec] = [
        OptionSpec(
            "--layout", .value, "LAYOUT", help: "Layout: " + LayoutKind.allCases.map(\.rawValue).joined(separator: "|") + "."),
        OptionSpec("--kind", .value, "LAYOUT", help: "Old name of --layout, kept as an alias for now."),
        OptionSpec("--columns", "C", accepts: .integer(1...1_000), default: "3", help: "Columns of a grid or waterfall."),
        OptionSpec(
            "--item-size", "WxH", accepts: .numbers(separator: "x", count: 2...2, each: 1...LayoutOptions.maxLength),
            help: "Fixed item size in points (grid: default square from the width; carousel: required)."),
        OptionSpec("--spacing", "S", accepts: .number(0...LayoutOptions.maxSpacing), default: "0", help: "Inter-item spacing in points."),
        OptionSpec(
            "--line-spacing", "S", accepts: .number(0...LayoutOptions.maxSpacing),
            help: "Spacing between lines in points (default: --spacing)."),
        OptionSpec(
            "--insets", "T,L,B,R", accepts: .numbers(separator: ",", count: 1...4, each: 0...LayoutOptions.maxSpacing), default: "0",
            help: "Content insets in points, or one number for all four."),
        OptionSpec(
            "--header-height", "H", accepts: .number(0...LayoutOptions.maxLength),
            help: "Header extent at the content's start in points (grid, flow, mosaic, waterfall, list; default none)."),
        OptionSpec(
            "--footer-height", "H", accepts: .number(0...LayoutOptions.maxLength),
            help: "Footer (load-more view) extent at the content's end in points (grid, flow, mosaic, waterfall, list; default none)."),
        OptionSpec(
            "--refresh-height", "H", accepts: .number(0...LayoutOptions.maxLength),
            help: "Refresh view extent above the content in points (grid, flow, mosaic, waterfall, list; default none)."),
        OptionSpec("--big-height", "B", accepts: .number(1...LayoutOptions.maxLength), default: "200", help: "Mosaic big-item height in points."),
        OptionSpec("--zoom", "Z", accepts: .number(0...10), default: "0", help: "Carousel: the centred item is scaled by 1 + Z."),
        OptionSpec("--fade", .flag, help: "Carousel: fade items away from the centre (alpha down to 0.6)."),
        OptionSpec("--direction", .value, "DIR", help: "Flow scroll direction: vertical|horizontal (default vertical)."),
        OptionSpec("--alignment", .value, "ALIGN", help: "Flow line alignment: justified (UIKit) | left (default justified)."),
        OptionSpec(
            "--estimated-height", "H", accepts: .number(1...LayoutOptions.maxLength),
            help: "List: rows are this tall until measured (self-sizing)."),
    ]

    /// The largest length option in points (item sides, header, footer, big height): the
    /// layouts' own bound on an intrinsic side (1,000,000 pt).
    static let maxLength = 1_000_000.0
    /// The largest spacing or inset in points.
    static let maxSpacing = 100_000.0
    /// The largest viewport side in points (a wall of 8K screens is some 20,000).
    static let maxViewportSide = 100_000.0
    /// The largest layout `--count`: every item's attributes are computed and kept
    /// (a million take some 15 s and 450 MB in a debug build; ten million, 150 s and 4.5 GB).
    static let maxCount = 1_000_000

    /// The layout `--layout` names (or its old alias `--kind`; an item's `kind` is its reuse
    /// identifier), falling back to `defaultKind`, or required.
    /// - Throws: ``UsageError`` when neither is given without a default, or both are given, or
    ///   naming the option for an unknown layout.
    static func layoutKind(from arguments: ParsedArguments, defaultKind: LayoutKind?) throws -> LayoutKind {
        let given = [("--layout", arguments.value("--layout")), ("--kind", arguments.value("--kind"))]
            .compactMap { name, value in value.map { (name, $0) } }
        if given.count > 1 { throw UsageError("--kind is the old name of --layout: give one of them") }
        guard let (name, text) = given.first ?? defaultKind.map({ ("--layout", $0.rawValue) }) else {
            throw UsageError("missing required option '--layout'")
        }
        guard let kind = LayoutKind(rawValue: text) else {
            throw UsageError.badValue(
                name, "unknown layout '\(text)' (\(LayoutKind.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        return kind
    }

    /// The configuration the options describe. `--layout` (alias `--kind`) falls back to `defaultKind`, or is required.
    /// - Throws: ``UsageError`` when `--layout` is missing, or naming the option for an unknown layout, a malformed
    ///   value or a carousel without `--item-size`.
    static func configuration(from arguments: ParsedArguments, defaultKind: LayoutKind? = nil) throws -> LayoutConfiguration {
        let kind = try layoutKind(from: arguments, defaultKind: defaultKind)
        try rejectUnused(arguments, kind: kind)
        var configuration = LayoutConfiguration(kind: kind)
        if let columns = try arguments.int("--columns") { configuration.columns = columns }
        configuration.itemSize = try size(arguments, "--item-size")
        if let spacing = try arguments.double("--spacing") { configuration.spacing = spacing }
        configuration.lineSpacing = try arguments.double("--line-spacing")
        if let insets = try arguments.numbers("--insets") {
            guard insets.count == 1 || insets.count == 4 else {
                throw UsageError.badValue("--insets", "expected one number or four (T,L,B,R), got \(insets.count)")
            }
            configuration.insets =
                insets.count == 1
                ? EdgeInsets(all: insets[0]) : EdgeInsets(top: insets[0], left: insets[1], bottom: insets[2], right: insets[3])
        }
        if let header = try arguments.double("--header-height") { configuration.headerHeight = header }
        if let footer = try arguments.double("--footer-height") { configuration.footerHeight = footer }
        if let refresh = try arguments.double("--refresh-height") { configuration.refreshHeight = refresh }
        if let big = try arguments.double("--big-height") { configuration.bigHeight = big }
        if let zoom = try arguments.double("--zoom") { configuration.zoom = zoom }
        configuration.fade = arguments.flag("--fade")
        if let text = arguments.value("--direction") {
            guard let direction = ScrollAxis(rawValue: text) else {
                throw UsageError.badValue("--direction", "expected vertical or horizontal, got '\(text)'")
            }
            configuration.direction = direction
        }
        if let text = arguments.value("--alignment") {
            guard let alignment = FlowAlignment(rawValue: text) else {
                throw UsageError.badValue("--alignment", "expected justified or left, got '\(text)'")
            }
            configuration.alignment = alignment
        }
        configuration.estimatedHeight = try arguments.double("--estimated-height")
        if kind == .carousel, configuration.itemSize == nil {
            throw UsageError("--item-size WxH is required by the carousel layout (e.g. --item-size 300x400)", showsUsage: false)
        }
        return configuration
    }

    /// Refuses a layout option the kind does not read (it would be dropped silently).
    /// - Throws: ``UsageError`` naming the first such option, the layout and what it does use.
    static func rejectUnused(_ arguments: ParsedArguments, kind: LayoutKind) throws {
        let used = Set(kind.parameters.map { "--" + $0 })
        for spec in specs where spec.name != "--kind" && spec.name != "--layout" && arguments.flag(spec.name) && !used.contains(spec.name) {
            let uses = kind.parameters.isEmpty ? "no layout options" : kind.parameters.map { "--" + $0 }.joined(separator: ", ")
            throw UsageError(
                "\(spec.name) is not used by the \(kind.rawValue) layout (\(kind.rawValue) uses \(uses))", showsUsage: false)
        }
    }

    /// A `WxH` option as a size, `nil` when absent.
    /// - Throws: ``CommandFailure`` naming the option when it is not two numbers.
    static func size(_ arguments: ParsedArguments, _ name: String) throws -> Size? {
        guard let numbers = try arguments.numbers(name) else { return nil }
        return Size(width: numbers[0], height: numbers[1])
    }

    /// An `X,Y` option as a point, `nil` when absent.
    static func point(_ arguments: ParsedArguments, _ name: String) throws -> Point? {
        guard let numbers = try arguments.numbers(name) else { return nil }
        return Point(x: numbers[0], y: numbers[1])
    }

    /// Intrinsic sizes from a CSV file: one `width,height` pair per line, in points. Blank lines
    /// and lines starting with `#` are skipped, as is a first line `width,height`.
    /// - Throws: ``CommandFailure`` naming the file, the line and the field when a value is not a
    ///   finite number ≥ 0, or when the file cannot be read.
    static func loadSizes(path: String) throws -> [Size] {
        let text: String
        do throws(FileError) {
            // Plain reasons ("no such file", "is a directory"), not Foundation's sentences.
            let data = try InputFile.read(path, maximumBytes: 1 << 30)
            guard let decoded = String(data: data, encoding: .utf8) else {
                throw FileError(path: path, reason: "not UTF-8 text")
            }
            text = decoded
        } catch {
            throw CommandFailure("\(path): cannot read intrinsic sizes: \(error.reason)")
        }
        var sizes: [Size] = []
        for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if offset == 0, line.lowercased().replacingOccurrences(of: " ", with: "") == "width,height" { continue }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count == 2 else {
                throw CommandFailure("\(path):\(offset + 1): expected 'width,height', got \(fields.count) field(s)")
            }
            var values: [Double] = []
            for (field, name) in zip(fields, ["width", "height"]) {
                let trimmed = field.trimmingCharacters(in: .whitespaces)
                guard let value = Double(trimmed), value.isFinite, value >= 0 else {
                    throw CommandFailure("\(path):\(offset + 1): field \(name): expected a finite number ≥ 0, got '\(trimmed)'")
                }
                values.append(value)
            }
            sizes.append(Size(width: values[0], height: values[1]))
        }
        return sizes
    }
}
