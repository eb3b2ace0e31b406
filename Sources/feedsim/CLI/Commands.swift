import Foundation

/// Every subcommand; `feedsim --help` lists them in this order.
let commands: [Command] = [
    demoCommand,
    replayCommand,
    traceImportCommand,
    traceSynthCommand,
    loadCommand,
    compareCommand,
    sweepCommand,
    seedCommand,
    importCommand,
    pageCommand,
    statsCommand,
    layoutCommand,
    benchStoreCommand,
    benchLayoutCommand,
    benchReplayCommand,
    benchLoadCommand,
    benchSweepCommand,
]
