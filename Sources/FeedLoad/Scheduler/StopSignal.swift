import Dispatch
import Foundation
import Synchronization

/// A flag that asks a running load to stop early; set from any thread or from a SIGINT handler.
public final class StopSignal: Sendable {
    private let flag = Atomic<Bool>(false)
    /// The SIGINT source, kept alive for the life of this signal.
    private let sources = Mutex<[SignalSourceHolder]>([])

    public init() {}

    /// Whether a stop was requested.
    public var isSet: Bool { flag.load(ordering: .acquiring) }

    /// Requests a stop.
    public func set() { flag.store(true, ordering: .releasing) }

    /// Makes SIGINT (Ctrl-C) set this flag instead of killing the process, so the run ends and
    /// still prints its report. A second SIGINT after the flag is set exits with status 130.
    public func installInterruptHandler() {
        signal(SIGINT, SIG_IGN)  // the dispatch source sees the signal only when the default action is off
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler { [self] in
            if isSet { exit(130) }
            set()
        }
        source.resume()
        sources.withLock { $0.append(SignalSourceHolder(source: source)) }
    }
}

/// Holds a signal source; it is only resumed once and never touched again, so sharing it is safe.
private final class SignalSourceHolder: @unchecked Sendable {  // immutable after resume
    let source: any DispatchSourceSignal
    init(source: any DispatchSourceSignal) { self.source = source }
}
