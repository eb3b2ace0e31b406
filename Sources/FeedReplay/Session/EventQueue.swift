/// A deterministic queue of pending simulated completions on the virtual clock.
///
/// Entries come out by time, and entries with equal times in the order they were scheduled, so
/// two runs with the same seed deliver in the same order (a binary heap alone would not be stable).
///
/// - Complexity: O(log n) per push and pop.
struct EventQueue<Element> {
    private var heap: [(time: Double, seq: UInt64, element: Element)] = []
    private var nextSeq: UInt64 = 0

    var isEmpty: Bool { heap.isEmpty }
    var count: Int { heap.count }

    /// Time of the earliest entry, ms.
    var nextTime: Double? { heap.first?.time }

    mutating func push(_ element: Element, at time: Double) {
        heap.append((time, nextSeq, element))
        nextSeq += 1
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard less(child, parent) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the earliest entry if its time is ≤ `time`.
    mutating func popDue(at time: Double) -> (time: Double, element: Element)? {
        guard let first = heap.first, first.time <= time else { return nil }
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var smallest = parent
                if left < heap.count, less(left, smallest) { smallest = left }
                if right < heap.count, less(right, smallest) { smallest = right }
                if smallest == parent { break }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return (first.time, first.element)
    }

    private func less(_ a: Int, _ b: Int) -> Bool {
        (heap[a].time, heap[a].seq) < (heap[b].time, heap[b].seq)
    }
}
