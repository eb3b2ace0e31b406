import FeedLayout
import FeedSimBenchmarks
import Foundation
import Testing

/// `feedsim bench layout`'s scroll sequence and its check against the brute-force filter.
@Suite struct LayoutBenchmarkTests {
    /// Offsets stay within the content, a frame moves at most 6,000 pt/s ÷ 60 = 100 pt, and within
    /// a fling each step is the last one × 0.998^(1000/60) = e^(16.667 · ln 0.998) ≈ 0.96718
    /// (UIKit's normal deceleration rate per millisecond, applied per 60 Hz frame).
    @Test func scrollOffsetsDecelerateLikeUIKitWithinTheContent() {
        let limit = 50_000.0
        let offsets = LayoutBenchmark.scrollOffsets(frames: 5_000, limit: limit, seed: 3)
        #expect(offsets.count == 5_000)
        #expect(offsets.allSatisfy { $0 >= 0 && $0 <= limit })
        let steps = zip(offsets.dropFirst(), offsets).map { $0 - $1 }
        #expect(steps.allSatisfy { abs($0) <= 100 + 1e-9 })
        var decelerating = 0
        for i in 0..<(steps.count - 1) {
            let (step, next) = (steps[i], steps[i + 1])
            // A new fling replaces a stopped one (< 20 pt/s, i.e. < 1/3 pt a frame), never a moving
            // one; a step that ends on an edge is cut short there.
            guard abs(step) > 1, abs(next) > 0.5, step.sign == next.sign, offsets[i + 2] != 0, offsets[i + 2] != limit
            else { continue }
            #expect(abs(next / step - 0.96718) < 1e-4, "step \(step) then \(next)")
            decelerating += 1
        }
        #expect(decelerating > 1_000, "the sequence should mostly be flings")
        #expect(offsets == LayoutBenchmark.scrollOffsets(frames: 5_000, limit: limit, seed: 3))
        #expect(offsets != LayoutBenchmark.scrollOffsets(frames: 5_000, limit: limit, seed: 4))
    }

    /// Every layout's scroll and jump queries agree with the brute-force filter at small counts,
    /// and only list, flow and waterfall carry the target.
    @Test func aSmallRunMatchesTheBruteForceFilterForEveryLayout() throws {
        let rows = try LayoutBenchmark.run(counts: [2_000, 300], frames: 400, jumps: 100, rounds: 2)
        #expect(rows.count == 2 * LayoutKind.allCases.count)
        for row in rows {
            #expect(row.mismatches == 0, "\(row.kind) × \(row.items)")
            #expect(row.scrollQueries == 800 && row.jumpQueries == 200)
            #expect(row.elementsPerQuery > 0, "\(row.kind) × \(row.items)")
            #expect(row.targeted == ["list", "flow", "waterfall"].contains(row.kind))
        }
        // Rows are sorted by layout then count; the smallest count is each layout's reference.
        #expect(rows.filter { $0.items == 300 }.allSatisfy { $0.scrollCostVsSmallest == 1 && $0.jumpCostVsSmallest == 1 })
        let text = LayoutBenchmark.text(rows)
        #expect(text.split(separator: "\n").count == rows.count + 2)
        #expect(text.contains("(target ≤ 1.3×"))
    }
}
