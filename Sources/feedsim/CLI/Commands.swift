import Foundation

/// Every subcommand; `feedsim --help` lists them in this order.
let commands: [Command] = [
    demoCommand,
    replayCommand,
    seedCommand,
    importCommand,
    pageCommand,
    statsCommand,
    benchStoreCommand,
    layoutCommand,
    traceImportCommand,
    traceSynthCommand,
    loadCommand,
    benchLayoutCommand,
    benchLoadCommand,
]
