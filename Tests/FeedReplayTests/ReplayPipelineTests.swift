import FeedEngine
import FeedLayout
import FeedModel
import FeedResources
import FeedSimTestSupport
import FeedStore
import Foundation
import Synchronization
import Testing

@testable import FeedReplay

/// A pipelined backend (the calls on a thread of their own, overlapping the simulation) must not
/// change a byte of a replay's outputs: each case is replayed with and without it and compared.
@Suite struct ReplayPipelineTests {
    static func items(_ count: Int) -> [Item] {
        (1...count).map { (n: Int) -> Item in
            let height = Double(80 + (n * 37) % 120)
            let kind = n % 3 == 0 ? "video" : "photo"
            return Item(id: Int64(n), publishedAt: 1_000_000 + Int64(n) * 10, kind: kind, width: 100, height: height)
        }
    }

    /// Replays `trace` on `backend` (wrapped in a pipeline with `pipelined`): the JSON report and the timeline.
    static func replay(
        _ trace: Trace, backend: any ReplayBackend, pipelined: Bool, layout: LayoutConfiguration,
        options: ReplayOptions
    ) throws -> (json: Data, timeline: String, violations: [ReplayReport.Violation]) {
        let pipeline = pipelined ? try #require(PipelinedBackend(backend)) : nil
        defer { pipeline?.close() }
        let session = try ReplaySession(
            trace: trace, layout: try layout.makeLayout(), layoutDescription: layout.summary,
            backend: pipeline ?? backend, options: options, axis: layout.scrollAxis)
        let result = try session.run()
        return (try result.report.jsonData(), result.timelineCSV ?? "", result.report.violations)
    }

    static func options(latency: LatencyModel, faults: String = "none", maxLoaded: Int? = nil) throws -> ReplayOptions {
        ReplayOptions(
            controller: FeedController.Configuration(pageSize: 24, maxLoadedItems: maxLoaded), latency: latency,
            faults: try FaultModel.parse(faults), seed: 11, keepTimeline: true)
    }

    static let cases: [(SynthModel, String, LatencyModel, String, Int?)] = [
        (.flinger, "grid", .logNormal(median: 120, sigma: 0.5), "none", 240),
        (.skimmer, "waterfall", .fixed(ms: 0), "none", nil),
        (.refresher, "list", .fixed(ms: 40), "error=0.2,timeout=0.05,timeout-ms=1500", nil),
        (.reader, "mosaic", .uniform(min: 0, max: 300), "error=0.1", 120),
    ]

