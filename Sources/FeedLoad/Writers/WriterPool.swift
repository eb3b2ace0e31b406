import FeedModel
import Foundation
import Synchronization
import FeedResources

/// `count` writer threads inserting at the head of a feed at `ratePerSecond` items per second in
/// total, each on its own connection, until stopped. Writer k inserts one batch every
/// `count × batch / ratePerSecond` seconds on a fixed schedule (a late batch does not move later
/// ones), so the rate holds whatever the lock waits.
public final class WriterPool: Sendable {
    public let count: Int
    public let ratePerSecond: Double
    public let batch: Int
    private let connector: any FeedBackendConnector
    private let preset: Preset
    private let seed: UInt64
    private let boxes: [MetricsBox]
    private let group = DispatchGroup()
    private let done = Atomic<Bool>(false)
    /// Whether the writers leave their rows in the database when they stop.
    public let keepWrites: Bool
    private let removedCount = Atomic<Int>(0)

    /// - Precondition: `count` ≥ 1, `ratePerSecond` > 0, `batch` ≥ 1.
    public init(
        count: Int, ratePerSecond: Double, batch: Int = 1, connector: any FeedBackendConnector, preset: Preset,
        seed: UInt64, keepWrites: Bool = false
    ) {
        self.keepWrites = keepWrites
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
        let interval = Double(count * batch) / ratePerSecond
        for writer in 0..<count {
            group.enter()
            // Writers run SQLite calls only: 1 MiB of stack is plenty and keeps 64 of them cheap.
            let code = ThreadLauncher.start(stackSize: 1 << 20) { [self] in
                defer { group.leave() }
                run(writer, interval: interval)
            }
            if code != 0 {
                group.leave()
                stop()
                return ThreadLauncher.StartFailure(role: "writer", index: writer, count: count, code: code).description
            }
        }
        return nil
    }

    private func run(_ writer: Int, interval: Double) {
        let clock = ContinuousClock()
        let writerSeed = seed &+ UInt64(writer + 1) &* 0x9E37_79B9_7F4A_7C15
        let headWriter: HeadWriter
        do {
            headWriter = HeadWriter(backend: try connector.connectWriter(), preset: preset, seed: writerSeed)
        } catch {
            boxes[writer].metrics.withLock { $0.recordError(error) }
            return
        }
        var written: [Int64] = []
        // Stagger the writers evenly across one interval.
        var due = clock.now.advanced(by: .seconds(interval * Double(writer) / Double(count)))
        while !done.load(ordering: .acquiring) {
            let wait = clock.now.duration(to: due)
            if wait > .zero {
                Thread.sleep(forTimeInterval: min(wait.seconds, 0.01))
                continue
            }
            let ids = boxes[writer].metrics.withLock { headWriter.insertBatch(batch, into: &$0) }
            if !keepWrites { written.append(contentsOf: ids) }
            due = due.advanced(by: .seconds(interval))
        }
        // Each writer removes its own rows before ``stop()`` returns (unless they are kept).
        guard !keepWrites else { return }
        do {
            removedCount.add(try headWriter.delete(ids: written), ordering: .relaxed)
        } catch {
            boxes[writer].metrics.withLock { $0.recordError(error) }
        }
    }

    /// Rows the writers deleted when they stopped (0 while running, or with ``keepWrites``).
    public var removed: Int { removedCount.load(ordering: .relaxed) }

    /// Stops the writers and waits for them.
    public func stop() {
        done.store(true, ordering: .releasing)
        group.wait()
    }

    /// The writers' metrics so far, merged.
    public func metrics() -> LoadMetrics {
        var total = LoadMetrics()
        for box in boxes { box.metrics.withLock { total.merge($0) } }
        return total
    }
}
