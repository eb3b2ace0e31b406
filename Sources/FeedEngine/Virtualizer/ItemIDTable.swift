/// A hash map from item ids to values, for the virtualizer's per-frame id bookkeeping (cells by
/// item, fetches by item, the preload range's ids, the row cache's entries).
///
/// Open addressing with linear probing, a power-of-two table at most half full, Fibonacci hashing
/// of the id (the id times 2⁶⁴/φ, top bits) and backward-shift deletion (no tombstones, so a
/// table that sees inserts and removals every frame never degrades). Item ids come from the
/// feed's backend, not from an adversary, so SipHash's protection against chosen keys buys
/// nothing here; it cost `feedsim bench replay` about 16 k of its 72 k instructions per frame
/// (callgrind, 1 µs of ~10), the multiplicative hash a few instructions per lookup.
///
/// Iteration order is the table's slot order: it depends on the keys and the insertion history,
/// not on a per-process seed, but callers that need an order sort (as they did with `Dictionary`).
///
/// - Complexity: lookup, insert and removal O(1) expected; ``removeAll(keepingCapacity:)`` O(capacity).
struct ItemIDTable<Value> {
    private var keys: [Int64] = []
    private var values: [Value?] = []
    /// `values[slot] != nil` marks a used slot; `shift` = 64 − log₂(capacity).
    private var shift = 64
    private(set) var count = 0

    init() {}

    /// A table that holds `minimumCapacity` entries without growing.
    init(minimumCapacity: Int) {
        if minimumCapacity > 0 { allocate(slots: Self.slots(for: minimumCapacity)) }
    }

    var isEmpty: Bool { count == 0 }

    private static func slots(for entries: Int) -> Int {
        var slots = 8
        while slots < 2 * entries { slots *= 2 }
        return slots
    }

    private mutating func allocate(slots: Int) {
        keys = Array(repeating: 0, count: slots)
        values = Array(repeating: nil, count: slots)
        shift = 64 - slots.trailingZeroBitCount
    }

