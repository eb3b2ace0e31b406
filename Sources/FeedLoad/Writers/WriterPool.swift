import FeedModel
import Foundation
import Synchronization
import FeedResources

/// `count` writer threads writing to a feed at `ratePerSecond` operations per second in total
/// (inserts at the head, updates and deletes as the ``WriteMix`` says), each on its own connection
/// and with its own seeded stream (``writerSeed(base:writer:)``), until stopped. Writer k runs one
/// batch every `count × batch / ratePerSecond` seconds on a fixed schedule (a late batch does not
/// move later ones), so the rate holds whatever the lock waits. The schedule runs on the load's
/// clock (``LoadClock``); on a virtual one each writer stops writing at `until` (the run's end),
/// since virtual time would otherwise race ahead once the sessions are done.
///
/// When they stop, unless ``keepWrites``: each writer deletes the items it inserted that are still
/// there, and the pool puts back the pre-existing items the writers updated or deleted, as they
/// were (``RestoreJournal``), so the feed is as it was before the run.
public final class WriterPool: Sendable {
    public let count: Int
    public let ratePerSecond: Double
    public let batch: Int
    private let connector: any FeedBackendConnector
    private let preset: Preset
    private let seed: UInt64
    /// The run's number of this pool's first writer (a segment's share starts past 0), for seeds.
    public let firstWriter: Int
    private let boxes: [MetricsBox]
    private let group = DispatchGroup()
    private let done = Atomic<Bool>(false)
    /// Whether the writers leave their rows in the database when they stop.
    public let keepWrites: Bool
    public let mix: WriteMix
    private let removedCount = Atomic<Int>(0)
    private let restoredCount = Atomic<Int>(0)
    private let journal = RestoreJournal()
    /// The store's largest id when ``start()`` ran: items up to it existed before the writers.
    private let baselineMaxID = Atomic<Int64>(0)
    private let clock: LoadClock
    /// On a virtual clock: no batch is due at or after this time.
    private let until: Duration?

    /// - Parameter firstWriter: the run's number of writer 0 of this pool (a segment's first
    ///   writer), so writer k draws the seed writer `firstWriter + k` of the whole run draws.
    /// - Precondition: `count` ≥ 1, `ratePerSecond` > 0, `batch` ≥ 1.
    public init(
        count: Int, ratePerSecond: Double, batch: Int = 1, connector: any FeedBackendConnector, preset: Preset,
        seed: UInt64, keepWrites: Bool = false, mix: WriteMix = .insertOnly, firstWriter: Int = 0,
        clock: LoadClock = .wall, until: Duration? = nil
    ) {
        self.firstWriter = firstWriter
        self.clock = clock
        self.until = clock.isVirtual ? until : nil
        self.keepWrites = keepWrites
        self.mix = mix
        precondition(count >= 1 && ratePerSecond > 0 && batch >= 1, "writers need a count, a rate and a batch")
        self.count = count
        self.ratePerSecond = ratePerSecond
        self.batch = batch
        self.connector = connector
        self.preset = preset
        self.seed = seed
        boxes = (0..<count).map { _ in MetricsBox() }
    }

    /// Starts the writer threads. A writer that cannot open its connection counts the error and ends.
    /// - Returns: `nil`, or why a writer thread could not be started; then the writers already
    ///   started are stopped again (``stop()`` waits only for threads that run).
    @discardableResult
    public func start() -> String? {
        if !mix.isInsertOnly {
            do {
                baselineMaxID.store(try connector.groundTruthReader(reuseUnchangedSpans: false).maxID(), ordering: .releasing)
            } catch {
                return "writers cannot read the largest item id: \(error)"
            }
        }
        let interval = Double(count * batch) / ratePerSecond
        clock.join(count)
        for writer in 0..<count {
            group.enter()
            // Writers run SQLite calls only: 1 MiB of stack is plenty and keeps 64 of them cheap.
            let code = ThreadLauncher.start(stackSize: 1 << 20) { [self] in
                defer { group.leave() }
                run(writer, interval: interval)
            }
            if code != 0 {
                for _ in writer..<count { clock.leave() }  // these never run
                group.leave()
                stop()
                return ThreadLauncher.StartFailure(role: "writer", index: writer, count: count, code: code).description
            }
        }
        return nil
    }

