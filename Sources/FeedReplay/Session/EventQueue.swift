/// A stable priority queue: entries come out by time, and entries with equal times in the order
/// they were pushed (a binary heap alone would not be stable). The replay keeps its pending
/// answers on the virtual clock in one (`Time` = ms); the load tester keeps its due session
/// steps on the monotonic clock in another, so sessions with equal due times take turns.
///
/// - Complexity: O(log n) per push and pop.
package struct EventQueue<Time: Comparable, Element> {
    /// The heap holds each entry's key and the slot of its element; the elements stay in their
    /// slots. Sifting moves keys alone: when the heap held the elements, each comparison and swap
    /// copied a whole entry (a replay's answer, its page or rows retained and released), ~1.6 k
    /// instructions a pop in `bench replay`'s workload (callgrind).
    private var heap: [(time: Time, seq: UInt64, slot: Int)] = []
    private var slots: [Element?] = []
    private var freeSlots: [Int] = []
    private var nextSeq: UInt64 = 0

    package init() {}

    package var isEmpty: Bool { heap.isEmpty }
    package var count: Int { heap.count }

    /// Time of the earliest entry.
    package var nextTime: Time? { heap.first?.time }

    package mutating func push(_ element: Element, at time: Time) {
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            slots[slot] = element
        } else {
            slot = slots.count
            slots.append(element)
        }
        heap.append((time, nextSeq, slot))
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
        // Moved out of its slot (the slot is left empty for the next push).
        var element: Element? = nil
        swap(&element, &slots[first.slot])
        freeSlots.append(first.slot)
        return (first.time, element!)
    }

    private func less(_ a: Int, _ b: Int) -> Bool {
        heap[a].time != heap[b].time ? heap[a].time < heap[b].time : heap[a].seq < heap[b].seq
    }
}
