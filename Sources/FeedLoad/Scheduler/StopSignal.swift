import Dispatch
import Foundation
import Synchronization

/// A flag that asks a running load to stop early; set from any thread or from a SIGINT or SIGTERM handler.
public final class StopSignal: Sendable {
    private let flag = Atomic<Bool>(false)
    /// The signal that set the flag (`SIGINT`, `SIGTERM`), 0 when none did.
    private let received = Atomic<Int32>(0)
    /// The signal sources, kept alive for the life of this signal.
    private let sources = Mutex<[SignalSourceHolder]>([])

    public init() {}

    /// Whether a stop was requested.
    public var isSet: Bool { flag.load(ordering: .acquiring) }

    /// The signal that asked for the stop (`SIGINT` or `SIGTERM`), `nil` when none did (``set()``
    /// from code, or no stop at all).
    public var signal: Int32? {
        let number = received.load(ordering: .acquiring)
        return number == 0 ? nil : number
    }

    /// Requests a stop.
    public func set() { flag.store(true, ordering: .releasing) }

    /// Makes SIGINT (Ctrl-C) and SIGTERM (what `kill`, systemd and Kubernetes send) set this flag
    /// instead of killing the process, as k6 does, so the run ends, cleans up and still prints its
    /// report. A second signal after the flag is set exits at once with status 128 + its number
    /// (130, 143), skipping that clean-up.
    public func installInterruptHandler() {
        for number in [SIGINT, SIGTERM] {
            Foundation.signal(number, SIG_IGN)  // the dispatch source sees the signal only when the default action is off
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in
                if isSet { exit(128 + number) }
                _ = received.compareExchange(expected: 0, desired: number, ordering: .acquiringAndReleasing)
                set()
            }
            source.resume()
            sources.withLock { $0.append(SignalSourceHolder(source: source)) }
        }
    }
}

/// Holds a signal source; it is only resumed once and never touched again, so sharing it is safe.
private final class SignalSourceHolder: @unchecked Sendable {  // immutable after resume
    let source: any DispatchSourceSignal
    init(source: any DispatchSourceSignal) { self.source = source }
}
