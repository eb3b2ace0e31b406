import FeedLoad
import Foundation
import Synchronization
import Testing

/// The virtual clock moves only when every participant waits, to the earliest wake-up.
@Suite struct LoadClockTests {
    @Test func virtualTimeJumpsToTheEarliestWakeUpOnceEveryParticipantWaits() {
        let clock = LoadClock.virtual()
        let start = clock.now()
        clock.join(2)
        let woken = Mutex<[(String, Duration)]>([])
        let group = DispatchGroup()
        for (name, wakes) in [("a", [10, 30]), ("b", [5, 12, 40])] {
            group.enter()
            Thread.detachNewThread {
                for wake in wakes {
                    clock.wait(until: start.advanced(by: .milliseconds(wake)), cap: .seconds(1))
                    let now = clock.elapsed()
                    woken.withLock { $0.append((name, now)) }
                }
                clock.leave()
                group.leave()
            }
        }
        // Paused until resumed: nothing moves although both threads wait.
        Thread.sleep(forTimeInterval: 0.05)
        #expect(clock.elapsed() == .zero && clock.now() == start)
        #expect(woken.withLock { $0.isEmpty })
        clock.resume()
        #expect(group.wait(timeout: .now() + 10) == .success)
        // By hand: b wakes at 5, a at 10, b at 12, a at 30; then a has left and b alone moves to 40.
        let order = woken.withLock { $0 }
        #expect(order.map(\.0) == ["b", "a", "b", "a", "b"])
        #expect(order.map(\.1) == [5, 10, 12, 30, 40].map { Duration.milliseconds($0) })
    }

    @Test func aWaitIsCutAtItsCap() {
        let clock = LoadClock.virtual()
        let start = clock.now()
        clock.join()
        clock.resume()
        clock.wait(until: start.advanced(by: .seconds(5)), cap: .milliseconds(3))
        #expect(clock.elapsed() == .milliseconds(3))
        clock.wait(until: start.advanced(by: .milliseconds(2)), cap: .seconds(1))  // already past: returns at once
        #expect(clock.now() == start.advanced(by: .milliseconds(3)))
        clock.leave()
    }
}
