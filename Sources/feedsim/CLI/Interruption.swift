import Dispatch
import FeedModel
import Foundation
import Synchronization

/// SIGINT and SIGTERM turned into a flag that long writes check (`seed`, `import`, `replay`): the
/// work stops at its next check, the transaction rolls back, ``runMain(_:commands:)`` says what
/// happened and exits 130. The signals arrive through Dispatch signal sources, so no work runs in
/// a signal handler; a second signal while the first is being handled exits at once (130).
final class Interruption: Sendable {
    /// The process's one instance (signal dispositions are process-wide).
    static let shared = Interruption()

    private let received = Atomic<Int32>(0)
    private let sources = Mutex<[SignalSourceBox]>([])

    /// The signal received, 0 for none.
    var signal: Int32 { received.load(ordering: .acquiring) }

    /// Whether SIGINT or SIGTERM arrived (the closure long writes check).
    var isSet: Bool { signal != 0 }

    /// `SIGINT` / `SIGTERM` for messages.
    var signalName: String { signal == SIGTERM ? "SIGTERM" : "SIGINT" }

    /// Starts catching SIGINT and SIGTERM (once per process; later calls do nothing).
    func install() {
        sources.withLock { sources in
            guard sources.isEmpty else { return }
            for number in [SIGINT, SIGTERM] {
                Foundation.signal(number, SIG_IGN)  // the source sees the signal only with the default action off
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { [self] in
                    let (exchanged, _) = received.compareExchange(expected: 0, desired: number, ordering: .acquiringAndReleasing)
                    if !exchanged {
                        // What is not finished (a database this run created: ``TemporaryFiles``)
                        // is removed first, as for an interrupted output file.
                        let removed = TemporaryFiles.current.filter { FileManager.default.fileExists(atPath: $0) }
                        TemporaryFiles.removeAll()
                        let name = number == SIGTERM ? "SIGTERM" : "SIGINT"
                        FileHandle.standardError.write(
                            Data(("feedsim: \(name) again: stopped at once"
                                + (removed.isEmpty ? "" : "; removed the unfinished \(removed.joined(separator: ", "))") + "\n").utf8))
                        exit(130)
                    }
                }
                source.resume()
                sources.append(SignalSourceBox(source: source))
            }
        }
    }

    /// A closure for the libraries' `shouldStop` parameters.
    var shouldStop: @Sendable () -> Bool { { [self] in isSet } }
}

/// A command stopped by SIGINT or SIGTERM, with what is true of its outputs (``runMain(_:commands:)``
/// says it after the signal's name and exits 130): for a command that only reads, not
/// ``StoreError/interrupted``'s "the transaction was rolled back".
struct InterruptedCommand: Error {
    /// E.g. `the replay stopped; the database was opened read-only and no output was written`.
    var outcome: String
}

/// Holds a signal source; it is resumed once and never touched again, so sharing it is safe.
private final class SignalSourceBox: @unchecked Sendable {  // immutable after resume
    let source: any DispatchSourceSignal
    init(source: any DispatchSourceSignal) { self.source = source }
}
