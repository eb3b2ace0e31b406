import FeedResources
import FeedFuzz
import FeedSimTestSupport
import Foundation
import Testing

/// The fixed-seed fuzz round of every reader, and the inputs that once trapped.
@Suite struct FuzzRoundTests {
    /// The built-in samples and the package's `Seeds/` (small files: the round takes seconds).
    static let corpus = FuzzCorpus(seeds: .directory(RealData.packageFile("Seeds")), realDataDirectory: nil, maximumSeedBytes: 8192)
    /// The same and the real recordings and datasets, when present.
    static let realCorpus = FuzzCorpus(
        seeds: .directory(RealData.packageFile("Seeds")), realDataDirectory: RealData.directory, maximumSeedBytes: 32_768)

    @Test(arguments: FuzzFormat.allCases)
    func everyBuiltInSampleIsAccepted(format: FuzzFormat) {
        let samples = FuzzCorpus(seeds: nil, realDataDirectory: nil).seeds(for: format)
        #expect(!samples.isEmpty)
        for sample in samples {
            #expect(format.run(Data(sample.bytes), file: sample.name) == .accepted, "\(sample.name)")
        }
    }

    @Test(arguments: FuzzFormat.allCases)
    func aFixedSeedRoundRejectsNothingWithoutAPosition(format: FuzzFormat) {
        let tally = FuzzRound(corpus: Self.corpus, seed: 20_261_201).run(format: format, cases: 200)
        #expect(tally.cases == 200)
        #expect(tally.rejectedWithoutPosition == 0, "\(tally.withoutPositionExamples.joined(separator: "\n"))")
        // The mutations must reach both sides: some inputs survive, most are refused with a position.
        #expect(tally.accepted > 0)
        #expect(tally.rejectedWithPosition > tally.cases / 4)
        #expect(tally.accepted + tally.rejectedWithPosition + tally.rejectedWholeFile == tally.cases)
    }

    @Test(.enabled(if: RealData.isAvailable, "\(RealData.skipMessage)"), arguments: FuzzFormat.allCases)
    func aShortRoundOverTheRealFilesRejectsNothingWithoutAPosition(format: FuzzFormat) {
        // Case k mutates seed k mod n: 16 cases mutate every seed, real files included, several times.
        let tally = FuzzRound(corpus: Self.realCorpus, seed: 99).run(format: format, cases: 16)
        #expect(tally.rejectedWithoutPosition == 0, "\(tally.withoutPositionExamples.joined(separator: "\n"))")
    }

    @Test func casesAreReproducibleOneByOne() {
        let round = FuzzRound(corpus: Self.corpus, seed: 7)
        for format in FuzzFormat.allCases {
            let a = round.input(format: format, case: 41)
            let b = FuzzRound(corpus: Self.corpus, seed: 7).input(format: format, case: 41)
            #expect(a?.bytes == b?.bytes)
            #expect(a?.bytes != round.input(format: format, case: 42)?.bytes)
        }
    }

    /// Every input that ever trapped a reader, kept under `Tests/Fixtures/fuzz/<format>/`.
    static let regressionFixtures: [(format: FuzzFormat, path: String)] = {
        let root = RealData.packageFile("Tests/Fixtures/fuzz")
        var fixtures: [(FuzzFormat, String)] = []
        for format in FuzzFormat.allCases {
            let directory = root.appendingPathComponent(format.rawValue)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            for name in names.sorted() { fixtures.append((format, directory.appendingPathComponent(name).path)) }
        }
        return fixtures
    }()

    @Test func regressionFixturesAreThere() {
        #expect(Self.regressionFixtures.count >= 1)
    }

    @Test(arguments: regressionFixtures.map(\.path))
    func anInputThatOnceTrappedNowGivesAPositionedError(path: String) throws {
        let format = try #require(Self.regressionFixtures.first { $0.path == path }?.format)
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        switch format.run(data, file: path) {
        case .accepted, .rejectedWithPosition, .rejectedWholeFile: break
        case .rejectedWithoutPosition(let message): Issue.record("\(path): \(message)")
        }
    }
}
