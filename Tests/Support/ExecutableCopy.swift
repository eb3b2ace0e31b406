import Foundation

/// Copies a program that a test then runs.
///
/// The copy is made by `cp`, not by this process: while this process held the copy open for
/// writing, a child that another test forked at that moment inherited the descriptor, and running
/// the copy failed with ETXTBSY ("Text file busy"; seen in CI on 2026-12-07). `cp`'s descriptor
/// dies with `cp`.
public enum ExecutableCopy {
    /// Copies `source` to `destination` with `/bin/cp`.
    /// - Throws: `CocoaError(.fileWriteUnknown)` when `cp` fails; `Process`'s errors when it cannot start.
    public static func copy(_ source: String, to destination: String) throws {
        let copy = Process()
        copy.executableURL = URL(fileURLWithPath: "/bin/cp")
        copy.arguments = [source, destination]
        try copy.run()
        copy.waitUntilExit()
        guard copy.terminationStatus == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: destination])
        }
    }
}
