import FeedEngine
import FeedLayout
import FeedModel

extension ReplaySession {
    /// Applies one trace event to the scroll model (or the store, for inserts).
    func apply(_ event: TraceEvent) throws {
        let t = event.t
        switch event.kind {
        case .touchDown(let point):
            scroll.touchDown(at: point, t: t)
        case .touchMove(let point):
            scroll.touchMove(to: point, t: t)
        case .touchUp:
            let release = scroll.touchUp(t: t, layout: layout)
            if release.pullDistance > 0 {
                process(controller.pullReleased(distance: release.pullDistance, now: t))
            }
        case .offset(let point):
            scroll.setOffset(point, t: t)
        case .wheel(let dx, let dy):
            scroll.wheel(delta: axis == .vertical ? dy : dx, t: t)
        case .resize(let size):
            scroll.setViewport(size)
            let bounds = Rect(origin: scroll.contentOffset, size: size)
            layout.invalidateLayout(forBoundsChange: bounds)
            layoutChangedThisFrame = true
            scroll.setContentSize(layout.contentSize)
        case .tap(let point):
            let content = Point(x: point.x + scroll.contentOffset.x, y: point.y + scroll.contentOffset.y)
            // A tap on the refresh view, the header or the load-more footer is reported as that
            // view (its index path is section 0, item 0, which is not item 0).
            let hit = virtualizer.tap(at: content)
            let cell = hit?.category == .cell
            taps.append(
                ReplayReport.Tap(
                    tMs: t, element: hit?.category.name, item: cell ? hit?.indexPath.item : nil,
                    itemId: cell ? hit?.itemID : nil))
        case .insert(let count):
            try backend.insertAtHead(count: count, at: t)
            process(controller.upstreamInserted(count: count, now: t))
        case .end:
            break
        }
    }

    /// Delivers every simulated answer due by `now`, in schedule order; returns how many.
    @discardableResult
    func deliverDue() throws -> Int {
        var delivered = 0
        if !deferred.isEmpty { collectDeferred() }
        while let (_, completion) = queue.popDue(at: now) {
            delivered += 1
            switch completion {
            case .page(let request, .success(let page)):
                recorder?.record(.pageAnswered(id: request.id, failure: nil, t: now))
                process(controller.pageArrived(request, page: page, now: now), load: request.kind)
            case .page(let request, .failure(let error)):
                recorder?.record(.pageAnswered(id: request.id, failure: error, t: now))
                process(controller.pageFailed(request, error: error, now: now))
            case .rows(let fetchID, let ids, let batch):
                rowFetchLanded(ids: ids)
                recorder?.record(.rowsAnswered(fetchID: fetchID, t: now))
                _ = virtualizer.rowsArrived(fetchID: fetchID, batch: batch)
            case .rowsFailed(let fetchID, let ids):
                rowFetchLanded(ids: ids)
                recorder?.record(.rowsAnswered(fetchID: fetchID, t: now))  // answered without rows
                rowFetchFailures += 1
                virtualizer.rowsFailed(fetchID: fetchID)
            case .retryTick:
                process(controller.tick(now: now))
            }
        }
        return delivered
    }

    /// Moves the answers of a ``DeferredReplayBackend`` that arrived since the last frame onto the
    /// queue, due at their issue time plus their time on the wire (see
    /// ``deferredAnswersChargeTimeOnTheWire``) and their drawn latency.
    func collectDeferred() {
        var waiting: [(request: DeferredRequest, latency: Double, issuedAt: Double, stamp: UInt64)] = []
        for entry in deferred {
            func due(_ elapsedMs: Double?) -> Double {
                let onTheWire = deferredAnswersChargeTimeOnTheWire ? elapsedMs ?? 0 : 0
                return max(now, entry.issuedAt + onTheWire + entry.latency)
            }
            switch entry.request {
            case .page(let request, let answer):
                guard let result = answer.poll() else {
                    waiting.append(entry)
                    continue
                }
                switch result {
                case .success(let page): queue.push(.page(request, .success(page)), at: due(answer.elapsedMs))
                case .failure(let error): queue.push(.page(request, .failure("\(error)")), at: due(answer.elapsedMs))
                }
            case .rows(let fetchID, let ids, let answer):
                guard let result = answer.poll() else {
                    waiting.append(entry)
                    continue
                }
                switch result {
                case .success(let batch): queue.push(.rows(fetchID: fetchID, ids: ids, batch), at: due(answer.elapsedMs))
                case .failure: queue.push(.rowsFailed(fetchID: fetchID, ids: ids), at: due(answer.elapsedMs))
                }
            }
        }
        deferred = waiting
    }

