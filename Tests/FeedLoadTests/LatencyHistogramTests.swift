import FeedModel
import Foundation
import Testing

@testable import FeedLoad

@Suite struct LatencyHistogramTests {
    /// The exact nearest-rank quantile of a sorted array: the value at rank ceil(q × n).
    private func exactQuantile(_ sorted: [UInt64], _ q: Double) -> UInt64 {
        if q <= 0 { return sorted[0] }
        let rank = max(1, Int((q * Double(sorted.count)).rounded(.up)))
        return sorted[min(rank, sorted.count) - 1]
    }

    @Test func smallValuesAreExact() {
        var histogram = LatencyHistogram()
        for value: UInt64 in [5, 1, 3, 2, 4] { histogram.record(value) }
        // Sorted 1 2 3 4 5: p50 = rank ceil(2.5) = 3 → 3; p90 = rank ceil(4.5) = 5 → 5; p20 = rank 1 → 1.
        #expect(histogram.value(atQuantile: 0.5) == 3)
        #expect(histogram.value(atQuantile: 0.9) == 5)
        #expect(histogram.value(atQuantile: 0.2) == 1)
        #expect(histogram.min == 1)
        #expect(histogram.max == 5)
        #expect(histogram.count == 5)
        #expect(histogram.mean == 3)  // (1 + 2 + 3 + 4 + 5) / 5
    }

    @Test func bucketsAreNeverWiderThanOne128thOfTheirLowerBound() {
        // 1000 = 0b1111101000, exponent 9, shift 2: bucket [1000, 1004), index (2 + 1) × 128 + (250 − 128) = 506.
        #expect(LatencyHistogram.bucketIndex(1000) == 506)
        #expect(LatencyHistogram.bucketBounds(506) == (1000, 4))
        #expect(LatencyHistogram.bucketIndex(1003) == 506)
        #expect(LatencyHistogram.bucketIndex(1004) == 507)
        #expect(LatencyHistogram.bucketIndex(.max) == LatencyHistogram.bucketCount - 1)
        var random = SplitMix64(seed: 11)
        for _ in 0..<2_000 {
            let value = random.next() >> (random.next() % 64)
            let index = LatencyHistogram.bucketIndex(value)
            let (lower, width) = LatencyHistogram.bucketBounds(index)
            #expect(value >= lower && value - lower < width, "value \(value) outside bucket \(index)")
            #expect(lower < 128 ? width == 1 : width <= lower / 128)
        }
    }

    @Test(arguments: [UInt64(1), 2, 3, 4])
    func quantilesStayWithinTheRelativeErrorOfASortedArrayOracle(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var histogram = LatencyHistogram()
        var values: [UInt64] = []
        // Log-normal-ish latencies from 1 µs to ~1 s in nanoseconds, plus some tiny values.
        for _ in 0..<(500 + Int(random.next() % 3_000)) {
            let exponent = 3 + random.nextUnit() * 6
            let value = random.next() % 10 == 0 ? random.next() % 300 : UInt64(pow(10, exponent))
            values.append(value)
            histogram.record(value)
        }
        values.sort()
        for q in [0, 0.001, 0.25, 0.5, 0.9, 0.99, 0.999, 1] {
            let exact = Double(exactQuantile(values, q))
            let reported = Double(histogram.value(atQuantile: q) ?? 0)
            #expect(abs(reported - exact) <= exact * LatencyHistogram.relativeError, "q \(q): \(reported) vs \(exact)")
        }
        #expect(histogram.min == values.first)
        #expect(histogram.max == values.last)
        #expect(histogram.sum == values.reduce(0, +))
    }

    @Test func mergingEqualsRecordingEverythingInOne() {
        var random = SplitMix64(seed: 99)
        var parts = [LatencyHistogram(), LatencyHistogram(), LatencyHistogram()]
        var whole = LatencyHistogram()
        for _ in 0..<3_000 {
            let value = random.next() % 5_000_000
            parts[Int(random.next() % 2)].record(value)  // the third stays empty
            whole.record(value)
        }
        var merged = LatencyHistogram()
        for part in parts { merged.merge(part) }
        #expect(merged == whole)
        var other = parts[2]
        other.merge(parts[0])
        other.merge(parts[1])
        #expect(other == whole)
    }

    @Test func anEmptyHistogramHasNoQuantiles() {
        let histogram = LatencyHistogram()
        #expect(histogram.value(atQuantile: 0.5) == nil)
        #expect(histogram.mean == nil)
        #expect(histogram.count == 0)
    }
}
