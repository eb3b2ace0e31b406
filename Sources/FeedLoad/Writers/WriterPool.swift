import FeedStore
import Foundation
import Synchronization

/// `count` writer threads inserting at the head of a feed at `ratePerSecond` items per second in
/// total, each on its own connection, until stopped. Writer k inserts one batch every
/// `count × batch / ratePerSecond` seconds on a fixed schedule (a late batch does not move later
/// ones), so the rate holds whatever the lock waits.
public final class WriterPool: Sendable {
    public let count: Int
    public let ratePerSecond: Double
    public let batch: Int
    private let path: String
    private let feed: FeedID
    private let preset: Preset
    private let seed: UInt64
    private let boxes: [MetricsBox]
    private let group = DispatchGroup()
    private let done = Atomic<Bool>(false)

    /// - Precondition: `count` ≥ 1, `ratePerSecond` > 0, `batch` ≥ 1.
    public init(
        count: Int, ratePerSecond: Double, batch: Int = 1, path: String, feed: FeedID, preset: Preset, seed: UInt64
    ) {
        precondition(count >= 1 && ratePerSecond > 0 && batch >= 1, "writers need a count, a rate and a batch")
        self.count = count
        self.ratePerSecond = ratePerSecond
        self.batch = batch
        self.path = path
        self.feed = feed
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
            headWriter = try HeadWriter(path: path, feed: feed, preset: preset, seed: writerSeed)
        } catch {
            boxes[writer].metrics.withLock { $0.recordError(error) }
            return
        }
        // Stagger the writers evenly across one interval.
        var due = clock.now.advanced(by: .seconds(interval * Double(writer) / Double(count)))
        while !done.load(ordering: .acquiring) {
            let wait = clock.now.duration(to: due)
            if wait > .zero {
                Thread.sleep(forTimeInterval: min(wait.seconds, 0.01))
                continue
            }
            _ = boxes[writer].metrics.withLock { headWriter.insertBatch(batch, into: &$0) }
            due = due.advanced(by: .seconds(interval))
        }
    }

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