    /// Carries out the controller's actions: issue fetches, apply changes (anchored), record transitions.
    /// - Parameter load: the kind of the request whose answer produced these actions, if any: a
    ///   `prepend` page (restoring dropped pages) is anchored even at the top, a Refresh is not.
    func process(_ actions: [FeedAction], load: FeedController.LoadKind? = nil) {
        for action in actions {
            switch action {
            case .fetch(let request):
                issuePage(request)
            case .scheduleRetry(let at, _):
                queue.push(.retryTick, at: at)
            case .apply(let change):
                applyChange(change, load: load)
            case .dropStale:
                break  // counted by the controller
            case .phaseChanged(let from, let to):
                phaseTransitions.append(ReplayReport.Transition(tMs: round6(now), from: from.rawValue, to: to.rawValue))
                showRefreshControl(to == .refresh)
            }
        }
        recordLoadStates()
        // "Checked again right after each page is applied": once this event's actions are all
        // carried out (so transitions stay in order), tell the controller the new geometry.
        if viewportReportPending {
            viewportReportPending = false
            reportViewport()
        }
    }

    /// Appends a transition for each direction whose load state changed since the last event.
    func recordLoadStates() {
        let states = controller.status.loadStates
        guard states != lastLoadStates else { return }
        let t = round6(now)
        for (name, before, after) in [
            ("refresh", lastLoadStates.refresh, states.refresh), ("prepend", lastLoadStates.prepend, states.prepend),
            ("append", lastLoadStates.append, states.append),
        ] where before != after {
            transitions.append(ReplayReport.LoadTransition(tMs: t, direction: name, from: before.rawValue, to: after.rawValue))
        }
        lastLoadStates = states
    }

    /// Runs the page query now (a snapshot of the store at issue time) and schedules its answer
    /// after the drawn latency, or a failure when the fault model says so.
    func issuePage(_ request: FeedController.FetchRequest) {
        let latency = options.latency.sample(&latencyRNG)
        recorder?.record(
            .pageIssued(
                id: request.id, kind: request.kind, direction: request.direction, attempt: request.attempt, t: now))
        switch options.faults.outcome(issuedAt: now, &faultRNG) {
        case .error:
            queue.push(.page(request, .failure("simulated server error")), at: now + latency)
        case .timeout:
            queue.push(.page(request, .failure("simulated timeout")), at: now + options.faults.timeoutMs)
        case .success:
            // The answer lands after the query's own time (0 for simulated backends) and the drawn latency.
            if let answer = deferredBackend?.startPage(request) {
                deferred.append((.page(request, answer), latency, now, deferredIssueStamp?() ?? 0))
                return
            }
            do {
                let page = try backend.page(request)
                queue.push(.page(request, .success(page)), at: now + backend.lastCallMilliseconds + latency)
            } catch {
                if error.isPermanentBackendFailure, permanentFailure == nil { permanentFailure = error }
                queue.push(.page(request, .failure("\(error)")), at: now + backend.lastCallMilliseconds + latency)
            }
        }
    }

