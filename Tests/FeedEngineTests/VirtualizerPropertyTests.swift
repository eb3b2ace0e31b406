import FeedLayout
import FeedModel
import Testing

@testable import FeedEngine

/// Brute-force answers for a vertical layout: every cell frame checked.
private struct VirtualizerOracle {
    let frames: [Rect]

    /// The range rect, from the definition in `RangeExtent`'s documentation.
    func rangeRect(_ extent: RangeExtent, viewport: Rect, forward: Bool) -> Rect {
        var above = 0.0
        var below = 0.0
        switch extent {
        case .points(let leading, let trailing):
            above = forward ? trailing : leading
            below = forward ? leading : trailing
        case .screenfuls(let leading, let trailing):
            above = (forward ? trailing : leading) * viewport.height
            below = (forward ? leading : trailing) * viewport.height
        case .items(let leading, let trailing):
            let visible = frames.indices.filter { frames[$0].intersects(viewport) }
            guard let first = visible.min(), let last = visible.max() else { break }
            let countAbove = forward ? trailing : leading
            let countBelow = forward ? leading : trailing
            var top = viewport.minY
            var bottom = viewport.maxY
            for index in frames.indices where index < first && index >= first - countAbove {
                top = min(top, frames[index].minY)
            }
            for index in frames.indices where index > last && index <= last + countBelow {
                bottom = max(bottom, frames[index].maxY)
            }
            above = viewport.minY - top
            below = bottom - viewport.maxY
        }
        return Rect(
            x: viewport.minX, y: viewport.minY - above, width: viewport.width,
            height: viewport.height + above + below)
    }

    func indices(intersecting rect: Rect) -> [Int] {
        frames.indices.filter { frames[$0].intersects(rect) }
    }
}

@Suite struct VirtualizerPropertyTests {
    static let configurations: [RangeConfiguration] =
        RangeConfiguration.presetNames.map {
            RangeConfiguration.preset(named: $0)!
        } + [
            RangeConfiguration(prefetch: .viewportOnly, preload: .items(leading: 4, trailing: 0)),
            RangeConfiguration(prefetch: .screenfuls(leading: 2, trailing: 0), preload: .viewportOnly),
            RangeConfiguration(prefetch: .items(leading: 3, trailing: 3), preload: .points(leading: 0, trailing: 900)),
        ]

    @Test(arguments: 0..<configurations.count, [1, 3])
    func liveCellsAndRowRequestsMatchTheBruteForceRanges(configurationIndex: Int, columns: Int) throws {
        let configuration = Self.configurations[configurationIndex]
        for seed in UInt64(1)...3 {
            try runRandomSession(
                configuration: configuration, columns: columns,
                seed: seed &* 7919 &+ UInt64(configurationIndex * 10 + columns))
        }
    }

