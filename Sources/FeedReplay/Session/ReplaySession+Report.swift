import FeedEngine
import FeedLayout
import FeedModel

/// Whether each visible cell showed its row, as of the last change of the visible cells or of
/// their rows (the virtualizer's visible generation; see ``ReplaySession/record(_:)``).
struct VisibleCache {
    var generation = -1
    var bound: [Bool] = []
    /// Positions in the visible cells of those without their row, in order: once the first
    /// content was shown, only they add to the blank area (a frame of a fast fling in `bench
    /// replay` has ~20 visible cells, mostly bound).
    var unbound: [Int] = []
    /// The visible cells' items at that change, aligned with `bound`: a row shown then is already
    /// in `distinctShown`.
    var itemIDs: [Int64] = []
    /// The flags of the change before `bound`'s, kept as the buffer the next change refills.
    var spareBound: [Bool] = []

    /// Inserts into `shown` the items of `ids` whose flag in `bound` is set, leaving out those this
    /// cache already held as bound (inserted when it was taken): the same set as inserting every
    /// bound id, without a hash per visible cell per change. The visible list moves by whole
    /// cells between changes, so each id is looked for where the first shared id moved (a plain
    /// comparison; an id found elsewhere, or not at all, is inserted).
    /// - Precondition: every bound id of this cache is in `shown`.
    func insertNewlyShown(ids: [Int64], bound: [Bool], into shown: inout ItemIDSet) {
        let old = itemIDs
        // old[p + shift] == ids[p] for the cells that stayed, when the list moved by `shift`.
        var shift: Int?
        if let first = ids.first {
            if let at = old.firstIndex(of: first) {
                shift = at
            } else if let oldFirst = old.first, let at = ids.firstIndex(of: oldFirst) {
                shift = -at
            }
        }
        for p in ids.indices where bound[p] {
            if let shift, old.indices.contains(p + shift), old[p + shift] == ids[p], self.bound[p + shift] {
                continue  // bound when this cache was taken: inserted then
            }
            shown.insert(ids[p])
        }
    }
}

extension ReplaySession {
    /// Measures one frame after the virtualizer's update; returns what was recorded, `nil` when
    /// ``ReplayOptions/measures`` is ``FrameMeasures/loadSummary`` (then only the blank shares are).
    @discardableResult
    func record(_ update: VirtualizerUpdate) -> FrameSample? {
        let rect = viewportRect
        let area = rect.width * rect.height
        let summary = options.measures == .loadSummary
        let rowMissing = visibleRowMissingArea(in: rect, collectingShown: !summary)
        if summary {
            metrics.recordBlank(
                rowMissingFraction: area > 0 ? min(1, rowMissing / area) : 0, noContentFraction: noContentFraction())
            return nil
        }
        let status = controller.status
        // Only Android's overscroll has an edge effect: the rubber band's frames do not read the scroll model's state.
        let edgeEffect = scroll.configuration.overscroll == .edgeEffect ? scroll.edgeEffectDistance : 0
        edgeEffectMax = max(edgeEffectMax, edgeEffect)
        let centred = carousel?.centredIndex
        if let centred, centred != lastCentredIndex {
            centredIndexChanges.append(ReplayReport.CentredIndexChange(tMs: round6(now), index: centred))
        }
        lastCentredIndex = centred
        // Rows bound this frame: on arrival, or when a cell was dequeued for an item whose row is cached.
        let rowsBound = virtualizer.visibleRowState.rowsBound  // a getter: no exclusivity check per frame
        let bound = rowsBound - rowsBoundBefore
        rowsBoundBefore = rowsBound
        let cost = options.costs.frameCost(
            layoutChanged: layoutChangedThisFrame, created: update.cellsCreated, reused: update.cellsReused,
            bound: bound)
        let visibleRange = virtualizer.visibleCellIndexRange
        let sample = FrameSample(
            t: now, offset: axis.component(of: scroll.contentOffset), anchorShift: anchorShiftThisFrame, contentOffset: (scroll.contentOffset.x, scroll.contentOffset.y),
            visibleRange: visibleRange, loadedItems: shown.items.count,
            rowMissingFraction: area > 0 ? min(1, rowMissing / area) : 0,
            noContentFraction: noContentFraction(), loadsInFlight: status.inFlightCount + rowFetchesInFlight,
            pageLoadsInFlight: status.inFlightCount, rowLoadsInFlight: rowFetchesInFlight,
            loadStates: status.loadStates,
            cost: cost, afterFirstContent: firstContentTime != nil, edgeEffect: edgeEffect, centredIndex: centred)
        metrics.record(sample)
        if let recorder {
            recordFrame(
                update, rowMissingFraction: sample.rowMissingFraction, noContentFraction: sample.noContentFraction,
                cost: cost, recorder: recorder)
        }
        return sample
    }

