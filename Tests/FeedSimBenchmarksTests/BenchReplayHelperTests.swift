import FeedEngine
import FeedModel
import Foundation
import Testing

@testable import FeedSimBenchmarks

@testable import FeedReplay

@Suite struct BenchReplayHelperTests {
    /// 100 items, id k published at k seconds: item 100 is the newest, feed order 100, 99, ..., 1.
    static func hundredItems() -> [Item] {
        (1...100).map { Item(id: Int64($0), publishedAt: Int64($0) * 1000, kind: "photo", width: 100, height: 100) }
    }

    static func request(_ query: FeedController.PageQuery, limit: Int, id: Int = 1) -> FeedController.FetchRequest {
        let direction: LoadDirection
        let kind: FeedController.LoadKind
        switch query {
        case .newest: (direction, kind) = (.top, .initial)
        case .after: (direction, kind) = (.bottom, .more)
        case .before: (direction, kind) = (.top, .prepend)
        }
        return FeedController.FetchRequest(
            id: id, direction: direction, kind: kind, query: query, limit: limit, generation: 0, attempt: 1)
    }

    static func cursor(_ id: Int64) -> Cursor { Cursor(publishedAt: id * 1000, id: id) }

    @Test func statusParserReadsResidentSetAndPeakInKilobytes() {
        let text = """
            Name:\tfeedsim
            VmPeak:\t  300000 kB
            VmHWM:\t   41234 kB
            VmRSS:\t   39876 kB
            Threads:\t1
            """
        #expect(ProcessMemory.parseStatus(text) == ProcessMemory.Status(rssKiB: 39876, peakKiB: 41234))
    }

    @Test func statusParserRejectsMissingOrMalformedLines() {
        #expect(ProcessMemory.parseStatus("VmRSS:\t 100 kB\n") == nil)  // no VmHWM
        #expect(ProcessMemory.parseStatus("VmRSS:\t 100 kB\nVmHWM:\t abc kB\n") == nil)
        #expect(ProcessMemory.parseStatus("VmRSS:\t 100 MB\nVmHWM:\t 200 kB\n") == nil)  // unit is not kB
    }

    @Test func thisProcessHasAResidentSetNoLargerThanItsPeak() throws {
        let status = try #require(ProcessMemory.status(), "/proc/self/status is readable on Linux")
        #expect(status.rssKiB > 0)
        #expect(status.rssKiB <= status.peakKiB)
    }

    @Test func depthCountsEachItemOnceFromTheHead() throws {
        let backend = RecordingBackend(wrapping: MemoryBackend(items: Self.hundredItems()), keepsLog: true)
        // Init: items 100...91 → depth 10.
        _ = try backend.page(Self.request(.newest, limit: 10))
        #expect(backend.depthItems == 10)
        // More after item 91: items 90...81 → depth 20.
        _ = try backend.page(Self.request(.after(Self.cursor(91)), limit: 10))
        #expect(backend.depthItems == 20)
        // The same page again (a reload after a drop) and a page overlapping it (after 86: 85...76,
        // of which 80...76 are new): 20 + 5 = 25.
        _ = try backend.page(Self.request(.after(Self.cursor(91)), limit: 10))
        _ = try backend.page(Self.request(.after(Self.cursor(86)), limit: 10))
        #expect(backend.depthItems == 25)
        // A prepend (newer items) adds nothing.
        _ = try backend.page(Self.request(.before(Self.cursor(90)), limit: 5))
        #expect(backend.depthItems == 25)
        #expect(backend.deepestCursor == Self.cursor(76))
        #expect(backend.pageCalls == 5)
        #expect(backend.log.count == 5)
    }

    @Test func withoutALogNothingIsKeptButCallsAreCounted() throws {
        let backend = RecordingBackend(wrapping: MemoryBackend(items: Self.hundredItems()), keepsLog: false)
        _ = try backend.page(Self.request(.newest, limit: 10))
        _ = try backend.rows(ids: [100, 99])
        #expect(backend.log.isEmpty)
        #expect(backend.pageCalls == 1)
        #expect(backend.rowCalls == 1)
        #expect(backend.rowIDs == 2)
    }

