import Gannet
internal import Synchronization

/// Parses the command line, runs the command, prints errors as `gannet: error: …`, and
/// returns the process exit code.
struct CommandRunner {
    let terminal: Terminal

    /// Runs the command and waits for it on the calling thread (`main`'s), which meanwhile
    /// serves Ctrl-C (`Interrupt.serve()`).
    func run(_ arguments: [String]) -> Int32 {
        // The command runs in a task of its own so that Ctrl-C can cancel it, whichever API it
        // is waiting in (a data task, a download, a byte stream). Not an async main, nor a task
        // awaiting this one: each would start or wake another thread (docs/performance.md,
        // "Start-up").
        let terminal = self.terminal
        let outcome = Outcome()
        let work = Task.detached {
            do {
                outcome.set(.success(try await Self.execute(arguments, terminal: terminal)))
            } catch {
                outcome.set(.failure(error))
            }
            Interrupt.commandEnded()
        }
        Interrupt.onInterrupt { work.cancel() }
        Interrupt.serve()
        let result = outcome.get()
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

/// The command's result, handed from its task to the thread that waits for it.
private final class Outcome: Sendable {
    private let value = Mutex<Result<ExitStatus, any Error>?>(nil)

    func set(_ result: Result<ExitStatus, any Error>) {
        value.withLock { $0 = result }
    }

    /// The result, once `Interrupt.serve()` returned: the task set it before it ended serving.
    func get() -> Result<ExitStatus, any Error> {
        value.withLock { $0 } ?? .failure(CancellationError())
    }
}
