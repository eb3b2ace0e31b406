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

    private var pinned = ItemIDTable<ItemRow?>()
    private var slotOfID = ItemIDTable<Int>()
    private var slots: [Slot] = []
    private var freeSlots: [Int] = []
    /// Most recently used unpinned slot, or -1.
    private var head = -1
    /// Least recently used unpinned slot, or -1.
    private var tail = -1

    private struct Slot {
        var id: Int64
        var row: ItemRow?
        var previous: Int
        var next: Int
    }

    init(capacity: Int) {
        precondition(capacity >= 0, "row cache capacity must be ≥ 0")
        self.capacity = capacity
    }

    /// Rows held: pinned plus unpinned.
    var count: Int { pinned.count + slotOfID.count }
    /// Unpinned rows held (≤ `capacity`).
    var unpinnedCount: Int { slotOfID.count }

    /// Whether any entry (row or known-missing) exists for `id`.
    func contains(_ id: Int64) -> Bool { pinned.contains(id) || slotOfID.contains(id) }

    /// Whether the row of `id` is cached (not a known-missing entry), without copying it out.
    /// Does not change recency.
    func hasRow(for id: Int64) -> Bool {
        if let held = pinned.holdsValueIfPresent(id) { return held }
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
        if let entry = pinned[id] { return entry }
        if let slot = slotOfID[id] { return slots[slot].row }
        return nil
    }

    /// `id` entered the preload range: pin its entry if it has one.
    mutating func pin(_ id: Int64) {
        guard let slot = slotOfID[id] else { return }
        pinned[id] = slots[slot].row
        unlink(slot)
        slotOfID[id] = nil
        freeSlots.append(slot)
    }

    /// `id` left the preload range: its entry becomes the most recently used unpinned one.
    /// - Returns: the number of rows evicted to stay within `capacity`.
    mutating func unpin(_ id: Int64) -> Int {
        guard let entry = pinned.removeValue(forKey: id) else { return 0 }
        return insertUnpinned(id, entry)
    }

    /// Stores a fetched row (or `nil` for a missing id), pinned when its item is in range.
    /// - Returns: the number of rows evicted to stay within `capacity`.
    mutating func store(_ id: Int64, row: ItemRow?, pinned isPinned: Bool) -> Int {
        if isPinned {
            if let slot = slotOfID[id] {
                unlink(slot)
                slotOfID[id] = nil
                freeSlots.append(slot)
            }
            pinned[id] = .some(row)
            return 0
        }
        if pinned[id] != nil {
            pinned[id] = .some(row)
            return 0
        }
        if let slot = slotOfID[id] {
            slots[slot].row = row
            unlink(slot)
            linkAtHead(slot)
            return 0
        }
        return insertUnpinned(id, row)
    }

    private mutating func insertUnpinned(_ id: Int64, _ row: ItemRow?) -> Int {
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            slots[slot] = Slot(id: id, row: row, previous: -1, next: -1)
        } else {
            slot = slots.count
            slots.append(Slot(id: id, row: row, previous: -1, next: -1))
        }
        slotOfID[id] = slot
        linkAtHead(slot)
        var evicted = 0
        while slotOfID.count > capacity, tail >= 0 {
            let victim = tail
            unlink(victim)
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
