import FeedEngine
import FeedModel

/// The loaded list as the layout knows it: the controller's changes applied one at a time, with
/// the set of ids for the duplicate check.
///
/// The controller updates its own `items` before it emits `.apply`, and may emit several changes
/// in one event; the replay applies them to the layout one by one, so it keeps this mirror to know
/// which item sits at which layout index between two changes.
struct ShownList {
    private(set) var items: [Item] = []
    /// The ids of `items` (the project's id set: `Set<Int64>`'s SipHash made a page's change
    /// ~37 k instructions, 5 % of a replay frame's simulation in a flinger trace).
    private(set) var ids = ItemIDSet()

    /// - Complexity: O(m) for m items added or removed, plus O(n) for a prepend or a drop at the top
    ///   (array shift), as the controller's own list.
    mutating func apply(_ change: FeedChange) {
        switch change {
        case .append(let new):
            items.append(contentsOf: new)
            for item in new { ids.insert(item.id) }
        case .prepend(let new):
            items.insert(contentsOf: new, at: 0)
            for item in new { ids.insert(item.id) }
        case .replace(let new):
            items = new
            ids = ItemIDSet(new.lazy.map(\.id))
        case .dropFirst(let n):
            for item in items.prefix(n) { ids.remove(item.id) }
            items.removeFirst(min(n, items.count))
        case .dropLast(let n):
            for item in items.suffix(n) { ids.remove(item.id) }
            items.removeLast(min(n, items.count))
        }
    }
}
