/// A stable priority queue: entries come out by time, and entries with equal times in the order
/// they were pushed (a binary heap alone would not be stable). The replay keeps its pending
/// answers on the virtual clock in one (`Time` = ms); the load tester keeps its due session
/// steps on the monotonic clock in another, so sessions with equal due times take turns.
///
/// - Complexity: O(log n) per push and pop.
package struct EventQueue<Time: Comparable, Element> {
    private var heap: [(time: Time, seq: UInt64, element: Element)] = []
    private var nextSeq: UInt64 = 0

    package init() {}

    package var isEmpty: Bool { heap.isEmpty }
    package var count: Int { heap.count }

    /// Time of the earliest entry.
    package var nextTime: Time? { heap.first?.time }

    package mutating func push(_ element: Element, at time: Time) {
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
    package mutating func popDue(at time: Time) -> (time: Time, element: Element)? {
        guard let first = heap.first, first.time <= time else { return nil }
        return popFirst()
    }

    /// Removes and returns the earliest entry, whatever its time.
    package mutating func popFirst() -> (time: Time, element: Element)? {
        guard let first = heap.first else { return nil }
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
        heap[a].time != heap[b].time ? heap[a].time < heap[b].time : heap[a].seq < heap[b].seq
    }
}
