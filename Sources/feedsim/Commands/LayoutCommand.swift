import FeedLayout
import FeedModel
import FeedStore
import Foundation

/// `feedsim layout`: lay out N items and print the elements in a rect (the viewport by default).
let layoutCommand = Command(
    name: "layout",
    summary: "Lay out a feed and print the layout attributes of the elements in a rect.",
    usage: """
        layout --layout KIND --count N --viewport WxH [--offset X,Y | --rect X,Y,W,H] [layout options] \
        [--sizes FILE | --db PATH|URI [--feed NAME]] [--target-offset X,Y [--velocity VX,VY]] [--json] [--svg FILE]
        """,
    options: LayoutOptions.specs + [
        OptionSpec("--count", "N", accepts: .integer(0...LayoutOptions.maxCount), help: "Items to lay out (default: every line of --sizes)."),
        OptionSpec(
            "--viewport", "WxH", accepts: .numbers(separator: "x", count: 2...2, each: 1...LayoutOptions.maxViewportSide),
            help: "Viewport size in points, e.g. 390x844."),
        OptionSpec(
            "--offset", "X,Y", accepts: .numbers(separator: ",", count: 2...2, each: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude),
            default: "0,0", help: "Content offset: the rect is the viewport there."),
        OptionSpec(
            "--rect", "X,Y,W,H", accepts: .numbers(separator: ",", count: 4...4, each: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude),
            help: "Query this rect instead of the viewport (content coordinates; W, H ≥ 0)."),
        OptionSpec("--sizes", "FILE", accepts: .path, help: "Intrinsic sizes, CSV 'width,height' per line (default: --item-size or 100x100 for every item)."),
        OptionSpec("--db", "PATH|URI", accepts: .path, help: "Intrinsic sizes of the feed's items, newest first (--count of them, default all)."),
        OptionSpec("--feed", .value, "NAME", help: "Feed of --db (default home)."),
        OptionSpec(
            "--target-offset", "X,Y", accepts: .numbers(separator: ",", count: 2...2, each: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude),
            help: "Also print where a scroll proposed to stop here would stop."),
        OptionSpec(
            "--velocity", "VX,VY", accepts: .numbers(separator: ",", count: 2...2, each: -1_000_000...1_000_000), default: "0,0",
            help: "Scroll velocity for --target-offset, points per second."),
        OptionSpec("--json", .flag, help: "Print one JSON object instead of text."),
        OptionSpec("--svg", "FILE", accepts: .output, help: "Also draw the layout with the viewport outlined to FILE."),
    ],
    run: runLayout
)

/// Intrinsic sizes of the first `count` items (all when `nil`) in feed order, walked by keyset pages.
private func feedSizes(_ source: any FeedBackend, count: Int?) throws -> [Size] {
    let pageSize = 1000
    var sizes: [Size] = []
    var page = try source.newest(limit: min(pageSize, max(count ?? pageSize, 1)))
    while true {
        for item in page.items where count.map({ sizes.count < $0 }) ?? true {
            sizes.append(Size(width: item.width, height: item.height))
        }
        guard page.hasMoreAfter, let last = page.lastCursor, count.map({ sizes.count < $0 }) ?? true else { break }
        page = try source.after(last, limit: pageSize)
    }
    return sizes
}

@Sendable private func runLayout(_ arguments: ParsedArguments) throws -> Int32 {
    if !arguments.positionals.isEmpty { throw UsageError("unexpected argument '\(arguments.positionals[0])'") }
    let configuration = try LayoutOptions.configuration(from: arguments)
    guard let viewport = try LayoutOptions.size(arguments, "--viewport") else {
        throw UsageError("missing required option '--viewport'")
    }
    var sizes: [Size]
    if arguments.value("--sizes") != nil, arguments.value("--db") != nil {
        throw UsageError("give either --sizes or --db, not both")
    }
    if let dbPath = arguments.value("--db") {
        let source = try FeedDatabase.open(dbPath, for: .readOnly)
            .backend(feedNamed: arguments.value("--feed") ?? "home")
        let count = try arguments.int("--count")
        sizes = try feedSizes(source, count: count)
    } else if let path = arguments.value("--sizes") {
        sizes = try LayoutOptions.loadSizes(path: path)
        if let count = try arguments.int("--count") {
            guard count <= sizes.count else {
                throw CommandFailure("--count: \(count) items asked for but \(path) has \(sizes.count) sizes")
            }
            sizes.removeLast(sizes.count - count)
        }
    } else {
        guard let count = try arguments.int("--count") else {
            throw UsageError("missing required option '--count' (or give --sizes FILE)")
        }
        sizes = Array(repeating: configuration.itemSize ?? Size(width: 100, height: 100), count: count)
    }
    if arguments.value("--offset") != nil, arguments.value("--rect") != nil {
        throw UsageError("give either --offset or --rect, not both")
    }
    let rect: Rect
    if let numbers = try arguments.numbers("--rect") {
        guard numbers[2] >= 0, numbers[3] >= 0 else {
            throw UsageError.badValue("--rect", "expected a width and height ≥ 0, got '\(arguments.value("--rect") ?? "")'")
        }
        rect = Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
    } else {
        rect = Rect(origin: try LayoutOptions.point(arguments, "--offset") ?? .zero, size: viewport)
    }
    let target = try LayoutOptions.point(arguments, "--target-offset")
    let velocity = try LayoutOptions.point(arguments, "--velocity") ?? .zero
    if arguments.value("--velocity") != nil, target == nil {
        throw UsageError("--velocity needs --target-offset")
    }

    let layout = try configuration.makeLayout()
    try layout.prepare(sizes: sizes, viewport: viewport)
    let bounds = Rect(origin: rect.origin, size: viewport)
    if layout.shouldInvalidateLayout(forBoundsChange: bounds) { layout.invalidateLayout(forBoundsChange: bounds) }
    let elements = layout.attributesForElements(in: rect)
    let targetOffset = target.map { layout.targetContentOffset(forProposed: $0, velocity: velocity) }

    if let path = arguments.value("--svg") {
        // writeOutput's failure names the option, the path and why (wrapped again, it read
        // "The operation could not be completed. (feedsim.CommandFailure error 1.)").
        // The drawing spans the viewport and one more on each side: three times its reach must stay finite.
        let reach = [rect.minX, rect.minY, rect.maxX, rect.maxY, rect.width, rect.height].map(abs).max() ?? 0
        guard (reach * 4).isFinite else {
            throw CommandFailure("--svg \(path): the viewport reaches \(reach) pt; a drawing around it cannot be written in finite numbers")
        }
        try writeOutput(Data(layout.svgDrawing(viewport: rect).utf8), to: path, option: "--svg")
    }
    let report = LayoutReport(
        contentSize: .init(layout.contentSize), rect: .init(rect), elements: elements.map(LayoutReport.Element.init),
        targetContentOffset: targetOffset.map(LayoutReport.XY.init))
    if arguments.flag("--json") {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        print(String(decoding: try encoder.encode(report), as: UTF8.self))
    } else {
        print(report.text)
    }
    return 0
}