    /// Fetches rows now and schedules their arrival after the drawn row latency, or a failure when
    /// the row fault model says so (``ReplayOptions/rowLatency``, ``ReplayOptions/rowFaults``; the
    /// page models when unset). Each drawn from its own stream split from the seed.
    ///
    /// An id asked for while an earlier fetch of it is still on the wire (cancelled by the
    /// virtualizer when the item left the preload range, then wanted again) is a redundant fetch:
    /// counted in ``rowsRedundant``, apart from over-fetch (rows fetched but never shown). A fetch
    /// the backend fails lands as a failed batch (counted in the report's failed batches).
    func issueRowFetches(_ fetches: [RowFetch]) {
        guard !fetches.isEmpty else { return }  // most frames: no models copied
        let latency = options.rowLatency ?? options.latency
        let faults = options.rowFaults ?? options.faults
        for fetch in fetches {
            rowsFetched += fetch.itemIDs.count
            rowBatches += 1
            rowFetchesInFlight += 1
            recorder?.record(.rowsIssued(fetchID: fetch.id, count: fetch.itemIDs.count, t: now))
            for id in fetch.itemIDs {
                if rowIDsOnTheWire[id, default: 0] > 0 { rowsRedundant += 1 }
                rowIDsOnTheWire[id, default: 0] += 1
            }
            let delay = latency.sample(&rowLatencyRNG)
            switch faults.outcome(issuedAt: now, &rowFaultRNG) {
            case .error:
                queue.push(.rowsFailed(fetchID: fetch.id, ids: fetch.itemIDs), at: now + delay)
            case .timeout:
                queue.push(.rowsFailed(fetchID: fetch.id, ids: fetch.itemIDs), at: now + faults.timeoutMs)
            case .success:
                if let answer = deferredBackend?.startRows(ids: fetch.itemIDs) {
                    deferred.append((.rows(fetchID: fetch.id, ids: fetch.itemIDs, answer), delay, now, deferredIssueStamp?() ?? 0))
                    continue
                }
                // A failed fetch (an HTTP API's 500, a dropped connection) is a failed batch, as an
                // injected fault is: the cells keep their placeholders and the virtualizer asks again.
                do {
                    let batch = try backend.rows(ids: fetch.itemIDs)
                    queue.push(
                        .rows(fetchID: fetch.id, ids: fetch.itemIDs, batch), at: now + backend.lastCallMilliseconds + delay)
                } catch {
                    if error.isPermanentBackendFailure, permanentFailure == nil { permanentFailure = error }
                    queue.push(.rowsFailed(fetchID: fetch.id, ids: fetch.itemIDs), at: now + backend.lastCallMilliseconds + delay)
                }
            }
        }
    }

    /// A row fetch answered (rows or a failure): its ids are off the wire.
    func rowFetchLanded(ids: [Int64]) {
        rowFetchesInFlight -= 1
        for id in ids {
            let left = rowIDsOnTheWire[id, default: 1] - 1
            rowIDsOnTheWire[id] = left > 0 ? left : nil
        }
    }

    /// The load-more footer is shown while more items may exist below and hidden once the feed has
    /// ended (the controller's More state), as a data source hides its load-more view.
    func showLoadMoreFooter() {
        // Only this sets the footer, so an unchanged value would change nothing (the layout skips
        // equal writes): not asked again every frame (a protocol call and a set lookup).
        let hidden = controller.status.bottomEndReached
        guard hidden != footerHidden else { return }
        footerHidden = hidden
        layout.setSupplementaryView(ofKind: .footer, hidden: hidden)
    }

    /// The refresh control: a content inset at the top while a Refresh loads, as `UIRefreshControl`.
    func showRefreshControl(_ shown: Bool) {
        guard shown != refreshInsetShown else { return }
        refreshInsetShown = shown
        var insets = scroll.contentInset
        if axis == .vertical {
            insets.top = shown ? options.refreshControlHeight : 0
        } else {
            insets.left = shown ? options.refreshControlHeight : 0
        }
        scroll.setContentInset(insets)
    }
}
