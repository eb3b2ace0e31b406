import FeedModel
import FeedResources
import FeedSimTestSupport
import Foundation
import Testing

/// The embedded copy of `Schema/` and `Seeds/` is the repository's, file for file and byte for byte.
@Suite struct ResourceDirectoryTests {
    /// Every regular file below `url`, as paths relative to it, sorted (hidden files skipped, as the plugin does).
    static func files(under url: URL, prefix: String = "") throws -> [String] {
        var found: [String] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: url.path) where !name.hasPrefix(".") {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: url.appendingPathComponent(name).path, isDirectory: &isDirectory)
            if isDirectory.boolValue {
                found += try files(under: url.appendingPathComponent(name), prefix: prefix + name + "/")
            } else {
                found.append(prefix + name)
            }
        }
        return found.sorted()
    }

    @Test(arguments: ["Schema", "Seeds"])
    func everyFileOfTheRepositoryDirectoryIsEmbeddedWithTheSameBytes(name: String) throws {
        let disk = RealData.packageRoot.appendingPathComponent(name, isDirectory: true)
        let paths = try Self.files(under: disk)
        #expect(!paths.isEmpty)
        for path in paths {
            let embedded = try ResourceDirectory.embedded(name).data(path)
            #expect(embedded == (try Data(contentsOf: disk.appendingPathComponent(path))), "\(name)/\(path)")
        }
        // Listing: the files directly in the directory, as on disk.
        let direct = paths.filter { !$0.contains("/") }
        #expect(try ResourceDirectory.embedded(name).fileNames() == direct)
        #expect(try ResourceDirectory.directory(disk).fileNames() == direct)
    }

    @Test func subdirectoriesListOnlyTheirOwnFiles() throws {
        let traces = ResourceDirectory.embedded("Seeds").subdirectory("traces")
        let names = try traces.fileNames()
        #expect(names.contains("chrome-wheel.jsonl"))
        #expect(names.contains("NOTICE.md"))
        #expect(!names.contains { $0.contains("/") })
        #expect(try ResourceDirectory.embedded("Seeds").fileNames() == ["mixed.json", "news.json", "photos.json"])
    }

    @Test func missingFilesAndDirectoriesAreErrorsNamingThem() {
        #expect(throws: FileError(path: "Seeds/nope.json (embedded)", reason: "no such file")) {
            try ResourceDirectory.embedded("Seeds").data("nope.json")
        }
        #expect(throws: FileError(path: "Seeds/nothing (embedded)", reason: "directory not found")) {
            try ResourceDirectory.embedded("Seeds/nothing").fileNames()
        }
        let absent = URL(fileURLWithPath: "/nonexistent-feedsim-dir")
        #expect(throws: FileError(path: absent.path, reason: "directory not found")) {
            try ResourceDirectory.directory(absent).fileNames()
        }
    }

    @Test func embeddedPresetEqualsTheRepositoryFile() throws {
        let url = RealData.packageRoot.appendingPathComponent("Seeds/news.json")
        #expect(try Preset.named("news", in: ResourceDirectory.embedded("Seeds")) == (try Preset.load(from: url)))
        #expect(try Preset.availableNames(in: ResourceDirectory.embedded("Seeds")) == ["mixed", "news", "photos"])
    }
}
