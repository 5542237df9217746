import Foundation

// `gannet`: an httpie-style HTTP client built on Gannet. See docs/cli.md or `gannet --help`.
Interrupt.install()
let status = await CommandRunner(terminal: .current).run(Array(CommandLine.arguments.dropFirst()))
exit(status)
