import Foundation

/// Every subcommand; `feedsim --help` lists them in this order.
let commands: [Command] = [
    demoCommand,
    replayCommand,
    traceImportCommand,
    traceSynthCommand,
    loadCommand,
    compareCommand,
    reportMergeCommand,
    sweepCommand,
    seedCommand,
    importCommand,
    pageCommand,
    statsCommand,
    serveCommand,
    layoutCommand,
    benchStoreCommand,
    benchLayoutCommand,
    benchReplayCommand,
    benchLoadCommand,
    benchSweepCommand,
    fuzzCommand,
    benchHTTPCommand,
]
