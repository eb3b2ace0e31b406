import FeedLayout
import FeedModel
import Foundation

/// `feedsim bench layout`: prepare time and rect-query time per layout at growing item counts,
/// beside the brute-force filter measured in the same run.
///
/// Two kinds of query, on a 390 × 844 phone viewport:
/// - **scroll**: a viewport that scrolls as a person does (``scrollOffsets(frames:limit:seed:)``:
///   flings that decelerate, pauses, reversals, 60 frames a second), so each query overlaps the
///   last one; the layouts start each search from the last answer (their query hint). The target:
///   a query costs at most ``scrollTarget`` × its cost at the smallest count, for ``targetKinds``.
/// - **jump**: viewports at random offsets, each unrelated to the last (a scrubber, scroll to
///   top): the search falls back to an interpolated guess; its cost grows with the arrays' size
///   (cache misses), and it has no target.
/// Every figure is per query, in microseconds, through `attributesForElements(in:into:)` with
/// one reused buffer (the virtualizer's call each frame); each (layout, count) is measured in
/// `rounds` rounds on different scroll sequences, timed in chunks of ``chunk`` queries, and the
/// figure is the median chunk's: on a shared machine a chunk during which another process took
/// the CPU is an outlier, not the median. A layout's counts are timed interleaved, chunk by
/// chunk, and each ratio is the median of a count's chunk ÷ the smallest count's chunk timed
/// just before it (see ``run(counts:frames:jumps:rounds:kinds:seed:progress:)``).
public enum LayoutBenchmark {
    /// A scroll query at any count costs at most this many times its cost at the smallest count (issue 13).
    public static let scrollTarget = 1.3
    /// The layouts the target is set for: those whose query searches cached offsets (grid and
    /// mosaic answer by arithmetic, carousel and strip hold few items per screen).
    public static let targetKinds: [LayoutKind] = [.list, .flow, .waterfall]

    /// One measured (layout, count) pair.
    public struct Row: Encodable, Sendable {
        public var kind: String
        public var items: Int
        public var prepareMilliseconds: Double
        public var scrollQueries: Int
        public var scrollMicroseconds: Double
        /// This count's scroll query time ÷ the smallest count's, the median of chunk pairs timed
        /// back to back (flat ≈ 1; target ≤ ``scrollTarget``).
        public var scrollCostVsSmallest: Double
        public var jumpQueries: Int
        public var jumpMicroseconds: Double
        /// This count's jump query time ÷ the smallest count's (median of chunk pairs).
        public var jumpCostVsSmallest: Double
        public var elementsPerQuery: Double
        public var bruteForceQueries: Int
        public var bruteForceMicroseconds: Double
        /// Brute-force time per query ÷ jump-query time per query.
        public var speedup: Double
        /// Queries (scroll and jump samples) whose answer differs from the brute-force filter.
        public var mismatches: Int
        /// Whether ``scrollTarget`` applies to this layout.
        public var targeted: Bool

        enum CodingKeys: String, CodingKey {
            case kind, items, speedup, mismatches, targeted
            case prepareMilliseconds = "prepare_ms"
            case scrollQueries = "scroll_queries"
            case scrollMicroseconds = "scroll_query_us"
            case scrollCostVsSmallest = "scroll_cost_vs_smallest"
            case jumpQueries = "jump_queries"
            case jumpMicroseconds = "jump_query_us"
            case jumpCostVsSmallest = "jump_cost_vs_smallest"
            case elementsPerQuery = "elements_per_query"
            case bruteForceQueries = "brute_force_queries"
            case bruteForceMicroseconds = "brute_force_query_us"
        }

        /// Whether the row meets the scroll target (rows without a target always do).
        public var withinTarget: Bool { !targeted || scrollCostVsSmallest <= LayoutBenchmark.scrollTarget }
    }

    /// Queries timed together; the median chunk gives the figure.
    public static let chunk = 250

    /// The viewport every query uses, points.
    public static let viewport = Size(width: 390, height: 844)