    @Test func storeCallsReplayedAloneDoTheSameReads() throws {
        let recorder = RecordingBackend(wrapping: MemoryBackend(items: Self.hundredItems()), keepsLog: true)
        _ = try recorder.page(Self.request(.newest, limit: 10))  // 10 stubs
        _ = try recorder.rows(ids: [100, 99, 98, 5000])  // 3 rows, 5000 is missing
        _ = try recorder.groundTruth(after: Self.cursor(91), limit: 5)  // 90...86: 5 stubs
        try recorder.insertAtHead(count: 2, at: 10)
        let fresh = MemoryBackend(items: Self.hundredItems())
        let work = try ReplayBenchmark.replayCalls(recorder.log, on: fresh)
        #expect(work.pageQueries == 1)
        #expect(work.rowBatches == 1)
        #expect(work.groundTruthQueries == 1)
        #expect(work.itemsRead == 10 + 3 + 5)
        #expect(work.insertsSkipped == 1)
        #expect(fresh.items.count == 100)  // the baseline never writes
        #expect(fresh.pageCalls == 1 && fresh.rowCalls == 1)
    }

    /// A backend whose row calls take at least 20 ms (a sleep) and whose other calls return at once.
    final class SlowRowsBackend: ReplayBackend {
        let inner = MemoryBackend(items: BenchReplayHelperTests.hundredItems())
        func page(_ request: FeedController.FetchRequest) throws -> Page { try inner.page(request) }
        func rows(ids: [Int64]) throws -> RowBatch {
            usleep(20_000)
            return try inner.rows(ids: ids)
        }
        func insertAtHead(count: Int, at t: Double) throws { try inner.insertAtHead(count: count, at: t) }
        func groundTruth(after cursor: Cursor, limit: Int) throws -> [Item] {
            try inner.groundTruth(after: cursor, limit: limit)
        }
    }

    @Test func timedCallsAddUpTheInnerBackendsTimeAndUntimedOnesNothing() throws {
        let timed = RecordingBackend(wrapping: SlowRowsBackend(), keepsLog: false, timesCalls: true)
        _ = try timed.page(Self.request(.newest, limit: 10))
        _ = try timed.rows(ids: [100, 99])
        _ = try timed.rows(ids: [98])
        // Two sleeps of 20 ms each inside the row calls: at least 40 ms (a sleep never ends early).
        #expect(timed.callNanoseconds >= 40_000_000)
        let untimed = RecordingBackend(wrapping: SlowRowsBackend(), keepsLog: false)
        _ = try untimed.rows(ids: [100])
        #expect(untimed.callNanoseconds == 0)
        #expect(untimed.rowCalls == 1)
    }

    static func probe(depth: Int, peakGrowth: Int, endGrowth: Int, dropping: Bool, duration: Double)
        -> ReplayBenchmark.MemoryProbe
    {
        ReplayBenchmark.MemoryProbe(
            memoryCase: .init(
                durationS: duration, maxLoadedItems: dropping ? 600 : nil, smallFeed: false, feedItems: 1000),
            frames: 1, depthItems: depth, finalLoadedItems: min(depth, 600), rssBeforeKiB: 20_000,
            peakKiB: 20_000 + peakGrowth, peakGrowthKiB: peakGrowth, retainedGrowthKiB: endGrowth, peakWasReset: true)
    }

    @Test func comparisonIsFlatUpToOneMebibyteOfExtraGrowth() {
        let shallow = Self.probe(depth: 240, peakGrowth: 700, endGrowth: 600, dropping: true, duration: 60)
        let within = Self.probe(
            depth: 2400, peakGrowth: 700 + 1024, endGrowth: 600 + 1000, dropping: true, duration: 600)
        let beyond = Self.probe(depth: 2400, peakGrowth: 700 + 1025, endGrowth: 600, dropping: true, duration: 600)
        let flat = ReplayBenchmark.MemoryComparison(name: "a", dropping: true, smaller: shallow, larger: within)
        #expect(flat.flat)
        #expect(flat.depthRatio == 10)  // 2400 / 240
        #expect(flat.extraPeakKiB == 1024 && flat.extraRetainedKiB == 1000)
        #expect(!ReplayBenchmark.MemoryComparison(name: "b", dropping: true, smaller: shallow, larger: beyond).flat)
    }

    @Test func standardCasesPairShallowDeepAndSmallFeedPerDroppingSetting() {
        var configuration = ReplayBenchmark.Configuration(items: 10_000, durationS: 100, maxLoadedItems: 600)
        configuration.seed = 3
        let cases = ReplayBenchmark.MemoryCase.standard(configuration)
        #expect(cases.map(\.durationS) == [10, 100, 100, 10, 100, 100])
        #expect(cases.map(\.maxLoadedItems) == [600, 600, 600, nil, nil, nil])
        #expect(cases.map(\.feedItems) == [10_000, 10_000, 1000, 10_000, 10_000, 1000])
        #expect(cases.map(\.name).first == "drop at 600, 10 s, 10000 items")
    }
}
