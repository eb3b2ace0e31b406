import FeedLayout
import FeedModel
import FeedSimBenchmarks
import Foundation

/// `feedsim bench layout`: prepare time and rect-query time per layout at growing item counts,
/// beside the brute-force filter measured in the same run.
let benchLayoutCommand = Command(
    name: "bench layout",
    summary: "Benchmark layout prepare and rect queries against the brute-force filter.",
    usage: "bench layout [--counts N,N,...] [--queries Q] [--kinds KIND,...] [--seed S] [--json]",
    options: [
        OptionSpec(
            "--counts", "N,...", accepts: .numbers(separator: ",", count: 1...20, each: 1...100_000_000),
            default: "10000,1000000,10000000", help: "Item counts (whole numbers)."),
        OptionSpec("--queries", "Q", accepts: .integer(1...10_000_000), default: "2000", help: "Viewport queries per layout and count."),
        OptionSpec("--kinds", .value, "KIND,...", help: "Layouts to measure (default all)."),
        OptionSpec("--seed", "S", accepts: .seed, default: "1", help: "Seed for sizes and query offsets."),
        OptionSpec("--json", .flag, help: "Print a JSON array instead of a table."),
    ],
    run: runBenchLayout
)

/// One measured (layout, count) pair.
private struct LayoutBenchRow: Encodable {
    var kind: String
    var items: Int
    var prepareMilliseconds: Double
    var queries: Int
    var queryMicroseconds: Double
    var elementsPerQuery: Double
    var bruteForceQueries: Int
    var bruteForceMicroseconds: Double
    /// Brute-force time per query ÷ layout time per query.
    var speedup: Double
    /// This count's query time ÷ the smallest count's (flat ≈ 1).
    var queryCostVsSmallest: Double
    var mismatches: Int

    enum CodingKeys: String, CodingKey {
        case kind, items, queries, speedup, mismatches
        case prepareMilliseconds = "prepare_ms"
        case queryMicroseconds = "query_us"
        case elementsPerQuery = "elements_per_query"
        case bruteForceQueries = "brute_force_queries"
        case bruteForceMicroseconds = "brute_force_query_us"
        case queryCostVsSmallest = "query_cost_vs_smallest"
    }
}

/// A configuration per kind, on a 390 × 844 phone viewport.
private func benchConfiguration(_ kind: LayoutKind) -> LayoutConfiguration {
    switch kind {
    case .grid: return LayoutConfiguration(kind: .grid, columns: 3, spacing: 2, headerHeight: 44)
    case .flow: return LayoutConfiguration(kind: .flow, spacing: 8, lineSpacing: 8, insets: EdgeInsets(all: 8))
    case .mosaic: return LayoutConfiguration(kind: .mosaic, spacing: 4, insets: EdgeInsets(all: 4), bigHeight: 260)
    case .carousel:
        return LayoutConfiguration(kind: .carousel, itemSize: Size(width: 300, height: 420), spacing: 16, zoom: 0.2, fade: true)
    case .strip: return LayoutConfiguration(kind: .strip)
    case .waterfall: return LayoutConfiguration(kind: .waterfall, columns: 2, spacing: 8, insets: EdgeInsets(all: 8))
    case .list: return LayoutConfiguration(kind: .list, spacing: 1, headerHeight: 44, footerHeight: 60)
    }
}

private func seconds(_ duration: Duration) -> Double {
    let parts = duration.components
    return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
}

/// The brute-force filter, streaming over every item (no n-element array).
private func bruteForce(_ layout: any CollectionLayout, _ rect: Rect) -> [LayoutAttributes] {
    var result: [LayoutAttributes] = []
    if let header = layout.attributesForSupplementaryView(ofKind: .header), header.frame.intersects(rect) { result.append(header) }
    for index in 0..<layout.itemCount {
        if let attributes = layout.attributesForItem(at: index), attributes.frame.intersects(rect) { result.append(attributes) }
    }
    if let footer = layout.attributesForSupplementaryView(ofKind: .footer), footer.frame.intersects(rect) { result.append(footer) }
    return result
}