    /// A configuration per layout, on the phone viewport.
    public static func configuration(_ kind: LayoutKind) -> LayoutConfiguration {
        switch kind {
        case .grid: return LayoutConfiguration(kind: .grid, columns: 3, spacing: 2, headerHeight: 44)
        case .flow: return LayoutConfiguration(kind: .flow, spacing: 8, lineSpacing: 8, insets: EdgeInsets(all: 8))
        case .mosaic: return LayoutConfiguration(kind: .mosaic, spacing: 4, insets: EdgeInsets(all: 4), bigHeight: 260)
        case .carousel:
            return LayoutConfiguration(
                kind: .carousel, itemSize: Size(width: 300, height: 420), spacing: 16, zoom: 0.2, fade: true)
        case .strip: return LayoutConfiguration(kind: .strip)
        case .waterfall: return LayoutConfiguration(kind: .waterfall, columns: 2, spacing: 8, insets: EdgeInsets(all: 8))
        case .list: return LayoutConfiguration(kind: .list, spacing: 1, headerHeight: 44, footerHeight: 60)
        }
    }

    /// Content offsets, points along the scroll axis, of a viewport scrolled by a person at 60 Hz
    /// within `[0, limit]`: a fling starts at 300–6,000 pt/s (forward three times in four) and
    /// decelerates by UIKit's normal rate (velocity × 0.998 per millisecond,
    /// `UIScrollView.DecelerationRate.normal`); below 20 pt/s it stops, rests 0–30 frames, and the
    /// next fling starts; an edge stops it. The first offset is random.
    public static func scrollOffsets(frames: Int, limit: Double, seed: UInt64) -> [Double] {
        var random = SplitMix64(seed: seed)
        let decay = pow(0.998, 1000.0 / 60.0)
        var offset = random.nextUnit() * limit
        var velocity = 0.0
        var rest = 0
        var offsets: [Double] = []
        offsets.reserveCapacity(frames)
        for _ in 0..<frames {
            if abs(velocity) < 20 {
                velocity = 0
                if rest > 0 {
                    rest -= 1
                } else {
                    let speed = 300 + random.nextUnit() * 5_700
                    velocity = random.nextUnit() < 0.75 ? speed : -speed
                    rest = Int(random.nextUnit() * 30)
                }
            }
            offset += velocity / 60
            if offset < 0 || offset > limit {
                offset = min(max(offset, 0), limit)
                velocity = 0
            }
            velocity *= decay
            offsets.append(offset)
        }
        return offsets
    }

    /// One prepared layout of one count, with what its queries need.
    private struct Subject {
        var count: Int
        var layout: any CollectionLayout
        var prepareTime: Double
        var axis: ScrollAxis
        /// The largest offset a query starts at, points along the scroll axis.
        var limit: Double
        var query: Size
        var scrollTimes: [Double] = []
        var jumpTimes: [Double] = []
        /// Each chunk's time ÷ the smallest count's chunk timed just before it.
        var scrollRatios: [Double] = []
        var jumpRatios: [Double] = []
        var elements = 0
        var samples: [Rect] = []

        func rect(_ offset: Double) -> Rect { Rect(origin: axis.point(offset), size: query) }
    }

