import Gannet

/// `--download` and `--output`: the body streamed to a file.
struct DownloadCommand {
    let command: RequestCommand
    let session: SessionManager

    func run(_ request: URLRequest) async throws -> ExitStatus {
        throw CLIError("--download and --output need the core download API")
    }
}
