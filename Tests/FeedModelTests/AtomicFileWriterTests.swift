import FeedModel
import Foundation
import Testing

/// All-or-nothing output files: temporaries beside the target, renamed only over regular files.
@Suite struct AtomicFileWriterTests {
    let directory: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("feedsim-atomic-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    func contents(_ name: String) -> String? {
        (try? Data(contentsOf: directory.appendingPathComponent(name))).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func aNewFileAppearsOnlyOnCommitUnderARecognisableTemporaryName() throws {
        let writer = try AtomicFileWriter(path: path("out.jsonl"))
        try writer.write("first line\n")
        #expect(contents("out.jsonl") == nil)
        #expect(FileManager.default.fileExists(atPath: path(".out.jsonl.feedsim-tmp")))
        #expect(TemporaryFiles.current.contains { $0.hasSuffix("/.out.jsonl.feedsim-tmp") })
        try writer.write("second line\n")
        try writer.commit()
        #expect(contents("out.jsonl") == "first line\nsecond line\n")
        #expect(!FileManager.default.fileExists(atPath: path(".out.jsonl.feedsim-tmp")))
        #expect(!TemporaryFiles.current.contains { $0.hasPrefix(directory.path) })
    }

    @Test func anAbandonedWriteLeavesTheOldFileAndNoTemporary() throws {
        try AtomicFileWriter.write(Data("old\n".utf8), to: path("report.json"))
        do {
            let writer = try AtomicFileWriter(path: path("report.json"))
            try writer.write(String(repeating: "x", count: 200_000))  // past the buffer: bytes reach the temporary
        }  // dropped without commit
        #expect(contents("report.json") == "old\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["report.json"])
    }

    @Test func removingTemporariesDeletesAnUnfinishedOutput() throws {
        let writer = try AtomicFileWriter(path: path("big.jsonl"))
        try writer.write(String(repeating: "y", count: 100_000))
        #expect(FileManager.default.fileExists(atPath: path(".big.jsonl.feedsim-tmp")))
        TemporaryFiles.removeAll(under: directory.path)  // what SIGINT / SIGTERM do in the command line (for all)
        #expect(!FileManager.default.fileExists(atPath: path(".big.jsonl.feedsim-tmp")))
        writer.abandon()
        #expect(contents("big.jsonl") == nil)
    }

    @Test func aMissingDirectoryOrADirectoryTargetIsSaidPlainly() {
        let missing = path("no-such-dir/out.svg")
        #expect(throws: FileError(path: missing, reason: "no directory \(path("no-such-dir"))")) {
            try AtomicFileWriter.write(Data(), to: missing)
        }
        #expect(throws: FileError(path: directory.path, reason: "is a directory")) {
            try AtomicFileWriter.write(Data(), to: directory.path)
        }
        #expect(throws: FileError(path: "", reason: "empty file name")) {
            try AtomicFileWriter.write(Data(), to: "")
        }
    }

    @Test func aSymbolicLinkKeepsPointingAtTheReplacedFile() throws {
        try AtomicFileWriter.write(Data("v1".utf8), to: path("real.txt"))
        try FileManager.default.createSymbolicLink(atPath: path("link.txt"), withDestinationPath: path("real.txt"))
        try AtomicFileWriter.write(Data("v2".utf8), to: path("link.txt"))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path("link.txt")) == path("real.txt"))
        #expect(contents("real.txt") == "v2")
    }

    @Test func aFIFOIsWrittenInPlaceNotReplacedByARegularFile() throws {
        let fifo = path("pipe")
        #expect(mkfifo(fifo, 0o600) == 0)
        let received = ReceivedBytes()
        let reader = Thread {
            received.set(FileHandle(forReadingAtPath: fifo)?.readDataToEndOfFile() ?? Data())
        }
        reader.start()
        try AtomicFileWriter.write(Data("through the pipe\n".utf8), to: fifo)
        while !received.isSet { usleep(1000) }
        #expect(String(decoding: received.data, as: UTF8.self) == "through the pipe\n")
        var info = stat()
        #expect(stat(fifo, &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFIFO)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["pipe"])
    }
}

/// What the FIFO's reader thread got.
final class ReceivedBytes: @unchecked Sendable {  // guarded by its lock
    private let lock = NSLock()
    private var bytes: Data?
    func set(_ data: Data) { lock.withLock { bytes = data } }
    var isSet: Bool { lock.withLock { bytes != nil } }
    var data: Data { lock.withLock { bytes ?? Data() } }
}