    private func runRandomSession(configuration: RangeConfiguration, columns: Int, seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let kinds = ["photo", "text", "ad"]
        let viewport = Size(width: 330, height: 600)
        var nextID: Int64 = 1
        func makeItems(_ n: Int) -> [Item] {
            (0..<n).map { _ in
                defer { nextID += 1 }
                let height = 40 + Double(rng.next() % 360)
                return Item(id: nextID, publishedAt: 0, kind: kinds[Int(rng.next() % 3)], width: 330, height: height)
            }
        }
        var items = makeItems(120)
        let layout = VirtualizerTestLayout(columns: columns)
        try layout.prepare(sizes: items.map { Size(width: $0.width, height: $0.height) }, viewport: viewport)
        let poolLimit = Int(rng.next() % 4)
        let v = try Virtualizer(
            layout: layout, configuration: configuration, reusePoolLimit: poolLimit,
            rowBatchLimit: 1 + Int(rng.next() % 8), rowCacheCapacity: Int(rng.next() % 30))

        var offset = 0.0
        var previousOffset: Double?
        var forward = true
        var requestedWhileInRange: Set<Int64> = []
        var missing: Set<Int64> = []
        var delivered: Set<Int64> = []
        var issued: [Int: [Int64]] = [:]
        var cancelled: [Int] = []

        for step in 0..<150 {
            // Feed changes: More appends, Refresh prepends with the offset moved by the inserted height.
            let roll = rng.next() % 100
            if roll < 4 {
                let more = makeItems(10)
                items += more
                layout.append(sizes: more.map { Size(width: $0.width, height: $0.height) })
            } else if roll < 7 {
                let firstY = layout.cellFrames.first?.minY ?? 0
                let newer = makeItems(columns * 2)
                items = newer + items
                layout.prepend(sizes: newer.map { Size(width: $0.width, height: $0.height) })
                offset += (layout.cellFrames[newer.count].minY - firstY)
            }
            // Scroll: small steps, flings and jumps, sometimes standing still.
            let contentHeight = layout.contentSize.height
            switch rng.next() % 10 {
            case 0: offset = rng.nextUnit() * contentHeight - 100
            case 1: break
            case 2, 3: offset += (rng.nextUnit() - 0.5) * 3000
            default: offset += (rng.nextUnit() - 0.4) * 250
            }
            let velocityKind = rng.next() % 3
            let velocity: Double = velocityKind == 0 ? 0 : (velocityKind == 1 ? 800 : -800)

            // Oracle direction: velocity sign, else offset change, else unchanged.
            if velocity > 0 {
                forward = true
            } else if velocity < 0 {
                forward = false
            } else if let previous = previousOffset, offset != previous {
                forward = offset > previous
            }
            previousOffset = offset

            let livePooledBefore = (v.liveCellCount, v.pooledCellCount)
            let update = v.update(
                contentOffset: Point(x: 0, y: offset), viewport: viewport, items: items,
                scrollVelocity: Point(x: 0, y: velocity))

            let oracle = VirtualizerOracle(frames: layout.cellFrames)
            let visibleRect = Rect(x: 0, y: offset, width: viewport.width, height: viewport.height)
            let prefetchRect = oracle.rangeRect(configuration.prefetch, viewport: visibleRect, forward: forward)
            let preloadRect = oracle.rangeRect(configuration.preload, viewport: visibleRect, forward: forward)
            let expectedLive = Set(oracle.indices(intersecting: prefetchRect).map { items[$0].id })
            let expectedPreload = Set(oracle.indices(intersecting: preloadRect).map { items[$0].id })
            let context = "seed \(seed) step \(step) offset \(offset) prefetch \(prefetchRect) forward \(forward)"

            // Cells: exactly the brute-force set; right kind; identities hold.
            #expect(Set(v.liveCells.compactMap(\.itemID)) == expectedLive, "\(context)")
            let kindOf = Dictionary(uniqueKeysWithValues: items.map { ($0.id, $0.kind) })
            for cell in v.liveCells {
                #expect(cell.kind == kindOf[cell.itemID!], "\(context)")
                #expect(cell.boundRowItemID == nil || cell.boundRowItemID == cell.itemID, "\(context)")
            }
            #expect(Set(v.liveCells.map(\.id)).count == v.liveCellCount)
            #expect(v.pooledCellCounts.values.allSatisfy { $0 <= poolLimit }, "\(context)")
            #expect(
                livePooledBefore.0 - update.cellsRecycled + update.cellsReused + update.cellsCreated == v.liveCellCount)
            #expect(
                livePooledBefore.1 + update.cellsRecycled - update.cellsReused - update.cellsDiscarded
                    == v.pooledCellCount)
            #expect(v.counters.cellsCreated == v.liveCellCount + v.pooledCellCount + v.counters.cellsDiscarded)

            // Rows: requested only inside the preload range, at most once while in range, never
            // when cached.
            for fetch in update.rowFetches {
                #expect(fetch.itemIDs.count <= v.rowBatchLimit)
                issued[fetch.id] = fetch.itemIDs
                for id in fetch.itemIDs {
                    #expect(expectedPreload.contains(id), "\(context): \(id) requested outside the preload range")
                    #expect(!requestedWhileInRange.contains(id), "\(context): \(id) requested twice while in range")
                    #expect(!v.isRowLoaded(id), "\(context)")
                    requestedWhileInRange.insert(id)
                }
            }
            requestedWhileInRange.formIntersection(expectedPreload)
            cancelled += update.cancelledFetchIDs
            // Every item in range has its row, is being fetched, or is known missing.
            let fetching = Set(v.itemsBeingFetched)
            for id in expectedPreload {
                #expect(v.isRowLoaded(id) || fetching.contains(id) || missing.contains(id), "\(context): \(id)")
            }
            // A cancelled fetch serves no item in range.
            for fetchID in update.cancelledFetchIDs {
                #expect(issued[fetchID]!.allSatisfy { !expectedPreload.contains($0) || fetching.contains($0) })
            }

            // Deliver some fetches (5 % of ids missing), and now and then a cancelled one late.
            for fetchID in v.pendingFetchIDs where rng.next() % 3 == 0 {
                let ids = issued[fetchID]!
                let gone = ids.filter { _ in rng.next() % 20 == 0 }
                missing.formUnion(gone)
                let rows = ids.filter { !gone.contains($0) }.map(virtualizerTestRow)
                delivered.formUnion(rows.map(\.id))
                #expect(v.rowsArrived(fetchID: fetchID, batch: RowBatch(rows: rows, missing: gone)).accepted)
            }
            if let late = cancelled.popLast(), rng.next() % 2 == 0 {
                let arrival = v.rowsArrived(
                    fetchID: late,
                    batch: RowBatch(
                        rows: issued[late]!.map(virtualizerTestRow),
                        missing: []))
                #expect(!arrival.accepted)
            }
            // Every live cell whose row is cached shows it; a cell shows only a delivered row (it
            // keeps showing it if the cache later evicts the row, as a configured view would).
            for cell in v.liveCells {
                if v.isRowLoaded(cell.itemID!) { #expect(cell.isRowBound, "\(context)") }
                if cell.isRowBound { #expect(delivered.contains(cell.itemID!), "\(context)") }
            }
        }
        // The session exercised what it checks.
        #expect(v.counters.rowFetchesIssued > 0 && v.counters.cellsRecycled > 0 && v.counters.rowsBound > 0)
    }
}
