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
        OptionSpec("--duration", "SECONDS", accepts: .number(0.001...86_400), help: "Session length in seconds."),
        OptionSpec("--seed", "S", accepts: .seed, help: "Seed of the SplitMix64 generator (same seed, same bytes)."),
        OptionSpec("-o", "OUT", accepts: .output, help: "Write the trace here (atomically, via .OUT.feedsim-tmp) instead of to stdout."),
        OptionSpec(
            "--viewport", "WxH", accepts: .numbers(separator: "x", count: 2...2, each: 1...LayoutOptions.maxViewportSide),
            default: "390x844", help: "Viewport in points (height at least 100)."),
        OptionSpec("--sample-rate", "HZ", accepts: .number(30...1000), default: "120", help: "Touch sampling and refresh rate in Hz."),
    ],
    run: { args in
        let modelName = try args.required("--model")
        guard let model = SynthModel(rawValue: modelName) else {
            throw UsageError.badValue("--model", "unknown model '\(modelName)' (" + SynthModel.allCases.map(\.rawValue).joined(separator: ", ") + ")")
        }
        try args.expectNoPositionals()
        let duration = try args.double("--duration") ?? { throw UsageError("missing required option '--duration'") }()
        _ = try args.required("--seed")
        let seed = try args.seed("--seed") ?? 1
        let viewport = try args.numbers("--viewport").map { Size(width: $0[0], height: $0[1]) }
            ?? Size(width: 390, height: 844)
        guard viewport.height >= 100 else {
            throw UsageError.badValue("--viewport", "expected a height of at least 100 points, got \(viewport.height)")
        }
        let rate = try args.double("--sample-rate") ?? 120
        let trace = TraceSynthesizer(model: model, duration: duration, seed: seed, viewport: viewport, sampleRate: rate).generate()
        try emit(trace, to: args.value("-o"))
        return 0
    }
)
