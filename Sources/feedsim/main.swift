import Foundation

// Top-level code only: the command table and `runMain` live in CLI/ so tests can call them.
ProcessSettings.apply()
exit(runMain(CommandLine.arguments, commands: commands))