    /// Runs every layout at every count.
    ///
    /// A layout's counts are prepared together and measured interleaved: each round times a chunk
    /// of the smallest count, then the same chunk of every other count, then the next chunk, so
    /// both sides of a ratio run within a millisecond of each other. On a shared machine the load
    /// moves between seconds (a 10⁷-item prepare takes several), and a ratio of figures measured
    /// seconds apart measured that instead. The `…_vs_smallest` figures are the median of these
    /// paired chunk ratios; the µs figures the median chunk.
    /// - Parameters:
    ///   - counts: item counts, ascending order not required (the smallest is each layout's reference).
    ///   - frames: scroll queries per round; `jumps`: random queries per round; `rounds`: ≥ 1.
    ///   - progress: a line per (layout, count), for stderr.
    /// - Throws: ``LayoutError`` if a configuration cannot be prepared (none of the built-in ones).
    public static func run(
        counts: [Int], frames: Int = 20_000, jumps: Int = 2_000, rounds: Int = 3, kinds: [LayoutKind] = LayoutKind.allCases,
        seed: UInt64 = 1, progress: (String) -> Void = { _ in }
    ) throws -> [Row] {
        precondition(frames >= 1 && jumps >= 1 && rounds >= 1)
        let clock = ContinuousClock()
        let counts = Array(Set(counts)).sorted()
        var rows: [Row] = []
        for kind in kinds {
            var subjects: [Subject] = []
            for count in counts {
                progress("bench layout: \(kind.rawValue) × \(count)…")
                var random = SplitMix64(seed: seed &+ UInt64(count))
                let sizes = (0..<count).map { _ in
                    Size(width: 100 + (random.nextUnit() * 300).rounded(), height: 60 + (random.nextUnit() * 540).rounded())
                }
                let layout = try configuration(kind).makeLayout()
                let prepareStart = clock.now
                try layout.prepare(sizes: sizes, viewport: viewport)
                let prepareTime = seconds(clock.now - prepareStart)
                let axis = configuration(kind).scrollAxis
                // A strip shows every item at once; query a slice about 20 items wide so k stays fixed.
                let query = kind == .strip
                    ? Size(width: viewport.width * min(1, 20 / Double(count)), height: viewport.height) : viewport
                let slack = viewport.width - query.width
                subjects.append(
                    Subject(
                        count: count, layout: layout, prepareTime: prepareTime, axis: axis,
                        limit: max(axis.component(of: layout.maxContentOffset), slack), query: query))
            }
            progress("bench layout: \(kind.rawValue), \(rounds) round(s) of \(frames) scroll and \(jumps) jump queries…")
            // One buffer for every answer, as the virtualizer keeps one (its query each frame).
            var buffer: [LayoutAttributes] = []
            for round in 0..<rounds {
                let roundSeed = seed &+ 7 &+ UInt64(round) &* 0x9E37_79B9
                var scrolls: [[Rect]] = []
                var jumpRects: [[Rect]] = []
                for position in subjects.indices {
                    let subject = subjects[position]
                    scrolls.append(scrollOffsets(frames: frames, limit: subject.limit, seed: roundSeed).map(subject.rect))
                    var jumpRandom = SplitMix64(seed: roundSeed ^ 0xA5A5)
                    jumpRects.append((0..<jumps).map { _ in subject.rect(jumpRandom.nextUnit() * subject.limit) })
                    // The previous round's last answer must not help the first query of this one.
                    subject.layout.attributesForElements(in: subject.rect(0), into: &buffer)
                }
                for part in stride(from: 0, to: frames, by: chunk) {
                    let range = part..<min(part + chunk, frames)
                    var reference = 0.0
                    for position in subjects.indices {
                        let layout = subjects[position].layout
                        var elements = 0
                        let start = clock.now
                        for rect in scrolls[position][range] {
                            layout.attributesForElements(in: rect, into: &buffer)
                            elements += buffer.count
                        }
                        let time = seconds(clock.now - start) / Double(range.count)
                        if position == 0 { reference = time }
                        subjects[position].elements += elements
                        subjects[position].scrollTimes.append(time)
                        subjects[position].scrollRatios.append(time / reference)
                    }
                }
                for part in stride(from: 0, to: jumps, by: chunk) {
                    let range = part..<min(part + chunk, jumps)
                    var reference = 0.0
                    for position in subjects.indices {
                        let layout = subjects[position].layout
                        let start = clock.now
                        for rect in jumpRects[position][range] { layout.attributesForElements(in: rect, into: &buffer) }
                        let time = seconds(clock.now - start) / Double(range.count)
                        if position == 0 { reference = time }
                        subjects[position].jumpTimes.append(time)
                        subjects[position].jumpRatios.append(time / reference)
                    }
                }
                // Check a spread of both kinds: the first, then every 97th scroll query (a
                // hinted one) and jump query.
                for position in subjects.indices {
                    subjects[position].samples += stride(from: 0, to: frames, by: 97).map { scrolls[position][$0] }
                    subjects[position].samples += stride(from: 0, to: jumps, by: 97).map { jumpRects[position][$0] }
                }
            }

            for subject in subjects {
                progress("bench layout: \(kind.rawValue) × \(subject.count): brute force…")
                // Brute force touches every item: sample fewer queries as n grows (≈ 2·10⁷ items visited).
                let bruteQueries = max(2, min(subject.samples.count, 20_000_000 / max(subject.count, 1)))
                var mismatches = 0
                var bruteTime = 0.0
                for rect in subject.samples.prefix(bruteQueries) {
                    let start = clock.now
                    let oracle = bruteForce(subject.layout, rect)
                    bruteTime += seconds(clock.now - start)
                    if oracle != subject.layout.attributesForElements(in: rect) { mismatches += 1 }
                }
                bruteTime /= Double(min(bruteQueries, subject.samples.count))
                let scrollTime = median(subject.scrollTimes)
                let jumpTime = median(subject.jumpTimes)
                let isReference = subject.count == counts[0]
                rows.append(
                    Row(
                        kind: kind.rawValue, items: subject.count, prepareMilliseconds: subject.prepareTime * 1e3,
                        scrollQueries: frames * rounds, scrollMicroseconds: scrollTime * 1e6,
                        scrollCostVsSmallest: isReference ? 1 : median(subject.scrollRatios),
                        jumpQueries: jumps * rounds, jumpMicroseconds: jumpTime * 1e6,
                        jumpCostVsSmallest: isReference ? 1 : median(subject.jumpRatios),
                        elementsPerQuery: Double(subject.elements) / Double(frames * rounds),
                        bruteForceQueries: bruteQueries, bruteForceMicroseconds: bruteTime * 1e6,
                        speedup: bruteTime / jumpTime, mismatches: mismatches, targeted: targetKinds.contains(kind)))
            }
        }
        rows.sort { ($0.kind, $0.items) < ($1.kind, $1.items) }
        return rows
    }