@Sendable private func runBenchLayout(_ arguments: ParsedArguments) throws -> Int32 {
    try arguments.expectNoPositionals()
    let counts = try arguments.numbers("--counts")!.map { value -> Int in
        guard value == value.rounded() else {
            throw UsageError.badValue("--counts", "expected whole numbers, got \(value)")
        }
        return Int(value)
    }
    let queries = try arguments.int("--queries")!
    let seed = try arguments.seed("--seed")!
    let kinds = try (arguments.value("--kinds")?.split(separator: ",").map { name -> LayoutKind in
        guard let kind = LayoutKind(rawValue: String(name)) else { throw CommandFailure("--kinds: unknown layout '\(name)'") }
        return kind
    }) ?? LayoutKind.allCases
    let viewport = Size(width: 390, height: 844)
    let clock = ContinuousClock()
    var rows: [LayoutBenchRow] = []

    for count in counts.sorted() {
        var random = SplitMix64(seed: seed &+ UInt64(count))
        let sizes = (0..<count).map { _ in
            Size(width: 100 + (random.nextUnit() * 300).rounded(), height: 60 + (random.nextUnit() * 540).rounded())
        }
        for kind in kinds {
            if standardErrorIsTerminal { printError("bench layout: \(kind.rawValue) × \(count)…") }
            let layout = try benchConfiguration(kind).makeLayout()
            let prepareStart = clock.now
            try layout.prepare(sizes: sizes, viewport: viewport)
            let prepareTime = seconds(clock.now - prepareStart)

            var queryRandom = SplitMix64(seed: seed &+ 7)
            let limit = layout.maxContentOffset
            // A strip shows every item at once; query a slice about 20 items wide so k stays fixed.
            let width = kind == .strip ? viewport.width * min(1, 20 / Double(count)) : viewport.width
            let rects = (0..<queries).map { _ in
                Rect(
                    x: queryRandom.nextUnit() * max(limit.x, viewport.width - width), y: queryRandom.nextUnit() * limit.y,
                    width: width, height: viewport.height)
            }
            var elements = 0
            let queryStart = clock.now
            for rect in rects { elements += layout.attributesForElements(in: rect).count }
            let queryTime = seconds(clock.now - queryStart) / Double(queries)

            // Brute force touches every item: sample fewer queries as n grows (≈ 2·10⁷ items visited).
            let bruteQueries = max(2, min(queries, 20_000_000 / count))
            var mismatches = 0
            var bruteTime = 0.0
            for rect in rects.prefix(bruteQueries) {
                let start = clock.now
                let oracle = bruteForce(layout, rect)
                bruteTime += seconds(clock.now - start)
                if oracle != layout.attributesForElements(in: rect) { mismatches += 1 }
            }
            bruteTime /= Double(bruteQueries)
            let smallest = rows.first { $0.kind == kind.rawValue }?.queryMicroseconds
            rows.append(
                LayoutBenchRow(
                    kind: kind.rawValue, items: count, prepareMilliseconds: prepareTime * 1e3, queries: queries,
                    queryMicroseconds: queryTime * 1e6, elementsPerQuery: Double(elements) / Double(queries),
                    bruteForceQueries: bruteQueries, bruteForceMicroseconds: bruteTime * 1e6,
                    speedup: bruteTime / queryTime, queryCostVsSmallest: smallest.map { queryTime * 1e6 / $0 } ?? 1,
                    mismatches: mismatches))
        }
    }
    rows.sort { ($0.kind, $0.items) < ($1.kind, $1.items) }

    if arguments.flag("--json") {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        print(String(decoding: try encoder.encode(rows), as: UTF8.self))
    } else {
        func f(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }
        let header = ["layout", "items", "prepare ms", "query µs", "elems/q", "brute µs (q)", "speedup", "vs smallest n"]
        var table = [header]
        for row in rows {
            table.append([
                row.kind, "\(row.items)", f(row.prepareMilliseconds), f(row.queryMicroseconds, 2), f(row.elementsPerQuery),
                "\(f(row.bruteForceMicroseconds, 0)) (\(row.bruteForceQueries))", "\(f(row.speedup, 0))×",
                "\(f(row.queryCostVsSmallest, 2))×",
            ])
        }
        let widths = header.indices.map { column in table.map { $0[column].count }.max() ?? 0 }
        for line in table {
            print(line.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: "  "))
        }
        print("viewport 390x844, \(queries) random viewport queries per row; brute force samples fewer queries at large n (column 'q'); strip queries a slice ~20 items wide.")
    }
    let bad = rows.filter { $0.mismatches > 0 }
    for row in bad { printError("bench layout: \(row.kind) × \(row.items): \(row.mismatches) query result(s) differ from the brute-force filter") }
    return bad.isEmpty ? 0 : 2
}
