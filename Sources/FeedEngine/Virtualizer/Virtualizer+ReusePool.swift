/// Cells that left the prefetch range, kept per reuse identifier (the item's kind) and handed
/// out again before a new cell is made.
///
/// Last in, first out, as RecyclerView's `RecycledViewPool.getRecycledView` (it takes the last
/// scrap view of the type). During an update the pool may hold more than `limit` cells of a kind,
/// as RecyclerView's scrap list holds every detached view during a layout pass; ``trim(limit:)``
/// then throws away what is over the limit, newest first, as `putRecycledView` refuses a view
/// once `DEFAULT_MAX_SCRAP` (5) are held.
///
/// Kinds are interned: each kind name gets a small index the first time it is pushed (a
/// RecyclerView view type is an `Int` too), and the pools are an array by that index. A run of
/// cells of one kind (the usual case) finds its index by comparing with the last kind looked up,
/// without hashing the name; hashing it per push and pop was ~800 instructions a cell in
/// `bench replay`'s flinger trace.
///
/// - Complexity: push and pop O(1) amortized; trim O(kinds touched · log kinds touched + discarded).
struct VirtualizerReusePool {
    /// Kind names by index, in the order first pushed, and the index of each.
    private var kinds: [String] = []
    private var indexOfKind: [String: Int] = [:]
    /// The last kind looked up and its index (`-1`: none yet).
    private var lastKind = ""
    private var lastIndex = -1
    /// Pooled cell ids per kind index.
    private var cellsByKind: [[Int]] = []
    /// Kind indices pushed since the last trim, each once.
    private var touchedKinds: [Int] = []
    /// Cells held, all kinds.
    private(set) var count = 0

    /// The index of `kind`, `nil` when it was never pushed.
    private mutating func existingIndex(of kind: String) -> Int? {
        if lastIndex >= 0, kind == lastKind { return lastIndex }
        guard let index = indexOfKind[kind] else { return nil }
        lastKind = kind
        lastIndex = index
        return index
    }

    /// Puts a cell that left the range into its kind's pool.
    mutating func push(cellID: Int, kind: String) {
        let index: Int
        if let known = existingIndex(of: kind) {
            index = known
        } else {
            index = kinds.count
            kinds.append(kind)
            indexOfKind[kind] = index
            cellsByKind.append([])
            lastKind = kind
            lastIndex = index
        }
        cellsByKind[index].append(cellID)
        if !touchedKinds.contains(index) { touchedKinds.append(index) }
        count += 1
    }

    /// The most recently pooled cell of `kind`, removed from the pool; `nil` when none.
    mutating func pop(kind: String) -> Int? {
        guard let index = existingIndex(of: kind), let cellID = cellsByKind[index].popLast() else { return nil }
        count -= 1
        return cellID
    }

    /// Drops cells beyond `limit` in every kind pushed since the last trim.
    /// - Returns: the discarded cell ids, by kind name then newest first.
    mutating func trim(limit: Int) -> [Int] {
        var discarded: [Int] = []
        if touchedKinds.count > 1 { touchedKinds.sort { kinds[$0] < kinds[$1] } }
        for index in touchedKinds where cellsByKind[index].count > limit {
            while cellsByKind[index].count > limit {
                discarded.append(cellsByKind[index].removeLast())
            }
        }
        touchedKinds.removeAll(keepingCapacity: true)
        count -= discarded.count
        return discarded
    }

    /// Cells held for `kind`.
    func count(of kind: String) -> Int { indexOfKind[kind].map { cellsByKind[$0].count } ?? 0 }

    /// Cells held per kind, kinds with none left out.
    var countsByKind: [String: Int] {
        var counts: [String: Int] = [:]
        for (index, kind) in kinds.enumerated() where !cellsByKind[index].isEmpty {
            counts[kind] = cellsByKind[index].count
        }
        return counts
    }
}
