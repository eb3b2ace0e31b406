/// A log-bucketed latency histogram with a fixed relative error, in the manner of Gil Tene's
/// HdrHistogram (<https://hdrhistogram.github.io/HdrHistogram/>): values below 128 have a bucket
/// each; above, every power of two `[2^e, 2^(e+1))` is cut into 128 equal sub-buckets, so a bucket
/// is never wider than 1/128 of its lower bound.
///
/// ```
/// value:   0 1 2 … 127 | 128 … 255 | 256 258 … 510 | 512 516 … 1020 | …
/// width:   1 1 1 …   1 |   1 …   1 |   2   2 …   2 |   4   4 …    4 | …
/// ```
///
/// Quantiles report the midpoint of the bucket holding the nearest-rank value, clamped to the
/// exact minimum and maximum, so a reported quantile lies within ``relativeError`` (1/256 ≈ 0.4 %)
/// of the exact one. Values are unit-free `UInt64`s; the load tester records nanoseconds.
///
/// A value type: each thread records into its own and the results are combined with
/// ``merge(_:)``, which is exact (bucket counts add).
public struct LatencyHistogram: Hashable, Sendable {
    /// Sub-buckets per power of two: 2^7.
    static let subBucketBits = 7
    static let subBucketCount = 1 << subBucketBits
    /// Enough buckets for every `UInt64`: the linear 128 plus 128 for each exponent 7...63.
    static let bucketCount = (64 - subBucketBits + 1) * subBucketCount

    /// The largest relative error of a reported quantile: half a bucket over its lower bound.
    public static let relativeError = 1.0 / Double(2 * subBucketCount)

    private var counts: [UInt64]
    /// How many values were recorded.
    public private(set) var count: UInt64 = 0
    /// The smallest value recorded (exact), `nil` when empty.
    public private(set) var min: UInt64?
    /// The largest value recorded (exact), `nil` when empty.
    public private(set) var max: UInt64?
    /// The sum of all values, saturating (for the mean).
    public private(set) var sum: UInt64 = 0

    /// An empty histogram.
    public init() {
        counts = []
    }

    /// Records one value.
    /// - Complexity: O(1) (the bucket array is allocated on first use).
    public mutating func record(_ value: UInt64) {
        if counts.isEmpty { counts = Array(repeating: 0, count: Self.bucketCount) }
        counts[Self.bucketIndex(value)] += 1
        count += 1
        let (total, overflow) = sum.addingReportingOverflow(value)
        sum = overflow ? .max : total
        min = Swift.min(min ?? value, value)
        max = Swift.max(max ?? value, value)
    }

    /// Adds every value recorded in `other` to this histogram.
    /// - Complexity: O(buckets) = O(7,424).
    public mutating func merge(_ other: LatencyHistogram) {
        guard other.count > 0 else { return }
        if counts.isEmpty {
            self = other  // nothing recorded here yet: the merge is a copy
            return
        }
        for index in other.counts.indices where other.counts[index] != 0 {
            counts[index] += other.counts[index]
        }
        count += other.count
        let (total, overflow) = sum.addingReportingOverflow(other.sum)
        sum = overflow ? .max : total
        min = Swift.min(min ?? .max, other.min ?? .max)
        max = Swift.max(max ?? 0, other.max ?? 0)
    }

    /// The values recorded since `earlier`, a copy of this histogram taken before (same counts or
    /// fewer in every bucket): what a per-second series reads from two cumulative snapshots.
    /// Minimum and maximum are the bounds of the lowest and highest bucket left (within
    /// ``relativeError``); the sum is the difference of the sums.
    /// - Complexity: O(buckets).
    public func subtracting(_ earlier: LatencyHistogram) -> LatencyHistogram {
        guard earlier.count > 0 else { return self }
        var out = LatencyHistogram()
        guard count > earlier.count else { return out }
        out.counts = counts
        for index in earlier.counts.indices where earlier.counts[index] != 0 {
            out.counts[index] -= Swift.min(out.counts[index], earlier.counts[index])
        }
        out.count = count - earlier.count
        out.sum = sum >= earlier.sum ? sum - earlier.sum : 0
        if let low = out.counts.firstIndex(where: { $0 != 0 }), let high = out.counts.lastIndex(where: { $0 != 0 }) {
            out.min = Self.bucketBounds(low).lower
            let (lower, width) = Self.bucketBounds(high)
            out.max = lower + width - 1
        }
        return out
    }

