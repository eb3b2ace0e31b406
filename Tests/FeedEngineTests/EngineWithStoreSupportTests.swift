import FeedEngine
import FeedLayout
import FeedModel
import FeedStore
import Foundation
import Testing

// The engine driven against the real SQLite store: fixtures and a hand-run driver.
//
// The driver does by hand what a replay session does, with no FeedReplay: it runs the controller's
// fetches on `store.pages(feed:)`, applies its changes to a real layout through `ScrollAnchoring`,
// reports the new geometry, and measures each change's drift against the layout's frames with a
// brute-force anchor of its own. (File named `…Tests.swift` so it sits with the suites it serves.)

/// A feed in a real ``ItemStore`` and what the test inserted into it: the oracle.
struct StoreFeedFixture {
    let store: ItemStore
    let feed: FeedID
    /// Everything inserted so far, ids set.
    private(set) var inserted: [NewItem] = []

    var source: FeedPageSource { store.pages(feed: feed) }

    init(store: ItemStore, feedName: String = "home") throws {
        self.store = store
        self.feed = try store.createFeed(named: feedName)
    }

    /// Inserts `items` (ids set) through `connection` (this fixture's store by default).
    mutating func insert(_ items: [NewItem], through connection: ItemStore? = nil) throws {
        precondition(items.allSatisfy { $0.id != nil }, "fixtures insert explicit ids so the oracle knows them")
        try (connection ?? store).insert(items: items, feed: feed)
        inserted += items
    }

    /// The oracle's feed order: every inserted item as a stub, by a plain sort on
    /// `(publishedAt, id)` descending — not by any store query.
    var feedOrder: [Item] { Self.feedOrder(inserted) }

    static func feedOrder(_ items: [NewItem]) -> [Item] {
        items.map(stubOf).sorted { ($0.publishedAt, $0.id) > ($1.publishedAt, $1.id) }
    }

    /// The row the store must return for `id`, from what was inserted.
    func expectedRow(_ id: Int64) -> ItemRow? {
        inserted.first { $0.id == id }.map { ItemRow(id: id, title: $0.title, author: $0.author, payload: $0.payload) }
    }
}

func stubOf(_ item: NewItem) -> Item {
    Item(id: item.id!, publishedAt: item.publishedAt, kind: item.kind, width: item.width, height: item.height)
}

/// Deterministic items for store-backed engine tests.
enum StoreItems {
    static let base: Int64 = 1_767_225_600_000

    /// `count` items with distinct ids drawn from `ids` (shuffled with `rng`, so tie order is not
    /// insertion order), published at one of `distinctTimes` whole seconds after `start`
    /// (so many share a `published_at`), kinds photo/text/ad, heights 40–120 pt in steps of 20.
    static func make(
        count: Int, ids: ClosedRange<Int64>, distinctTimes: Int, start: Int64 = base, rng: inout SplitMix64,
        fixedHeight: Double? = nil
    ) -> [NewItem] {
        precondition(ids.count >= count)
        let chosen = Array(ids).shuffled(using: &rng).prefix(count)
        let kinds = ["photo", "text", "ad"]
        return chosen.map { id in
            let second = Int64(rng.next() % UInt64(distinctTimes))
            let kind = kinds[Int(rng.next() % 3)]
            let height = fixedHeight ?? 40 + 20 * Double(rng.next() % 5)
            return NewItem(
                id: id, publishedAt: start + second * 1000, kind: kind, width: 320, height: height,
                title: "item \(id)", author: "author \(id % 7)", payload: "{\"id\":\(id)}")
        }
    }
}

/// A private temporary directory for a database file, removed by `cleanUp()`.
struct EngineTemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("feedsim-engine-store-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    var databasePath: String { url.appendingPathComponent("feed.sqlite").path }

    func cleanUp() { try? FileManager.default.removeItem(at: url) }
}

/// What one applied ``FeedChange`` did, measured by the driver.
struct AppliedChange {
    var change: FeedChange
    var outcome: ScrollAnchoring.Outcome
    /// The driver's own anchor: the first surviving item fully inside the viewport (else the first
    /// surviving one intersecting it), found by testing every item's frame.
    var anchorID: Int64?
    /// How far the anchor moved on screen along y, points (`nil` when the rule is not `anchored`).
    var drift: Double?
    /// Surviving items that intersected the viewport before and whose on-screen frame changed.
    var movedVisibleItemIDs: [Int64]
}