    /// The area of `rect` covered by visible cells whose row is not bound, points²; notes the first
    /// content's time, and with `collectingShown` the rows shown (for `rows.distinct_shown`).
    private func visibleRowMissingArea(in rect: Rect, collectingShown: Bool) -> Double {
        var rowMissing = 0.0
        var anyContent = false
        // Which visible cells show their row changes only when the visible cells change or a row
        // is bound; between those frames only the overlaps move (cheap), not the cell lookups.
        // The visible generation also moves when a visible cell's row is bound (not when a row
        // binds to a cell off screen, as the rows bound count did).
        let generation = virtualizer.visibleRowState.generation
        if generation != visibleCache.generation {
            // The flags and positions are refilled into the cache's own buffers, not two arrays
            // allocated per change.
            var bound: [Bool] = []
            swap(&bound, &visibleCache.spareBound)
            virtualizer.visibleCellRowBound(into: &bound)
            let ids = virtualizer.visibleCellItemIDs
            if collectingShown { visibleCache.insertNewlyShown(ids: ids, bound: bound, into: &distinctShown) }
            var unbound: [Int] = []
            swap(&unbound, &visibleCache.unbound)
            unbound.removeAll(keepingCapacity: true)
            for position in bound.indices where !bound[position] { unbound.append(position) }
            swap(&bound, &visibleCache.bound)
            visibleCache.spareBound = bound
            visibleCache.unbound = unbound
            visibleCache.generation = generation
            visibleCache.itemIDs = ids
        }
        // Plain frames, not layout attributes: no enum payload copied per element per frame.
        let frames = virtualizer.visibleCellFrames
        if firstContentTime != nil {
            // The same additions in the same order as the loop below, without the bound cells.
            for position in visibleCache.unbound {
                guard let overlap = frames[position].intersection(rect) else { continue }
                rowMissing += overlap.width * overlap.height
            }
            return rowMissing
        }
        for (frame, isBound) in zip(frames, visibleCache.bound) {
            guard let overlap = frame.intersection(rect) else { continue }
            if isBound {
                anyContent = true
            } else {
                rowMissing += overlap.width * overlap.height
            }
        }
        if anyContent, firstContentTime == nil { firstContentTime = now }
        return rowMissing
    }

    /// Share of the viewport past the end of the content while more content exists (or while the
    /// first page loads): the blank strip a user sees at the bottom when More is late.
    private func noContentFraction() -> Double {
        guard !controller.status.bottomEndReached else { return 0 }
        let length = axis.length(of: scroll.viewport)
        guard length > 0 else { return 0 }
        // The stored offset, not `scroll.offset`: a computed property of the scroll model read
        // from the session copies the whole model first (its samples retained and released).
        let start = axis.component(of: scroll.contentOffset)
        let end = start + length
        let contentEnd = axis.length(of: layout.contentSize)
        let uncovered = max(0, end - max(contentEnd, start))
        return min(1, uncovered / length)
    }