    @Test(arguments: 0..<4)
    func aSyntheticSessionGivesTheSameReportAndTimelinePipelined(index: Int) throws {
        let (model, layoutName, latency, faults, maxLoaded) = Self.cases[index]
        let trace = TraceSynthesizer(model: model, duration: 30, seed: UInt64(3 + index)).generate()
        let layout = try LayoutConfiguration(kind: try #require(LayoutKind(rawValue: layoutName)), columns: 2)
        let options = try Self.options(latency: latency, faults: faults, maxLoaded: maxLoaded)
        // Fresh backends: the refresher's insert events write to them.
        let direct = try Self.replay(
            trace, backend: MemoryBackend(items: Self.items(900)), pipelined: false, layout: layout, options: options)
        let pipelined = try Self.replay(
            trace, backend: MemoryBackend(items: Self.items(900)), pipelined: true, layout: layout, options: options)
        #expect(direct.json == pipelined.json)
        #expect(direct.timeline == pipelined.timeline)
    }

    @Test func theRefresherTraceWritesAndItsInsertsAreSeenInOrder() throws {
        // The refresher pulls to refresh after upstream inserts: a Refresh page must see exactly
        // the inserts issued before it, through the pipeline as without it.
        let trace = TraceSynthesizer(model: .refresher, duration: 60, seed: 8).generate()
        #expect(trace.events.contains { if case .insert = $0.kind { true } else { false } })
        let layout = LayoutConfiguration(kind: .grid, columns: 3)
        let options = try Self.options(latency: .fixed(ms: 0))
        let direct = try Self.replay(
            trace, backend: MemoryBackend(items: Self.items(600)), pipelined: false, layout: layout, options: options)
        let pipelined = try Self.replay(
            trace, backend: MemoryBackend(items: Self.items(600)), pipelined: true, layout: layout, options: options)
        #expect(direct.json == pipelined.json)
        let report = try JSONSerialization.jsonObject(with: pipelined.json) as? [String: Any]
        let pages = report?["pages"] as? [String: Any]
        #expect((pages?["refresh"] as? Int ?? 0) > 0)
    }

    /// Every `after` page skips its first item (a gap) and gives its next one the id of the feed's
    /// newest item, loaded already: each page gives a `duplicate_id`, found at once, and a `gap`,
    /// found by the ground-truth read the pipeline makes later; the list must keep their order. The
    /// read is slow, so that the next page's `duplicate_id` is found before the last page's `gap` is
    /// in: appended when it comes in, the `gap` would follow it.
    final class BrokenPagesBackend: ReplayBackend {
        let inner = MemoryBackend(items: ReplayPipelineTests.items(400))
        func page(_ request: FeedController.FetchRequest) throws -> Page {
            let page = try inner.page(request)
            guard case .after = request.query, page.items.count > 2 else { return page }
            var items = Array(page.items.dropFirst())
            let renamed = items[0]
            items[0] = Item(id: 400, publishedAt: renamed.publishedAt, kind: renamed.kind, width: renamed.width, height: renamed.height)
            return Page(items: items, hasMoreBefore: page.hasMoreBefore, hasMoreAfter: page.hasMoreAfter)
        }
        func rows(ids: [Int64]) throws -> RowBatch { try inner.rows(ids: ids) }
        func insertAtHead(count: Int, at t: Double) throws { try inner.insertAtHead(count: count, at: t) }
        func groundTruth(after cursor: Cursor, limit: Int) throws -> [Item] {
            usleep(3000)
            return try inner.groundTruth(after: cursor, limit: limit)
        }
    }

    @Test func gapsFoundLaterTakeTheirPlaceAmongTheOtherViolations() throws {
        let trace = TraceSynthesizer(model: .flinger, duration: 5, seed: 2).generate()
        let layout = LayoutConfiguration(kind: .grid, columns: 3)
        // More fires again as soon as each page is applied (the end is always within reach): the
        // next page comes in the next frame, while the last page's ground truth is still being read.
        let options = ReplayOptions(
            controller: FeedController.Configuration(pageSize: 24, prefetchDistance: .items(1000)),
            latency: .fixed(ms: 0), seed: 11, keepTimeline: true)
        let direct = try Self.replay(trace, backend: BrokenPagesBackend(), pipelined: false, layout: layout, options: options)
        let pipelined = try Self.replay(trace, backend: BrokenPagesBackend(), pipelined: true, layout: layout, options: options)
        let kinds = Set(direct.violations.map(\.kind))
        #expect(kinds.isSuperset(of: ["gap", "duplicate_id"]), "\(kinds)")
        #expect(direct.violations.count >= 6)
        #expect(direct.violations == pipelined.violations)
        #expect(direct.json == pipelined.json)
    }

    /// A store whose every call fails permanently from the `failingFrom`-th on.
    final class CorruptingBackend: ReplayBackend {
        struct Corrupt: PermanentBackendFailure, CustomStringConvertible {
            var call: Int
            var isPermanent: Bool { true }
            var description: String { "database disk image is malformed (call \(call))" }
        }
        let inner = MemoryBackend(items: ReplayPipelineTests.items(400))
        let failingFrom: Int
        /// How long a failing call takes, microseconds.
        let failureMicroseconds: UInt32
        var calls = 0
        init(failingFrom: Int, failureMicroseconds: UInt32 = 0) {
            self.failingFrom = failingFrom
            self.failureMicroseconds = failureMicroseconds
        }
        func check() throws {
            calls += 1
            if calls >= failingFrom {
                usleep(failureMicroseconds)
                throw Corrupt(call: calls)
            }
        }
        func page(_ request: FeedController.FetchRequest) throws -> Page {
            try check()
            return try inner.page(request)
        }
        func rows(ids: [Int64]) throws -> RowBatch {
            try check()
            return try inner.rows(ids: ids)
        }
        func insertAtHead(count: Int, at t: Double) throws { try inner.insertAtHead(count: count, at: t) }
        func groundTruth(after cursor: Cursor, limit: Int) throws -> [Item] {
            try check()
            return try inner.groundTruth(after: cursor, limit: limit)
        }
    }

    @Test(arguments: [1, 5, 40])
    func aPermanentFailureEndsTheReplayWithTheFirstFailingCall(failingFrom: Int) throws {
        let trace = TraceSynthesizer(model: .flinger, duration: 20, seed: 2).generate()
        let layout = LayoutConfiguration(kind: .grid, columns: 3)
        let options = try Self.options(latency: .logNormal(median: 120, sigma: 0.8))
        func message(pipelined: Bool) -> String {
            do {
                _ = try Self.replay(
                    trace, backend: CorruptingBackend(failingFrom: failingFrom), pipelined: pipelined, layout: layout,
                    options: options)
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        let direct = message(pipelined: false)
        // The calls run in issue order on the pipeline's thread: the first that fails is the same call.
        #expect(direct == "database disk image is malformed (call \(failingFrom))")
        #expect(message(pipelined: true) == direct)
    }

    @Test func aPermanentFailureOfACallStillInFlightAtTheEndEndsTheReplay() throws {
        // Answers due long after the trace and its settling end: Init's page, the only call, is
        // never waited for, and takes 50 ms to fail, longer than the whole replay: its failure is
        // found only by the drain at the last frame.
        let failingFrom = 1
        let trace = TraceSynthesizer(model: .reader, duration: 2, seed: 1).generate()
        let layout = LayoutConfiguration(kind: .grid, columns: 3)
        let options = try Self.options(latency: .fixed(ms: 100_000))
        for pipelined in [false, true] {
            #expect(throws: CorruptingBackend.Corrupt.self, "pipelined: \(pipelined)") {
                _ = try Self.replay(
                    trace, backend: CorruptingBackend(failingFrom: failingFrom, failureMicroseconds: 50_000),
                    pipelined: pipelined, layout: layout, options: options)
            }
        }
    }

    @Test func closingDropsTheCallsNotStartedAndLaterCallsRunOnTheCaller() throws {
        let backend = ThreadRecordingBackend()
        let pipeline = try #require(PipelinedBackend(backend))
        let answers = (1...50).map { n in pipeline.startRows(ids: [Int64(n)]) }
        pipeline.close()
        // Each call takes 200 µs: most were still queued when it closed. Those started finished.
        let ran = backend.log.withLock { $0.count }
        #expect(ran < 50)
        for (index, answer) in answers.enumerated() {
            if index < ran {
                #expect(try answer.wait().get().rows.map(\.id) == [Int64(index + 1)])
            } else {
                #expect(throws: PipelinedBackend.Closed.self) { try answer.wait().get() }
            }
        }
        // After closing, a call runs at once on the caller's thread.
        let late = pipeline.startRows(ids: [7])
        #expect(late.isDone)
        #expect(try late.wait().get().rows.map(\.id) == [7])
        #expect(backend.log.withLock { pthread_equal($0.last!.thread, pthread_self()) != 0 })
    }

    /// Records which thread ran each call, in the order they ran, and how many ran at once.
    final class ThreadRecordingBackend: ReplayBackend, @unchecked Sendable {
        let inner = MemoryBackend(items: ReplayPipelineTests.items(100))
        let log = Mutex<[(call: String, thread: pthread_t)]>([])
        let inFlight = Atomic<Int>(0)
        let mostAtOnce = Atomic<Int>(0)
        func note(_ call: String) {
            let now = inFlight.add(1, ordering: .sequentiallyConsistent).newValue
            _ = mostAtOnce.max(now, ordering: .sequentiallyConsistent)
            log.withLock { $0.append((call, pthread_self())) }
            usleep(200)  // slower than the caller: calls queue up behind it
            inFlight.subtract(1, ordering: .sequentiallyConsistent)
        }
        func page(_ request: FeedController.FetchRequest) throws -> Page {
            note("page \(request.id)")
            return try inner.page(request)
        }
        func rows(ids: [Int64]) throws -> RowBatch {
            note("rows \(ids)")
            return try inner.rows(ids: ids)
        }
        func insertAtHead(count: Int, at t: Double) throws {
            note("insert \(count)")
            try inner.insertAtHead(count: count, at: t)
        }
        func groundTruth(after cursor: Cursor, limit: Int) throws -> [Item] {
            note("truth \(limit)")
            return try inner.groundTruth(after: cursor, limit: limit)
        }
    }

    static let firstRequest = FeedController.FetchRequest(
        id: 1, direction: .bottom, kind: .initial, query: .newest, limit: 5, generation: 0, attempt: 1)

    @Test func callsRunOneAtATimeInIssueOrderAndDrainWaitsForThem() throws {
        let backend = ThreadRecordingBackend()
        let pipeline = try #require(PipelinedBackend(backend))
        let first = pipeline.startPage(Self.firstRequest)
        let rows = pipeline.startRows(ids: [3, 4])
        // An insert waits for the page and rows before it, and the page after it sees the new item.
        try pipeline.insertAtHead(count: 1, at: 10)
        #expect(first.isDone && rows.isDone)
        var second = Self.firstRequest
        second.id = 2
        let after = pipeline.startPage(second)
        let truth = pipeline.startGroundTruthCursors(after: Cursor(publishedAt: 1_000_500, id: 50), limit: 3)
        pipeline.drain()
        #expect(after.isDone && truth.isDone)
        pipeline.close()
        #expect(try first.wait().get().items.map(\.id) == [100, 99, 98, 97, 96])
        #expect(try after.wait().get().items.map(\.id) == [101, 100, 99, 98, 97])
        #expect(try rows.wait().get().rows.map(\.id) == [3, 4])
        #expect(try truth.wait().get().map(\.id) == [49, 48, 47])
        #expect(backend.log.withLock { $0.map(\.call) } == ["page 1", "rows [3, 4]", "insert 1", "page 2", "truth 3"])
        // The caller may have run some of them itself while it waited: never two at once.
        #expect(backend.mostAtOnce.load(ordering: .sequentiallyConsistent) == 1)
        // Closed twice: nothing left to run.
        pipeline.close()
    }

    @Test func aCallerThatDoesNotWaitHasItsCallsRunOnThePipelinesThread() throws {
        let backend = ThreadRecordingBackend()
        let pipeline = try #require(PipelinedBackend(backend))
        defer { pipeline.close() }
        let answers = (1...5).map { n in pipeline.startRows(ids: [Int64(n)]) }
        // Not waiting (which could run them here): polling until the pipeline's thread has.
        var polls = 0
        while !answers.allSatisfy({ $0.isDone }), polls < 50_000 {
            usleep(100)
            polls += 1
        }
        #expect(answers.allSatisfy { $0.isDone })
        let threads = backend.log.withLock { $0.map(\.thread) }
        #expect(threads.count == 5)
        #expect(!threads.contains { pthread_equal($0, pthread_self()) != 0 })
    }

    @Test func theProcessorsAllowedComeFromTheAffinityMaskAndTheCgroupQuota() {
        let status = "Name:\tfeedsim\nCpus_allowed:\tff,00000003\nCpus_allowed_list:\t0-1,32-39\n"
        // 8 + 2 set bits; 16 online.
        #expect(PipelinedBackend.usableProcessors(online: 16, status: status, cpuMax: nil) == 10)
        // taskset -c 0: one processor, no pipeline.
        #expect(PipelinedBackend.usableProcessors(online: 16, status: "Cpus_allowed:\t1\n", cpuMax: "max 100000\n") == 1)
        // docker --cpus=1.5: 150,000 µs per 100,000 µs.
        #expect(PipelinedBackend.usableProcessors(online: 16, status: status, cpuMax: "150000 100000\n") == 1.5)
        // Nothing to read: the processors online.
        #expect(PipelinedBackend.usableProcessors(online: 2, status: nil, cpuMax: nil) == 2)
    }

    @Test func aShippedTraceOverASQLiteFileGivesTheSameReportPipelined() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pipeline-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try ItemStore(path: directory.appendingPathComponent("feed.sqlite").path)
        var generator = ItemGenerator(preset: try Preset.named("photos"), seed: 4)
        try Seeder.seed(store, feedNamed: "home", generator: &generator, count: 5_000)
        let traces = try FileManager.default.contentsOfDirectory(atPath: RealData.packageFile("Seeds/traces").path)
            .filter { $0.hasSuffix(".jsonl") }.sorted()
        #expect(traces.count >= 7)
        var options = try Self.options(latency: .logNormal(median: 120, sigma: 0.5))
        options.keepTimeline = false
        for name in traces {
            let trace = try Trace.read(contentsOf: RealData.packageFile("Seeds/traces/\(name)").path)
            func run(_ pipelined: Bool) throws -> Data {
                try ReplaySession.run(
                    trace: trace, backend: try store.pages(feed: try store.requireFeed(named: "home")),
                    layout: LayoutConfiguration(kind: .grid, columns: 3), options: options,
                    insertPreset: try Preset.named("mixed"), pipelined: pipelined
                ).report.jsonData()
            }
            #expect(try run(false) == run(true), "\(name)")
        }
    }
}