/// A feed controller, a real layout and a store, run by hand, one event at a time.
final class StoreDrivenFeed {
    let source: FeedPageSource
    private(set) var controller: FeedController
    let layout: any CollectionLayout
    let viewport: Size
    private(set) var contentOffset = Point.zero
    /// The list as the driver applied it, change by change (must equal `controller.items`).
    private(set) var shown: [Item] = []
    /// Fetches issued and not yet answered, in issue order.
    private(set) var queue: [FeedController.FetchRequest] = []
    /// Every fetch issued, in order.
    private(set) var fetches: [FeedController.FetchRequest] = []
    /// Every page answered, with its request.
    private(set) var answered: [(request: FeedController.FetchRequest, page: Page)] = []
    private(set) var changes: [AppliedChange] = []
    private(set) var dropped: [FeedController.FetchRequest] = []
    var now = 0.0
    /// Whether changes answering a page are applied with the request's kind
    /// (``ScrollAnchoring/apply(_:to:contentOffset:viewport:axis:load:)``'s `load`); `false` shows
    /// what a driver that does not pass it gets.
    var passesLoadKind = true

    init(
        source: FeedPageSource, configuration: FeedController.Configuration, layout: LayoutConfiguration,
        viewport: Size
    ) throws {
        self.source = source
        self.controller = try FeedController(configuration: configuration)
        self.layout = try layout.makeLayout()
        self.viewport = viewport
        try self.layout.prepare(sizes: [], viewport: viewport)
    }

    var maxOffset: Double { max(0, layout.contentSize.height - viewport.height) }
    var shownIDs: [Int64] { shown.map(\.id) }

    func start() throws { try process(controller.start(now: now)) }

    /// Moves the viewport to `y` and reports it.
    func scroll(to y: Double) throws {
        contentOffset = Point(x: 0, y: y)
        try reportViewport()
    }

    func pull(distance: Double) throws { try process(controller.pullReleased(distance: distance, now: now)) }

    func upstreamInserted(_ count: Int) throws { try process(controller.upstreamInserted(count: count, now: now)) }

    /// Runs the oldest queued fetch on the store and hands its page to the controller.
    @discardableResult
    func answerNext() throws -> Page {
        let request = queue.removeFirst()
        let page = try request.run(on: source)
        answered.append((request, page))
        try process(controller.pageArrived(request, page: page, now: now), answering: request.kind)
        return page
    }

    /// Answers fetches until none is queued (at most `limit`).
    func settle(limit: Int = 200, sourceLocation: SourceLocation = #_sourceLocation) throws {
        var steps = 0
        while !queue.isEmpty {
            try answerNext()
            steps += 1
            guard steps < limit else {
                Issue.record("fetches did not settle after \(limit) answers", sourceLocation: sourceLocation)
                return
            }
        }
    }

    /// Jumps to the bottom and settles until the bottom reaches its end (at most `limit` jumps).
    func walkToEnd(limit: Int = 100, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for _ in 0..<limit {
            if controller.loadState(.bottom) == .endReached { return }
            try scroll(to: maxOffset)
            try settle(sourceLocation: sourceLocation)
        }
        Issue.record("the end of the feed was not reached in \(limit) jumps", sourceLocation: sourceLocation)
    }

    // MARK: Driving

    private func reportViewport() throws {
        let geometry = FeedController.Viewport(layout: layout, contentOffset: contentOffset)
        try process(controller.viewportChanged(geometry, now: now))
    }

    private func process(_ actions: [FeedAction], answering load: FeedController.LoadKind? = nil) throws {
        var applied = false
        for action in actions {
            switch action {
            case .fetch(let request):
                queue.append(request)
                fetches.append(request)
            case .apply(let change):
                try apply(change, load: passesLoadKind ? load : nil)
                applied = true
            case .dropStale(let request):
                dropped.append(request)
            case .scheduleRetry, .phaseChanged:
                break
            }
        }
        #expect(shownIDs == controller.items.map(\.id), "the applied changes rebuild the controller's list")
        if applied { try reportViewport() }
    }

