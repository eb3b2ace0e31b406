import FeedModel
import Foundation

/// A fuzz round: `cases` mutated inputs per format, case `k` of a format drawn from the seed
/// `(seed, format, k)` alone, so a case can be re-made on its own (``FuzzRound/input(format:case:)``).
public struct FuzzRound {
    public let corpus: FuzzCorpus
    public let seed: UInt64

    public init(corpus: FuzzCorpus, seed: UInt64) {
        self.corpus = corpus
        self.seed = seed
    }

    /// One case: which seed file it mutates, the mutations applied, the bytes.
    public struct Case: Sendable {
        public var index: Int
        public var seedName: String
        public var mutations: [FuzzMutator.Kind]
        public var bytes: [UInt8]
    }

    /// The counts of a round for one format.
    public struct Tally: Sendable, Equatable {
        public var format: FuzzFormat
        public var cases = 0
        public var accepted = 0
        public var rejectedWithPosition = 0
        public var rejectedWholeFile = 0
        public var rejectedWithoutPosition = 0
        /// The first few cases rejected without a position: index, seed, mutations, message.
        public var withoutPositionExamples: [String] = []

        public init(format: FuzzFormat) {
            self.format = format
        }
    }

    /// The generator of case `index` of `format`: independent of every other case.
    private func mutator(format: FuzzFormat, index: Int) -> FuzzMutator {
        var mix = SplitMix64(seed: seed ^ 0x5EED_F00D)
        for byte in format.rawValue.utf8 { mix = SplitMix64(seed: mix.next() ^ UInt64(byte)) }
        return FuzzMutator(seed: mix.next() &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15)
    }

    /// Case `index` of `format`, or `nil` when the format has no seed.
    public func input(format: FuzzFormat, case index: Int) -> Case? {
        let seeds = corpus.seeds(for: format)
        guard !seeds.isEmpty else { return nil }
        var mutator = mutator(format: format, index: index)
        let seedFile = seeds[index % seeds.count]
        var kinds: [FuzzMutator.Kind] = []
        let bytes = mutator.mutate(seedFile.bytes, isJSON: format.isJSON, kinds: &kinds)
        return Case(index: index, seedName: seedFile.name, mutations: kinds, bytes: bytes)
    }

    /// Runs cases `0..<cases` of `format`; `willRun` sees each input first (the command line
    /// saves it, so the input that traps is on disk after the process died).
    /// - Complexity: `cases` reader runs on inputs up to a little over ``FuzzCorpus/maximumSeedBytes``.
    public func run(format: FuzzFormat, cases: Int, willRun: (Case) -> Void = { _ in }) -> Tally {
        var tally = Tally(format: format)
        for index in 0..<cases {
            guard let fuzzCase = input(format: format, case: index) else { break }
            willRun(fuzzCase)
            tally.cases += 1
            switch format.run(Data(fuzzCase.bytes), file: "case-\(index)") {
            case .accepted: tally.accepted += 1
            case .rejectedWithPosition: tally.rejectedWithPosition += 1
            case .rejectedWholeFile: tally.rejectedWholeFile += 1
            case .rejectedWithoutPosition(let message):
                tally.rejectedWithoutPosition += 1
                if tally.withoutPositionExamples.count < 5 {
                    let mutations = fuzzCase.mutations.map(\.rawValue).joined(separator: "+")
                    tally.withoutPositionExamples.append("case \(index) (\(fuzzCase.seedName), \(mutations)): \(message)")
                }
            }
        }
        return tally
    }
}