    /// Builds the report after the last frame.
    func makeReport(frames: Int) -> ReplayReport {
        let c = controller.counters
        let shownCount = distinctShown.count
        let controller = options.controller
        let prefetch: String
        switch controller.prefetchDistance {
        case .items(let n): prefetch = "items:\(n)"
        case .points(let p): prefetch = "points:\(formatNumber(p))"
        case .screenfuls(let s): prefetch = "screens:\(formatNumber(s))"
        }
        let physics: String
        switch options.scroll.deceleration {
        case .uikit(let rate): physics = "uikit rate=\(formatNumber(rate))"
        case .androidSpline(let friction, _): physics = "android friction=\(formatNumber(friction))"
        }
        let costs = options.costs
        // Every option that changes the figures, as the command line spells it.
        let opts: [String: String] = [
            "layout": layoutDescription,
            "ranges": options.ranges.name,
            "reuse_pool": virtualizer.reusePoolLimit.map { $0 == 0 ? "none" : "\($0)/kind" } ?? "unbounded",
            "page_size": String(controller.pageSize),
            "initial_pages": String(controller.initialLoadPages),
            "prefetch": prefetch,
            "max_loaded": controller.maxLoadedItems.map(String.init) ?? "off",
            "latency": options.latency.description,
            "faults": options.faults.description,
            "row_latency": (options.rowLatency ?? options.latency).description,
            "row_faults": (options.rowFaults ?? options.faults).description,
            "scroll": physics,
            "costs": "base=\(formatNumber(costs.base)),layout=\(formatNumber(costs.layout)),create=\(formatNumber(costs.cellCreation)),"
                + "reuse=\(formatNumber(costs.cellReuse)),bind=\(formatNumber(costs.rowBinding))",
            "seed": String(options.seed),
            "trace_import": options.traceNotes.isEmpty ? "as recorded" : options.traceNotes.joined(separator: "; "),
            "viewport": "\(formatNumber(trace.header.viewport.width))x\(formatNumber(trace.header.viewport.height))",
            "refresh_rate": formatNumber(trace.header.refreshRate),
            "pull_threshold": formatNumber(controller.refreshThreshold),
        ]
        return ReplayReport(
            source: trace.header.source,
            options: opts,
            durationMs: round6(Double(max(frames - 1, 0)) * framePeriod),
            frames: frames,
            refreshRateHz: trace.header.refreshRate,
            distancePt: round6(metrics.distance),
            timeToFirstContentMs: firstContentTime.map(round6),
            blank: metrics.blank,
            hitches: metrics.hitches,
            pages: ReplayReport.Pages(
                init: c.initialPages, refresh: c.refreshPages + c.gapFillPages, more: c.morePages,
                prepend: c.prependPages, staleDropped: c.staleDropped, retries: c.retries, failures: c.failures,
                sourceFaults: c.sourceFaults),
            rows: ReplayReport.Rows(
                fetched: rowsFetched, distinctShown: shownCount,
                overfetchRatio: shownCount > 0 ? round6(Double(rowsFetched) / Double(shownCount)) : 0,
                batches: rowBatches, redundant: rowsRedundant,
                cancelledBatches: virtualizer.counters.rowFetchesCancelled, failedBatches: rowFetchFailures),
            cells: ReplayReport.Cells(
                created: virtualizer.counters.cellsCreated, reused: virtualizer.counters.cellsReused,
                maxLive: virtualizer.maxLiveCells,
                byKind: virtualizer.counters.cellsByKind.mapValues { .init(created: $0.created, reused: $0.reused) }),
            timeInFailedMs: round6(timeIn("failed", until: Double(max(frames - 1, 0)) * framePeriod)),
            anchorDriftMaxPt: round6(anchorDriftMax),
            edgeEffectMaxPt: round6(edgeEffectMax),
            centredIndexChanges: centredIndexChanges,
            transitions: transitions,
            phaseTransitions: phaseTransitions,
            taps: taps,
            final: ReplayReport.Final(
                contentOffset: [round6(scroll.contentOffset.x), round6(scroll.contentOffset.y)],
                contentSize: [round6(layout.contentSize.width), round6(layout.contentSize.height)],
                loadedItems: shown.items.count),
            violations: violations)
    }

    /// Total time spent in `phase` according to the recorded transitions, up to `end` ms.
    func timeIn(_ phase: String, until end: Double) -> Double {
        var total = 0.0
        var since: Double?
        for transition in phaseTransitions {
            if transition.to == phase, since == nil { since = transition.tMs }
            if transition.from == phase, let start = since {
                total += transition.tMs - start
                since = nil
            }
        }
        if let start = since { total += max(0, end - start) }
        return total
    }
}
