import FeedModel

/// The virtualizer's row cache: rows of items in the preload range are *pinned* (never evicted,
/// so a row is fetched at most once while its item stays in range); rows of items that left the
/// range sit in a least-recently-used list of at most `capacity` entries.
///
/// An entry is a row, or `nil` for an id the source reported missing (so it is not asked again
/// while it stays cached).
///
/// - Complexity: every operation O(1) (hash lookups and a doubly linked list kept in arrays).
struct VirtualizerRowCache {
    /// Maximum number of unpinned rows.
    let capacity: Int

    /// Every entry, pinned or not, lives in one slot from when it is stored until it is evicted:
    /// pinning and unpinning only link or unlink the slot from the least-recently-used list. A
    /// pinned entry used to be moved into a table of its own and back on unpin (each move copied
    /// and destroyed the row's three strings). In `bench replay`'s workload (600-s flinger, 1M
    /// photos) the preload range's row changes went 92.5M → 53.8M instructions (callgrind).
    private var slotOfID = ItemIDTable<Int>()
    private var slots: [Slot] = []
    private var freeSlots: [Int] = []
    /// Unpinned entries held (the length of the list from ``head`` to ``tail``).
    private(set) var unpinnedCount = 0
    /// Most recently used unpinned slot, or -1.
    private var head = -1
    /// Least recently used unpinned slot, or -1.
    private var tail = -1

    private struct Slot {
        var id: Int64
        var row: ItemRow?
        var isPinned: Bool
        var previous: Int
        var next: Int
    }

    init(capacity: Int) {
        precondition(capacity >= 0, "row cache capacity must be ≥ 0")
        self.capacity = capacity
    }

    /// Rows held: pinned plus unpinned.
    var count: Int { slotOfID.count }

    /// Whether any entry (row or known-missing) exists for `id`.
    func contains(_ id: Int64) -> Bool { slotOfID.contains(id) }

    /// Whether the row of `id` is cached (not a known-missing entry), without copying it out.
    /// Does not change recency.
    func hasRow(for id: Int64) -> Bool {
        guard let slot = slotOfID[id] else { return false }
        return slots.withUnsafeBufferPointer { slots in
            switch slots[slot].row {
            case .some: return true
            case .none: return false
            }
        }
    }

    /// The row for `id`, `nil` when not cached or missing. Does not change recency.
    func row(for id: Int64) -> ItemRow? {
        guard let slot = slotOfID[id] else { return nil }
        return slots[slot].row
    }

    /// `id` entered the preload range: pin its entry if it has one.
    mutating func pin(_ id: Int64) {
        guard let slot = slotOfID[id], !slots[slot].isPinned else { return }
        unlink(slot)
        slots[slot].isPinned = true
        unpinnedCount -= 1
    }

    /// `id` left the preload range: its entry becomes the most recently used unpinned one.
    /// - Returns: the number of rows evicted to stay within `capacity`.
    mutating func unpin(_ id: Int64) -> Int {
        guard let slot = slotOfID[id], slots[slot].isPinned else { return 0 }
        slots[slot].isPinned = false
        return linkUnpinned(slot)
    }

    /// Stores a fetched row (or `nil` for a missing id), pinned when its item is in range.
    /// - Returns: the number of rows evicted to stay within `capacity`.
    mutating func store(_ id: Int64, row: ItemRow?, pinned isPinned: Bool) -> Int {
        if let slot = slotOfID[id] {
            slots[slot].row = row
            if slots[slot].isPinned { return 0 }  // pinned stays pinned
            unlink(slot)
            unpinnedCount -= 1
            if isPinned {
                slots[slot].isPinned = true
                return 0
            }
            return linkUnpinned(slot)  // the most recently used now
        }
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            slots[slot] = Slot(id: id, row: row, isPinned: isPinned, previous: -1, next: -1)
        } else {
            slot = slots.count
            slots.append(Slot(id: id, row: row, isPinned: isPinned, previous: -1, next: -1))
        }
        slotOfID[id] = slot
        return isPinned ? 0 : linkUnpinned(slot)
    }

    /// Links an unpinned slot at the head, then evicts from the tail down to `capacity`.
    /// - Returns: the number of rows evicted.
    private mutating func linkUnpinned(_ slot: Int) -> Int {
        linkAtHead(slot)
        unpinnedCount += 1
        var evicted = 0
        while unpinnedCount > capacity, tail >= 0 {
            let victim = tail
            unlink(victim)
            unpinnedCount -= 1
            slotOfID[slots[victim].id] = nil
            slots[victim].row = nil
            freeSlots.append(victim)
            evicted += 1
        }
        return evicted
    }

    private mutating func linkAtHead(_ slot: Int) {
        slots[slot].previous = -1
        slots[slot].next = head
        if head >= 0 { slots[head].previous = slot }
        head = slot
        if tail < 0 { tail = slot }
    }

    private mutating func unlink(_ slot: Int) {
        let previous = slots[slot].previous
        let next = slots[slot].next
        if previous >= 0 { slots[previous].next = next } else { head = next }
        if next >= 0 { slots[next].previous = previous } else { tail = previous }
        slots[slot].previous = -1
        slots[slot].next = -1
    }

    /// Unpinned ids from most to least recently used (for tests).
    var unpinnedIDsByRecency: [Int64] {
        var ids: [Int64] = []
        var slot = head
        while slot >= 0 {
            ids.append(slots[slot].id)
            slot = slots[slot].next
        }
        return ids
    }
}
