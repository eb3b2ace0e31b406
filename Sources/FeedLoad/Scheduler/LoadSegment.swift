/// The I-th of N deterministic shares of a load's sessions (`--segment I/N`), so N processes on N
/// machines together run exactly the sessions one process would, as k6's execution segments do
/// (<https://grafana.com/docs/k6/latest/using-k6/k6-options/reference/#execution-segment>).
///
/// Sessions are dealt out like cards: segment I runs the sessions whose number `k` (from 0, in
/// order of start in the single run) has `k mod N = I − 1`, with the same number, seed and trace
/// as in the single run. Shares of a count (concurrent sessions, slots, writers) are contiguous:
/// segment I gets `⌊I·n/N⌋ − ⌊(I−1)·n/N⌋` of `n`, so the N shares add up to `n` exactly.
///
/// ```
/// sessions  0 1 2 3 4 5 6 …      --sessions 8 (concurrent)
/// 1/3       0     3     6 …      3 = ⌊8/3⌋ − 0
/// 2/3         1     4     …      2 = ⌊16/3⌋ − ⌊8/3⌋
/// 3/3           2     5   …      3 = 8 − ⌊16/3⌋
/// ```
public struct LoadSegment: Hashable, Sendable, CustomStringConvertible {
    /// Which share, 1...count.
    public let index: Int
    /// How many shares the run is cut into, ≥ 1.
    public let count: Int

    /// - Precondition: `1 ≤ index ≤ count`.
    public init(index: Int, count: Int) {
        precondition(count >= 1 && (1...count).contains(index), "segment I/N with 1 ≤ I ≤ N")
        self.index = index
        self.count = count
    }

    /// Parses `I/N` (`2/3`); `nil` unless both are integers with `1 ≤ I ≤ N ≤ 10 000`.
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let index = Int(parts[0]), let count = Int(parts[1]),
            (1...Self.maxCount).contains(count), (1...count).contains(index)
        else { return nil }
        self.init(index: index, count: count)
    }

    /// Most shares a run can be cut into.
    public static let maxCount = 10_000

    /// `I/N`.
    public var description: String { "\(index)/\(count)" }

    /// This segment's contiguous share of `total` (concurrent sessions, slots, writers):
    /// `⌊I·total/N⌋ − ⌊(I−1)·total/N⌋`; the N shares add up to `total`.
    public func share(of total: Int) -> Int {
        index * total / count - (index - 1) * total / count
    }

    /// The first of this segment's shares of `total`, as an index into `0..<total` (writer k of
    /// the segment is writer `firstOfShare(total) + k` of the run).
    public func firstOfShare(_ total: Int) -> Int {
        (index - 1) * total / count
    }

    /// How many of the sessions `0..<iterations` are this segment's: those with `k mod N = I − 1`.
    public func sessions(ofIterations iterations: Int) -> Int {
        sessionShare.part(of: iterations)
    }

    /// The session numbers this segment starts: `I − 1`, `I − 1 + N`, … (no limit, first arrival at 0).
    var sessionShare: SessionShare { SessionShare(first: index - 1, stride: count, limit: nil, firstArrival: .zero) }

    /// Whether session `k` of the run is this segment's.
    public func contains(session k: Int) -> Bool { k % count == index - 1 }
}

/// The session numbers a scheduler hands out, and how many: all of them from 0 (a single run), or
/// a segment's every N-th; at most `limit` sessions in all (`--iterations`), or no limit.
public struct SessionShare: Hashable, Sendable {
    /// The number of the first session.
    public var first: Int
    /// Between one session's number and the next one's.
    public var stride: Int
    /// Most sessions to start in all (k6's shared iterations); `nil` until the run ends.
    public var limit: Int?
    /// Open model: how long after the start the first arrival comes (a segment's place in the
    /// single run's arrival sequence).
    public var firstArrival: Duration

    /// Every session from 0, at most `limit` of them.
    public static func all(limit: Int? = nil) -> SessionShare {
        SessionShare(first: 0, stride: 1, limit: limit, firstArrival: .zero)
    }

    /// - Precondition: `first` ≥ 0, `stride` ≥ 1, `limit` ≥ 0.
    public init(first: Int, stride: Int, limit: Int?, firstArrival: Duration) {
        precondition(first >= 0 && stride >= 1 && (limit ?? 0) >= 0, "a share of sessions")
        self.first = first
        self.stride = stride
        self.limit = limit
        self.firstArrival = firstArrival
    }

    /// The number of the `k`-th session this share starts (from 0).
    public func session(_ k: Int) -> Int { first + k * stride }

    /// This share's part of `total` sessions running at once in a ramp (`--stages` with
    /// `--segment`): of the ranks `0..<total`, those dealt to it (`r mod stride = first`), so
    /// the parts of the N segments add up to `total` at every instant and a ramp's first session
    /// is segment 1's, as session 0 is (``LoadSegment/sessions(ofIterations:)`` deals `--iterations`
    /// the same way). All of them for a single run.
    public func part(of total: Int) -> Int {
        guard total > first else { return 0 }
        return (total - first + stride - 1) / stride
    }
}
