import Gannet

/// Parses the command line, runs the command, prints errors as `gannet: error: …`, and
/// returns the process exit code.
struct CommandRunner {
    let terminal: Terminal

    func run(_ arguments: [String]) async -> Int32 {
        // The command runs in a task of its own so that Ctrl-C can cancel it, whichever API it
        // is waiting in (a data task, a download, a byte stream).
        let terminal = self.terminal
        let work = Task { try await Self.execute(arguments, terminal: terminal) }
        Interrupt.onInterrupt { work.cancel() }
        let result = await work.result
        if Interrupt.happened {
            terminal.err("\ngannet: interrupted\n")
            return 130
        }
        switch result {
        case .success(let status):
            return status.code
        case .failure(let error):
            let (message, status) = ErrorReport.describe(error)
            // The options may not parse (that may be the error): then NO_COLOR alone decides.
            let options = (try? ArgumentParser.parse(arguments))?.options ?? Options()
            let palette = Palette(enabled: options.colorsDiagnostics(on: terminal))
            terminal.err(palette.error("gannet: error:") + " " + message + "\n")
            return status.code
        }
    }

    static func execute(_ arguments: [String], terminal: Terminal) async throws -> ExitStatus {
        // The hidden generators describe gannet itself: no config file's defaults apply to them.
        let generates = arguments == ["--generate-man"] || arguments.first == "--generate-completion"
        let all =
            generates ? arguments : try ConfigFile.arguments(arguments, environment: ConfigFile.environment())
        switch try Command.parse(all, stdin: StandardInput.probe()) {
        case .help:
            terminal.out(HelpText.text)
            return .success
        case .version:
            terminal.out(GannetVersion.report)
            return .success
        case .manPage:
            terminal.out(ManPage.text)
            return .success
        case .completion(let shell):
            terminal.out(shell.script)
            return .success
        case .pins(let target, let options):
            return try await PinsCommand(target: target, options: options, terminal: terminal).run()
        case .request(let invocation):
            return try await RequestCommand(invocation: invocation, terminal: terminal).run()
        }
    }
}