    /// The value at quantile `q` by nearest rank (the smallest recorded value with at least
    /// `ceil(q × count)` values at or below it), within ``relativeError`` of the exact one;
    /// `nil` when empty. `q` is clamped to `[0, 1]`; `q = 0` gives the minimum, `q = 1` the maximum.
    /// - Complexity: O(buckets).
    public func value(atQuantile q: Double) -> UInt64? {
        guard count > 0, let min, let max else { return nil }
        let clamped = Swift.min(Swift.max(q, 0), 1)
        if clamped == 0 { return min }
        if clamped == 1 { return max }
        let rank = Swift.max(1, UInt64((clamped * Double(count)).rounded(.up)))
        var seen: UInt64 = 0
        for index in counts.indices where counts[index] != 0 {
            seen += counts[index]
            if seen >= rank {
                let (lower, width) = Self.bucketBounds(index)
                let middle = lower + (width - 1) / 2
                return Swift.min(Swift.max(middle, min), max)
            }
        }
        return max
    }

    /// The mean of the recorded values, `nil` when empty.
    public var mean: Double? {
        count == 0 ? nil : Double(sum) / Double(count)
    }

    /// The bucket of `value`.
    static func bucketIndex(_ value: UInt64) -> Int {
        if value < UInt64(subBucketCount) { return Int(value) }
        let exponent = 63 - value.leadingZeroBitCount  // ≥ 7
        let shift = exponent - subBucketBits
        let sub = Int(value >> UInt64(shift))  // in [128, 256)
        return (shift + 1) * subBucketCount + (sub - subBucketCount)
    }

    /// The lowest value of bucket `index` and its width.
    static func bucketBounds(_ index: Int) -> (lower: UInt64, width: UInt64) {
        if index < subBucketCount { return (UInt64(index), 1) }
        let shift = index / subBucketCount - 1
        let sub = UInt64(index % subBucketCount + subBucketCount)
        return (sub << UInt64(shift), 1 << UInt64(shift))
    }
}

extension LatencyHistogram {
    /// The recorded values as data a report carries, so histograms from several processes can be
    /// merged exactly later (``init(buckets:)``, ``LatencyHistogram/merge(_:)``): the non-empty
    /// buckets as `[index, count]` pairs in index order, with the exact count, minimum, maximum and sum.
    public struct Buckets: Codable, Hashable, Sendable {
        public var count: UInt64
        public var min: UInt64?
        public var max: UInt64?
        public var sum: UInt64
        /// `[bucket index, values in it]`, ascending by index, counts > 0.
        public var buckets: [[UInt64]]
    }

    /// The data of this histogram (see ``Buckets``).
    /// - Complexity: O(buckets).
    public var buckets: Buckets {
        var pairs: [[UInt64]] = []
        for index in counts.indices where counts[index] != 0 { pairs.append([UInt64(index), counts[index]]) }
        return Buckets(count: count, min: min, max: max, sum: sum, buckets: pairs)
    }

    /// Why report data cannot be a histogram.
    public struct BucketsError: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// The histogram whose ``buckets`` are `data`.
    /// - Throws: ``BucketsError`` when a pair is not `[index, count]` with an index in range, in
    ///   ascending order and a count > 0, when the counts do not add up to `count`, or when the
    ///   minimum and maximum do not lie in the lowest and highest buckets.
    public init(buckets data: Buckets) throws {
        func fail(_ reason: String) -> BucketsError { BucketsError(description: reason) }
        self.init()
        guard !data.buckets.isEmpty else {
            guard data.count == 0 else { throw fail("count \(data.count) but no buckets") }
            return
        }
        counts = Array(repeating: 0, count: Self.bucketCount)
        var previous = -1
        var total: UInt64 = 0
        for pair in data.buckets {
            guard pair.count == 2, pair[0] < UInt64(Self.bucketCount), Int(pair[0]) > previous, pair[1] > 0 else {
                throw fail("bucket \(pair) is not [index, count] in ascending order with index < \(Self.bucketCount)")
            }
            previous = Int(pair[0])
            counts[previous] = pair[1]
            let (sum, overflow) = total.addingReportingOverflow(pair[1])
            guard !overflow else { throw fail("bucket counts overflow") }
            total = sum
        }
        guard total == data.count else { throw fail("bucket counts add up to \(total), not count \(data.count)") }
        guard let min = data.min, let max = data.max, min <= max,
            Self.bucketIndex(min) == Int(data.buckets[0][0]), Self.bucketIndex(max) == previous
        else { throw fail("min and max must lie in the lowest and highest buckets") }
        count = data.count
        self.min = min
        self.max = max
        sum = data.sum
    }
}