    @inline(__always)
    private func home(_ key: Int64) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> UInt64(shift))
    }

    /// The slot holding `key`, or `nil`. The probe reads through the arrays' buffers with
    /// wrapping arithmetic: every slot is masked into the table, so a bounds and an overflow check
    /// per probe step bought nothing (about a fifth of a lookup's instructions).
    @inline(__always)
    private func find(_ key: Int64) -> Int? {
        guard count > 0 else { return nil }
        return keys.withUnsafeBufferPointer { keys in
            values.withUnsafeBufferPointer { values in
                let mask = keys.count &- 1
                var slot = home(key)
                while values[slot] != nil {
                    if keys[slot] == key { return slot }
                    slot = (slot &+ 1) & mask
                }
                return nil
            }
        }
    }

    func contains(_ key: Int64) -> Bool { find(key) != nil }

    subscript(key: Int64) -> Value? {
        get { find(key).flatMap { values[$0] } }
        set {
            if let newValue { updateValue(newValue, forKey: key) } else { removeValue(forKey: key) }
        }
    }

    /// Sets the value of `key`; returns the old one.
    @discardableResult
    mutating func updateValue(_ value: Value, forKey key: Int64) -> Value? {
        if keys.isEmpty || 2 * (count + 1) > keys.count { grow() }
        let mask = keys.count &- 1
        let start = home(key)
        // The probe as in ``find(_:)``: masked slots, no checks.
        let slot = keys.withUnsafeBufferPointer { keys in
            values.withUnsafeBufferPointer { values in
                var slot = start
                while values[slot] != nil, keys[slot] != key { slot = (slot &+ 1) & mask }
                return slot
            }
        }
        if let old = values[slot] {
            values[slot] = value
            return old
        }
        keys[slot] = key
        values[slot] = value
        count += 1
        return nil
    }

    /// Removes `key`; returns its value, `nil` when absent. Later entries of the probe run move
    /// back into the gap (Knuth's algorithm R), so lookups never cross a hole.
    @discardableResult
    mutating func removeValue(forKey key: Int64) -> Value? {
        guard var hole = find(key) else { return nil }
        let removed = values[hole]
        let mask = keys.count - 1
        var slot = hole
        while true {
            slot = (slot + 1) & mask
            guard values[slot] != nil else { break }
            let wanted = home(keys[slot])
            // The entry may fill the hole unless its home lies cyclically in (hole, slot].
            let stays = hole <= slot ? (hole < wanted && wanted <= slot) : (hole < wanted || wanted <= slot)
            if !stays {
                keys[hole] = keys[slot]
                values[hole] = values[slot]
                hole = slot
            }
        }
        values[hole] = nil
        count -= 1
        return removed
    }

    /// Empties the table; with `keepingCapacity` its storage stays allocated for refilling.
    mutating func removeAll(keepingCapacity: Bool = false) {
        guard count > 0 || !keepingCapacity else { return }
        if keepingCapacity {
            for slot in values.indices where values[slot] != nil { values[slot] = nil }
        } else {
            keys = []
            values = []
            shift = 64
        }
        count = 0
    }

    private mutating func grow() {
        let oldKeys = keys
        let oldValues = values
        allocate(slots: Self.slots(for: max(count + 1, keys.count)))
        count = 0
        for slot in oldKeys.indices {
            if let value = oldValues[slot] { updateValue(value, forKey: oldKeys[slot]) }
        }
    }

    /// Calls `body` with every entry, in slot order.
    func forEach(_ body: (Int64, Value) throws -> Void) rethrows {
        guard count > 0 else { return }
        for slot in keys.indices {
            if let value = values[slot] { try body(keys[slot], value) }
        }
    }

    /// The keys, ascending.
    /// - Complexity: O(capacity + n log n).
    func sortedKeys() -> [Int64] {
        var result: [Int64] = []
        result.reserveCapacity(count)
        forEach { key, _ in result.append(key) }
        return result.sorted()
    }
}

extension ItemIDTable: Sendable where Value: Sendable {}

/// A set of item ids: an ``ItemIDTable`` without values (see there for the hashing and why).
/// Drivers that collect ids every frame (the replay's distinct rows shown) use it too.
///
/// - Complexity: insert, remove and `contains` O(1) expected.
public struct ItemIDSet: Sendable {
    private var table: ItemIDTable<Bool>

    public init() { table = ItemIDTable() }
    /// A set that holds `minimumCapacity` ids without growing.
    public init(minimumCapacity: Int) { table = ItemIDTable(minimumCapacity: minimumCapacity) }
    public init<S: Sequence>(_ ids: S) where S.Element == Int64 {
        table = ItemIDTable(minimumCapacity: ids.underestimatedCount)
        for id in ids { table.updateValue(true, forKey: id) }
    }

    public var count: Int { table.count }
    public var isEmpty: Bool { table.isEmpty }
    public func contains(_ id: Int64) -> Bool { table.contains(id) }

    /// Adds `id`; `true` when it was not there.
    @discardableResult
    public mutating func insert(_ id: Int64) -> Bool { table.updateValue(true, forKey: id) == nil }

    /// Removes `id`; `true` when it was there.
    @discardableResult
    public mutating func remove(_ id: Int64) -> Bool { table.removeValue(forKey: id) != nil }

    /// Empties the set; with `keepingCapacity` its storage stays allocated for refilling.
    public mutating func removeAll(keepingCapacity: Bool = false) { table.removeAll(keepingCapacity: keepingCapacity) }

    /// Calls `body` with every id, in slot order (not sorted: sort before output).
    public func forEach(_ body: (Int64) throws -> Void) rethrows { try table.forEach { id, _ in try body(id) } }

    /// The ids, ascending.
    /// - Complexity: O(capacity + n log n).
    public func sorted() -> [Int64] { table.sortedKeys() }
}
