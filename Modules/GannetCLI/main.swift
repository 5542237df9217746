import Foundation

// `gannet`: an httpie-style HTTP client built on Gannet. See docs/cli.md or `gannet --help`.
let status = await CommandRunner(terminal: .current).run(Array(CommandLine.arguments.dropFirst()))
exit(status)
