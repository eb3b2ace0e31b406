/// Row heights and tops for ``ListLayout``: a deque (free slots in front for prepends) with a
/// first invalid index.
///
/// Tops live in a "raw" coordinate with an arbitrary origin: the top of logical row i is
/// `raw[head + i] − raw[head]`. A prepend writes the new rows' raw tops upward from the first
/// row's, so existing rows keep theirs. Raw tops of physical slots `[head, validEnd)` are valid;
/// the rest are recomputed forward on demand (`validate`).
struct ListStorage {
    private var heights: [Double] = []
    private var raw: [Double] = []
    private var head = 0
    private var validEnd = 0
    /// Σ heights of live rows (running; updated by every change).
    private(set) var heightSum = 0.0

    var count: Int { heights.count - head }
    /// Rows whose tops are valid, counted from row 0.
    var validCount: Int { max(0, validEnd - head) }

    func height(_ index: Int) -> Double { heights[head + index] }
    /// Top of row `index` relative to row 0's top. Precondition: `index < validCount`.
    func top(_ index: Int) -> Double { raw[head + index] - raw[head] }

    mutating func append(_ newHeights: [Double], spacing: Double) {
        guard !newHeights.isEmpty else { return }
        if count == 0 {
            heights.removeAll(keepingCapacity: true)
            raw.removeAll(keepingCapacity: true)
            head = 0
            validEnd = 1
            raw.append(0)
            raw.append(contentsOf: repeatElement(0, count: newHeights.count - 1))
        } else {
            raw.append(contentsOf: repeatElement(0, count: newHeights.count))
        }
        heights.append(contentsOf: newHeights)
        for height in newHeights { heightSum += height }
    }

    mutating func prepend(_ newHeights: [Double], spacing: Double) {
        guard !newHeights.isEmpty else { return }
        guard count > 0 else { return append(newHeights, spacing: spacing) }
        if head < newHeights.count {
            // Grow the free front: at least the live count, so prepends are amortized O(m).
            let pad = max(newHeights.count, count)
            heights = Array(repeating: 0, count: pad) + heights[head...]
            raw = Array(repeating: 0, count: pad) + raw[head...]
            validEnd = validEnd - head + pad
            head = pad
        }
        for height in newHeights.reversed() {
            raw[head - 1] = raw[head] - spacing - height
            heights[head - 1] = height
            head -= 1
            heightSum += height
        }
    }

    mutating func removeFirst(_ n: Int, spacing: Double) {
        let n = min(max(n, 0), count)
        guard n > 0 else { return }
        if n == count { return removeAll() }
        validate(through: n, spacing: spacing)  // the new first row's raw top must be valid
        for slot in head..<(head + n) { heightSum -= heights[slot] }
        head += n
        if head > 4096, head > count {  // compact, amortized O(1) per removed row
            heights.removeFirst(head)
            raw.removeFirst(head)
            validEnd -= head
            head = 0
        }
    }

    mutating func removeLast(_ n: Int) {
        let n = min(max(n, 0), count)
        guard n > 0 else { return }
        if n == count { return removeAll() }
        for slot in (heights.count - n)..<heights.count { heightSum -= heights[slot] }
        heights.removeLast(n)
        raw.removeLast(n)
        validEnd = min(validEnd, heights.count)
    }

    private mutating func removeAll() {
        heights.removeAll(keepingCapacity: true)
        raw.removeAll(keepingCapacity: true)
        head = 0
        validEnd = 0
        heightSum = 0
    }

    /// Sets row `index`'s height; rows after it become invalid. Returns new − old height.
    mutating func setHeight(_ height: Double, at index: Int) -> Double {
        let slot = head + index
        let delta = height - heights[slot]
        guard delta != 0 else { return 0 }
        heights[slot] = height
        heightSum += delta
        validEnd = min(validEnd, slot + 1)
        return delta
    }

    /// Makes tops valid through row `index`.
    mutating func validate(through index: Int, spacing: Double) {
        let target = head + index
        while validEnd <= target {
            raw[validEnd] = raw[validEnd - 1] + heights[validEnd - 1] + spacing
            validEnd += 1
        }
    }

    /// Makes tops valid until the last valid row's top is at or below `limit` (relative to row 0),
    /// or every row is valid: enough for a query whose rect ends at `limit`.
    mutating func validate(whileTopBelow limit: Double, spacing: Double) {
        while validEnd < heights.count, raw[validEnd - 1] - raw[head] < limit {
            raw[validEnd] = raw[validEnd - 1] + heights[validEnd - 1] + spacing
            validEnd += 1
        }
    }
}
