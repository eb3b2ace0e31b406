import FeedModel
import Foundation
import Testing
import FeedSimTestSupport

@testable import feedsim

/// Output files of the command line: one-line messages, nothing half-written.
@Suite struct OutputFileTests {
    let directory = TemporaryDirectory.make("feedsim-out")

    @Test func writingIntoAMissingDirectoryNamesTheOptionThePathAndTheDirectory() {
        let target = directory.appendingPathComponent("nope/drawing.svg").path
        #expect {
            try writeOutput(Data("<svg/>".utf8), to: target, option: "--svg")
        } throws: { error in
            (error as? CommandFailure)?.message == "--svg \(target): no directory \(directory.appendingPathComponent("nope").path)"
        }
    }

    @Test func aFailingWriterLeavesNeitherTheTargetNorATemporary() throws {
        struct Stop: Error {}
        let target = directory.appendingPathComponent("out.jsonl").path
        #expect(throws: Stop.self) {
            try writeOutput(to: target, option: "-o") { writer in
                try writer.write(String(repeating: "z", count: 100_000))
                throw Stop()
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test func traceImportOfADirectoryOrADeviceExitsOne() {
        #expect(runMain(["feedsim", "trace", "import", "--from", "rrweb", directory.path], commands: commands) == 1)
        #expect(runMain(["feedsim", "trace", "import", "--from", "jsonl", "/dev/zero"], commands: commands) == 1)
        #expect(
            runMain(["feedsim", "trace", "import", "--from", "evemu", "--axis-x", "0:9223372036854775807", "/dev/null"], commands: commands)
                == 64)
    }

    @Test func fuzzRunsAShortRoundAndWritesOneCase() throws {
        #expect(runMain(["feedsim", "fuzz", "--format", "touch-csv", "--cases", "20", "--seed", "3"], commands: commands) == 0)
        let out = directory.appendingPathComponent("case.csv").path
        #expect(runMain(["feedsim", "fuzz", "--format", "touch-csv", "--case", "5", "-o", out], commands: commands) == 0)
        #expect(FileManager.default.fileExists(atPath: out))
        #expect(runMain(["feedsim", "fuzz", "--format", "nope"], commands: commands) == 64)
    }
}