/// The `feedsim layout --json` object: `content_size`, `rect`, `elements` (cells and supplementary
/// views, in index order: refresh, header, cells, footer), `target_content_offset`.
struct LayoutReport: Encodable {
    struct WH: Encodable {
        var width: Double
        var height: Double
        init(_ size: Size) { (width, height) = (size.width, size.height) }
    }
    struct XY: Encodable {
        var x: Double
        var y: Double
        init(_ point: Point) { (x, y) = (point.x, point.y) }
    }
    struct Frame: Encodable {
        var x: Double
        var y: Double
        var width: Double
        var height: Double
        init(_ rect: Rect) { (x, y, width, height) = (rect.minX, rect.minY, rect.width, rect.height) }
    }
    struct TransformJSON: Encodable {
        var scaleX: Double
        var scaleY: Double
        var translateX: Double
        var translateY: Double
        enum CodingKeys: String, CodingKey {
            case scaleX = "scale_x", scaleY = "scale_y", translateX = "translate_x", translateY = "translate_y"
        }
    }
    /// One element: `category` is `cell`, `supplementary` or `decoration`
    /// (`UICollectionView.ElementCategory`); `element_kind` names a supplementary view's kind as
    /// UIKit spells it (`UICollectionElementKindSectionHeader`, ...).
    struct Element: Encodable {
        var category: String
        var elementKind: String?
        /// `cell`, `refresh`, `header`, `footer`: the text summary's label (not encoded).
        var label: String
        var section: Int
        var item: Int
        var frame: Frame
        var alpha: Double
        var zIndex: Int
        var transform: TransformJSON
        var hidden: Bool
        enum CodingKeys: String, CodingKey {
            case category, section, item, frame, alpha, transform, hidden
            case elementKind = "element_kind"
            case zIndex = "z_index"
        }
        init(_ attributes: LayoutAttributes) {
            category = attributes.category.categoryName
            elementKind = attributes.category.elementKind
            label = attributes.category.name
            section = attributes.indexPath.section
            item = attributes.indexPath.item
            frame = Frame(attributes.frame)
            alpha = attributes.alpha
            zIndex = attributes.zIndex
            let t = attributes.transform
            transform = TransformJSON(scaleX: t.scaleX, scaleY: t.scaleY, translateX: t.translateX, translateY: t.translateY)
            hidden = attributes.isHidden
        }
    }

    var contentSize: WH
    var rect: Frame
    var elements: [Element]
    var targetContentOffset: XY?

    enum CodingKeys: String, CodingKey {
        case contentSize = "content_size", rect, elements
        case targetContentOffset = "target_content_offset"
    }

    /// The human-readable form: one line per element.
    var text: String {
        // Whole numbers without ".0", but only where Int can hold them (offsets may be huge).
        // Points to 3 decimals, trailing zeros dropped (the JSON keeps every digit).
        func n(_ value: Double) -> String {
            if value == value.rounded() && abs(value) < 1e15 { return String(Int(value)) }
            var text = String(format: "%.3f", value)
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
            return text == "-0" ? "0" : text
        }
        var lines = [
            "content size \(n(contentSize.width)) x \(n(contentSize.height))",
            "rect (\(n(rect.x)), \(n(rect.y)), \(n(rect.width)), \(n(rect.height))): \(elements.count) element(s)",
        ]
        for element in elements {
            let f = element.frame
            var line = "  \(element.label.padding(toLength: 7, withPad: " ", startingAt: 0)) "
            line += element.label == "cell" ? "\(element.item)".padding(toLength: 8, withPad: " ", startingAt: 0) : "        "
            line += "x \(n(f.x))  y \(n(f.y))  w \(n(f.width))  h \(n(f.height))"
            if element.transform.scaleX != 1 || element.transform.scaleY != 1 { line += "  scale \(element.transform.scaleX)" }
            if element.alpha != 1 { line += "  alpha \(element.alpha)" }
            if element.hidden { line += "  hidden" }
            lines.append(line)
        }
        if let target = targetContentOffset { lines.append("target content offset (\(n(target.x)), \(n(target.y)))") }
        return lines.joined(separator: "\n")
    }
}