    /// The brute-force filter, streaming over every item (no n-element array, unlike
    /// `CollectionLayout.bruteForceAttributes(in:)`, which 10⁷ items would make 1 GB).
    static func bruteForce(_ layout: any CollectionLayout, _ rect: Rect) -> [LayoutAttributes] {
        var result: [LayoutAttributes] = []
        for kind in [SupplementaryKind.refresh, .header] {
            if let view = layout.attributesForSupplementaryView(ofKind: kind), view.frame.intersects(rect) {
                result.append(view)
            }
        }
        for index in 0..<layout.itemCount {
            if let attributes = layout.attributesForItem(at: index), attributes.frame.intersects(rect) {
                result.append(attributes)
            }
        }
        if let footer = layout.attributesForSupplementaryView(ofKind: .footer), footer.frame.intersects(rect) {
            result.append(footer)
        }
        return result
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }

    private static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }
}

extension LayoutBenchmark {
    /// The table `feedsim bench layout` prints: one line per (layout, count), the target beside
    /// each targeted scroll figure, then a legend.
    public static func text(_ rows: [Row]) -> String {
        func f(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }
        let header = [
            "layout", "items", "prepare ms", "scroll µs", "scroll vs smallest n", "jump µs", "jump vs smallest n",
            "elems/q", "brute µs (q)", "speedup",
        ]
        var table = [header]
        for row in rows {
            let scrollRatio = "\(f(row.scrollCostVsSmallest, 2))×"
            let target = row.targeted
                ? " (target ≤ \(f(scrollTarget, 1))×\(row.withinTarget ? "" : ": MISSED"))" : ""
            table.append([
                row.kind, "\(row.items)", f(row.prepareMilliseconds), f(row.scrollMicroseconds, 2), scrollRatio + target,
                f(row.jumpMicroseconds, 2), "\(f(row.jumpCostVsSmallest, 2))×", f(row.elementsPerQuery),
                "\(f(row.bruteForceMicroseconds, 0)) (\(row.bruteForceQueries))", "\(f(row.speedup, 0))×",
            ])
        }
        let widths = header.indices.map { column in table.map { $0[column].count }.max() ?? 0 }
        var lines = table.map { line in
            line.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: "  ")
        }
        let scroll = rows.first?.scrollQueries ?? 0
        let jump = rows.first?.jumpQueries ?? 0
        lines.append(
            "viewport 390x844; scroll: \(scroll) queries of a viewport scrolled by flings at 60 Hz (each search starts at "
                + "the last answer); jump: \(jump) queries at random offsets; µs: the median of chunks of \(chunk) queries; "
                + "vs smallest n: the median of each chunk ÷ the smallest n's same chunk, timed just before it; brute force samples "
                + "both kinds, fewer queries at large n (column 'q'); strip queries a slice ~20 items wide.")
        return lines.joined(separator: "\n")
    }
}
