import FeedResources
import Foundation

/// The valid inputs the fuzzer mutates, per format: the samples built into the binary, the
/// package's shipped files under `Seeds/` and, when given, the real recordings and datasets
/// (`$FEEDSIM_SHARED_DATA`, see its `SOURCES.md`).
public struct FuzzCorpus: Sendable {
    /// A named input.
    public struct Seed: Sendable {
        public var name: String
        public var bytes: [UInt8]
    }

    public private(set) var seeds: [FuzzFormat: [Seed]]

    /// Seeds larger than this are cut to their first this many bytes (a cut file is still a
    /// useful seed: truncation is one of the mutations anyway), so a round's time is bounded.
    public static let maximumSeedBytes = 256 * 1024

    /// - Parameters:
    ///   - seeds: the package's `Seeds/` (embedded, or `--seeds DIR`) (its `traces/*.jsonl` and `wikimedia/*.csv`); `nil` to skip.
    ///   - realDataDirectory: the real data directory; `nil` to skip.
    ///   - maximumSeedBytes: files are cut to this many bytes (default ``maximumSeedBytes``).
    public init(seeds: ResourceDirectory?, realDataDirectory: URL?, maximumSeedBytes: Int = FuzzCorpus.maximumSeedBytes) {
        var samples: [FuzzFormat: [Seed]] = [:]
        for (format, builtIn) in Self.builtInSamples {
            samples[format] = builtIn.map { Seed(name: "builtin:\($0.name)", bytes: Array($0.text.utf8)) }
        }
        func addData(_ format: FuzzFormat, _ name: String, _ data: Data?) {
            guard let data else { return }
            samples[format, default: []].append(Seed(name: name, bytes: Array(data.prefix(maximumSeedBytes))))
        }
        func add(_ format: FuzzFormat, _ url: URL) {
            addData(format, url.lastPathComponent, try? Data(contentsOf: url))
        }
        func files(_ directory: URL?) -> [URL] {
            guard let directory,
                let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path)
            else { return [] }
            return names.sorted().map { directory.appendingPathComponent($0) }
        }
        if let seeds {
            let traces = seeds.subdirectory("traces")
            for name in (try? traces.fileNames()) ?? [] where name.hasSuffix(".jsonl") {
                addData(.jsonl, name, try? traces.data(name))
            }
            let wikimedia = seeds.subdirectory("wikimedia")
            for name in (try? wikimedia.fileNames()) ?? [] where name.hasSuffix(".csv") {
                addData(.itemsCSV, name, try? wikimedia.data(name))
            }
        }
        for url in files(realDataDirectory) {
            let name = url.lastPathComponent
            if name.hasPrefix("evemu-") && name.hasSuffix(".events") {
                add(.evemu, url)
            } else if name.hasPrefix("chrome-trace") && name.hasSuffix(".json") {
                add(.chrome, url)
            } else if name.hasSuffix("-drags.csv") || name.hasSuffix("-flings.csv") {
                add(.touchCSV, url)
            } else if name.hasPrefix("wikipedia-") && name.hasSuffix(".json") {
                add(.wikimedia, url)
            } else if name.hasPrefix("rrweb") && name.hasSuffix(".json") {
                add(.rrweb, url)
            }
        }
        self.seeds = samples
    }

    /// The seeds of `format`, built-in samples first.
    public func seeds(for format: FuzzFormat) -> [Seed] { seeds[format] ?? [] }
}