    private func apply(_ change: FeedChange, load: FeedController.LoadKind?) throws {
        let count = layout.itemCount
        let survivors: Range<Int>
        let shift: Int
        switch change {
        case .append: (survivors, shift) = (0..<count, 0)
        case .prepend(let added): (survivors, shift) = (0..<count, added.count)
        case .dropFirst(let n): (survivors, shift) = (n..<count, -n)
        case .dropLast(let n): (survivors, shift) = (0..<(count - n), 0)
        case .replace: (survivors, shift) = (0..<0, 0)
        }
        let offsetBefore = contentOffset
        let anchor = bruteForceAnchor(among: survivors)
        let anchorID = anchor.map { shown[$0].id }
        let anchorScreenY = anchor.map { frame($0).minY - offsetBefore.y }
        let visibleBefore = survivors.filter { frame($0).intersects(viewportRect) }
            .map { (id: shown[$0].id, index: $0, screen: screenRect(frame($0), offsetBefore)) }

        let outcome = try ScrollAnchoring.apply(
            change, to: layout, contentOffset: contentOffset, viewport: viewport, load: load)
        contentOffset = outcome.contentOffset
        switch change {
        case .append(let added): shown += added
        case .prepend(let added): shown.insert(contentsOf: added, at: 0)
        case .dropFirst(let n): shown.removeFirst(n)
        case .dropLast(let n): shown.removeLast(n)
        case .replace(let items): shown = items
        }
        #expect(layout.itemCount == shown.count)

        var drift: Double?
        if outcome.rule == .anchored, let anchor, let anchorScreenY {
            drift = frame(anchor + shift).minY - contentOffset.y - anchorScreenY
        }
        let moved = visibleBefore.filter { !sameRect(screenRect(frame($0.index + shift), contentOffset), $0.screen) }
            .map(\.id)
        changes.append(
            AppliedChange(
                change: change, outcome: outcome, anchorID: anchorID, drift: drift,
                movedVisibleItemIDs: outcome.rule == .anchored ? moved : []))
    }

    // MARK: Brute force over the layout's frames

    var viewportRect: Rect { Rect(origin: contentOffset, size: viewport) }

    func frame(_ index: Int) -> Rect {
        guard let attributes = layout.attributesForItem(at: index) else {
            preconditionFailure("no item \(index) in a layout of \(layout.itemCount)")
        }
        return attributes.frame
    }

    /// Equal within `driftTolerance` on every edge: offsets with fractions of a point leave
    /// rounding noise of about 1e-13 pt in `frame − offset`, which is no movement.
    private func sameRect(_ a: Rect, _ b: Rect) -> Bool {
        abs(a.minX - b.minX) <= driftTolerance && abs(a.minY - b.minY) <= driftTolerance
            && abs(a.width - b.width) <= driftTolerance && abs(a.height - b.height) <= driftTolerance
    }

    private func screenRect(_ frame: Rect, _ offset: Point) -> Rect {
        Rect(x: frame.minX - offset.x, y: frame.minY - offset.y, width: frame.width, height: frame.height)
    }

    /// Every item index whose frame intersects `rect`, by testing each one.
    func indices(intersecting rect: Rect) -> [Int] {
        (0..<layout.itemCount).filter { frame($0).intersects(rect) }
    }

    /// The first item fully inside the viewport, else the first intersecting it, else the first.
    func bruteForceAnchor(among candidates: Range<Int>) -> Int? {
        guard !candidates.isEmpty else { return nil }
        let rect = viewportRect
        let intersecting = candidates.filter { frame($0).intersects(rect) }
        let full = intersecting.first {
            let f = frame($0)
            return f.minX >= rect.minX && f.maxX <= rect.maxX && f.minY >= rect.minY && f.maxY <= rect.maxY
        }
        return full ?? intersecting.first ?? candidates.lowerBound
    }

    /// The id of the first fully visible item and its on-screen y, points.
    func anchorOnScreen() -> (id: Int64, screenY: Double)? {
        bruteForceAnchor(among: 0..<layout.itemCount).map { (shown[$0].id, frame($0).minY - contentOffset.y) }
    }

    /// Where item `id` is on screen now (y, points), `nil` when not loaded.
    func screenY(of id: Int64) -> Double? {
        shown.firstIndex { $0.id == id }.map { frame($0).minY - contentOffset.y }
    }
}

/// The two real layouts the store-backed tests run on, named for readable test arguments.
enum StoreTestLayout: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case list, grid

    var configuration: LayoutConfiguration {
        switch self {
        case .list: return .storeTestList
        case .grid: return .storeTestGrid
        }
    }

    var testDescription: String { rawValue }
}

extension LayoutConfiguration {
    /// A list with a 40 pt header, 10 pt top and bottom insets and 8 pt between rows.
    static let storeTestList = LayoutConfiguration(
        kind: .list, spacing: 8, insets: EdgeInsets(top: 10, left: 0, bottom: 10, right: 0), headerHeight: 40)
    /// A 4-column grid of 90 × 90 pt items, 10 pt apart, rows 12 pt apart, under a 30 pt header.
    static let storeTestGrid = LayoutConfiguration(
        kind: .grid, columns: 4, itemSize: Size(width: 90, height: 90), spacing: 10, lineSpacing: 12,
        headerHeight: 30)
}

/// Largest on-screen movement counted as none, points: far below a pixel (1/3 pt at 3×), far above
/// the rounding of `frame − offset` with fractional offsets (about 1e-13 pt).
let driftTolerance = 1e-9

/// 390 × 800 pt: a phone's viewport.
let storeTestViewport = Size(width: 390, height: 800)
