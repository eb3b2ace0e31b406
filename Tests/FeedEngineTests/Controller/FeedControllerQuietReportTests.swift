import FeedLayout
import FeedModel
import Testing

@testable import FeedEngine

/// The quiet path of ``FeedController/viewportChanged(_:now:)`` (a report that fires nothing keeps
/// the viewport aside instead of running the full report) against the full report on every call:
/// the same random event sequences (fixed seeds), with many small scrolls between them, give the
/// same actions, list, phase, status and counters after every event.
@Suite struct FeedControllerQuietReportTests {
    typealias Driver = FeedControllerPropertyTests.Driver

    /// One event for both drivers: a small scroll (what most frames report), or one of the property
    /// tests' random events.
    static func step(_ driver: inout Driver, _ rng: inout SplitMix64) throws {
        if rng.nextUnit() < 0.6 {
            let maxOffset = max(0, driver.layout.contentSize.height - driver.viewportSize.height)
            driver.offset = min(maxOffset + 30, max(-30, driver.offset + rng.nextUnit() * 240 - 120))
            driver.now += 16
            let generation = driver.controller.generation
            try driver.perform(
                driver.controller.viewportChanged(driver.currentViewport(), now: driver.now), generationBefore: generation)
        } else {
            try driver.step(&rng)
        }
    }

    @Test(arguments: 0..<4, [UInt64(5), 19])
    func quietReportsGiveWhatFullReportsGiveOnRandomSequences(configurationIndex: Int, seed: UInt64) throws {
        let (_, configuration) = FeedControllerPropertyTests.configurations[configurationIndex]
        var fast = try Driver(configuration: configuration, feedSize: 400)
        var full = try Driver(configuration: configuration, feedSize: 400)
        full.controller.usesQuietReports = false
        var fastRNG = SplitMix64(seed: seed &+ UInt64(configurationIndex) &* 977)
        var fullRNG = fastRNG
        try fast.perform(fast.controller.start(now: 0), generationBefore: 0)
        try full.perform(full.controller.start(now: 0), generationBefore: 0)
        for event in 0..<1500 {
            try Self.step(&fast, &fastRNG)
            try Self.step(&full, &fullRNG)
            #expect(fast.actionLog == full.actionLog, "actions differ after event \(event)")
            #expect(fast.controller.items == full.controller.items, "lists differ after event \(event)")
            #expect(fast.controller.phase == full.controller.phase, "phases differ after event \(event)")
            #expect(fast.controller.status == full.controller.status, "status differs after event \(event)")
            #expect(fast.controller.counters == full.controller.counters, "counters differ after event \(event)")
            #expect(fast.controller.directionalLoadStates == full.controller.directionalLoadStates)
            if fast.actionLog != full.actionLog { break }
        }
        // Both paths were exercised: most small scrolls are quiet, and the full path still fires loads.
        #expect(fast.controller.quietReportsTaken > 200)
        #expect(full.controller.quietReportsTaken == 0)
        #expect(fast.controller.counters.morePages > 3)
    }
}
