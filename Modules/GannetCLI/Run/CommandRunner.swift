import Gannet

/// Parses the command line, runs the command, prints errors as `gannet: error: …`, and
/// returns the process exit code.
struct CommandRunner {
    let terminal: Terminal

    func run(_ arguments: [String]) async -> Int32 {
        do {
            switch try Command.parse(arguments) {
            case .help:
                terminal.out(HelpText.text)
                return ExitStatus.success.code
            case .version:
                terminal.out("gannet \(GannetVersion.current)\n")
                return ExitStatus.success.code
            case .pins(let target, let options):
                return try await PinsCommand(target: target, options: options, terminal: terminal).run().code
            case .request(let invocation):
                return try await RequestCommand(invocation: invocation, terminal: terminal).run().code
            }
        } catch {
            if Interrupt.happened {
                terminal.err("\ngannet: interrupted\n")
                return 130
            }
            let (message, status) = ErrorReport.describe(error)
            let palette = Palette(enabled: terminal.stderrIsTerminal)
            terminal.err(palette.error("gannet: error:") + " " + message + "\n")
            return status.code
        }
    }
}
