import FeedLayout
import FeedReplay
import Foundation

/// `feedsim trace synth`: a synthetic session of finger input following one behaviour model.
let traceSynthCommand = Command(
    name: "trace synth",
    summary: "Generate a synthetic scroll session (reader, skimmer, flinger, refresher) as a FeedSim trace.",
    usage: "trace synth --model reader|skimmer|flinger|refresher --duration SECONDS --seed S [-o OUT] [--viewport WxH] [--sample-rate HZ]",
    options: [
        OptionSpec("--model", .value, "MODEL", help: "Behaviour: " + SynthModel.allCases.map(\.rawValue).joined(separator: ", ") + " (docs/trace-format.md)."),
        OptionSpec("--duration", .value, "SECONDS", help: "Session length in seconds (up to 86400)."),
        OptionSpec("--seed", .value, "S", help: "Seed of the SplitMix64 generator (same seed, same bytes)."),
        OptionSpec("-o", .value, "OUT", help: "Write the trace here (atomically, via .OUT.feedsim-tmp) instead of to stdout."),
        OptionSpec("--viewport", .value, "WxH", help: "Viewport in points (default 390x844)."),
        OptionSpec("--sample-rate", .value, "HZ", help: "Touch sampling and refresh rate in Hz (default 120)."),
    ],
    run: { args in
        let modelName = try args.required("--model")
        guard let model = SynthModel(rawValue: modelName) else {
            throw CommandFailure("--model: unknown model '\(modelName)' (" + SynthModel.allCases.map(\.rawValue).joined(separator: ", ") + ")")
        }
        let duration = try args.double("--duration", in: 0.001...86_400) ?? { throw UsageError("missing required option '--duration'") }()
        let seedText = try args.required("--seed")
        guard let seed = UInt64(seedText) else { throw CommandFailure("--seed: expected an unsigned integer, got '\(seedText)'") }
        let viewport = try args.numbers("--viewport", separator: "x", count: 2...2).map { Size(width: $0[0], height: $0[1]) }
            ?? Size(width: 390, height: 844)
        guard viewport.width >= 1, viewport.height >= 100 else { throw CommandFailure("--viewport: need width ≥ 1 and height ≥ 100 points") }
        let rate = try args.double("--sample-rate", default: 120, in: 30...1000)!
        let trace = TraceSynthesizer(model: model, duration: duration, seed: seed, viewport: viewport, sampleRate: rate).generate()
        try emit(trace, to: args.value("-o"))
        return 0
    }
)
