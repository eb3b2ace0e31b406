/// Cells that left the prefetch range, kept per reuse identifier (the item's kind) and handed
/// out again before a new cell is made.
///
/// Last in, first out, as RecyclerView's `RecycledViewPool.getRecycledView` (it takes the last
/// scrap view of the type). During an update the pool may hold more than `limit` cells of a kind,
/// as RecyclerView's scrap list holds every detached view during a layout pass; ``trim(limit:)``
/// then throws away what is over the limit, newest first, as `putRecycledView` refuses a view
/// once `DEFAULT_MAX_SCRAP` (5) are held.
///
/// - Complexity: push and pop O(1) amortized; trim O(kinds touched · log kinds touched + discarded).
struct VirtualizerReusePool {
    private var cellsByKind: [String: [Int]] = [:]
    private var touchedKinds: Set<String> = []
    /// Cells held, all kinds.
    private(set) var count = 0

    /// Puts a cell that left the range into its kind's pool.
    mutating func push(cellID: Int, kind: String) {
        cellsByKind[kind, default: []].append(cellID)
        touchedKinds.insert(kind)
        count += 1
    }

    /// The most recently pooled cell of `kind`, removed from the pool; `nil` when none.
    mutating func pop(kind: String) -> Int? {
        guard let cellID = cellsByKind[kind]?.popLast() else { return nil }
        count -= 1
        return cellID
    }

    /// Drops cells beyond `limit` in every kind pushed since the last trim.
    /// - Returns: the discarded cell ids, by kind name then newest first.
    mutating func trim(limit: Int) -> [Int] {
        var discarded: [Int] = []
        for kind in touchedKinds.sorted() {
            guard var cells = cellsByKind[kind], cells.count > limit else { continue }
            while cells.count > limit {
                discarded.append(cells.removeLast())
            }
            cellsByKind[kind] = cells
        }
        touchedKinds.removeAll(keepingCapacity: true)
        count -= discarded.count
        return discarded
    }

    /// Cells held for `kind`.
    func count(of kind: String) -> Int { cellsByKind[kind]?.count ?? 0 }

    /// Cells held per kind, kinds with none left out.
    var countsByKind: [String: Int] { cellsByKind.compactMapValues { $0.isEmpty ? nil : $0.count } }
}