    private func run(_ writer: Int, interval: Double) {
        var paced = true
        func stopPacing() {
            if paced { clock.leave() }
            paced = false
        }
        defer { stopPacing() }
        let headWriter: HeadWriter
        do {
            var largestID: (() throws -> Int64)?
            if mix.delete > 0 {
                let reader = try connector.groundTruthReader(reuseUnchangedSpans: false)
                largestID = { try reader.maxID() }
            }
            headWriter = HeadWriter(
                backend: try connector.connectWriter(), preset: preset, seed: Self.writerSeed(base: seed, writer: firstWriter + writer),
                mix: mix, largestID: largestID, baselineMaxID: baselineMaxID.load(ordering: .acquiring),
                journal: keepWrites ? nil : journal)
        } catch {
            boxes[writer].metrics.withLock { $0.recordError(error) }
            return
        }
        // Stagger the writers evenly across one interval.
        var due = clock.now().advanced(by: .seconds(interval * Double(writer) / Double(count)))
        let end = until.map { clock.now().advanced(by: $0) }
        while !done.load(ordering: .acquiring) {
            if let end, due >= end {
                // The run is over on the virtual clock: wait (in real time) for stop().
                stopPacing()
                Thread.sleep(forTimeInterval: 0.001)
                continue
            }
            if clock.now() < due {
                clock.wait(until: due, cap: .milliseconds(10))
                continue
            }
            boxes[writer].metrics.withLock { _ = headWriter.writeBatch(batch, into: &$0) }
            due = due.advanced(by: .seconds(interval))
        }
        stopPacing()
        // Each writer removes its own rows before ``stop()`` returns (unless they are kept).
        guard !keepWrites else { return }
        do {
            removedCount.add(try headWriter.deleteOwnRows(), ordering: .relaxed)
        } catch {
            boxes[writer].metrics.withLock { $0.recordError(error) }
        }
    }

    /// Writer k's seed: the k-th output of a SplitMix64 seeded with `base`. Each writer's items and
    /// choices come from a stream started there, so no two writers share a stream (seeds `base + k·γ`
    /// would: SplitMix64 steps its state by γ, so writer k + 1 would replay writer k's draws one
    /// step later).
    public static func writerSeed(base: UInt64, writer: Int) -> UInt64 {
        var seeds = SplitMix64(seed: base)
        for _ in 0..<writer { _ = seeds.next() }
        return seeds.next()
    }

    /// Rows the writers deleted when they stopped (0 while running, or with ``keepWrites``).
    public var removed: Int { removedCount.load(ordering: .relaxed) }

    /// Pre-existing rows put back as they were when the writers stopped (updated or deleted ones).
    public var restored: Int { restoredCount.load(ordering: .relaxed) }

    /// Stops the writers and waits for them; then, unless ``keepWrites``, puts back the
    /// pre-existing rows they changed (a failure is counted as an error).
    public func stop() {
        guard !done.exchange(true, ordering: .acquiringAndReleasing) else {
            group.wait()
            return
        }
        group.wait()
        guard !keepWrites else { return }
        let originals = journal.originals
        guard !originals.isEmpty else { return }
        do {
            // Deleted ones come back with their ids; updated ones get their old text back.
            let backend = try connector.connectWriter()
            let ids = originals.compactMap(\.id)
            let present = Set(try backend.rows(ids: ids).rows.map(\.id))
            // The deleted rows first, and an update only when one is needed: a backend without
            // updates (an HTTP feed API, where `update` writers are refused) threw on the empty
            // update, and the deleted rows were never put back.
            let deleted = originals.filter { !present.contains($0.id!) }
            if !deleted.isEmpty { try backend.insert(deleted) }
            let updated = originals.filter { present.contains($0.id!) }.map {
                ItemRow(id: $0.id!, title: $0.title, author: $0.author, payload: $0.payload)
            }
            if !updated.isEmpty { try backend.update(updated) }
            restoredCount.add(originals.count, ordering: .relaxed)
        } catch {
            boxes[0].metrics.withLock { $0.recordError(error) }
        }
    }

    /// The writers' metrics so far, merged.
    public func metrics() -> LoadMetrics {
        var total = LoadMetrics()
        for box in boxes { box.metrics.withLock { total.merge($0) } }
        return total
    }
}
