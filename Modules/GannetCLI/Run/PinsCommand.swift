import Gannet

/// `gannet pins FILE|https://host[:port]`: the SPKI SHA-256 pins of a certificate file or of
/// the chain a server presents.
struct PinsCommand {
    let target: String
    let options: Options
    let terminal: Terminal

    func run() async throws -> ExitStatus {
        throw CLIError("gannet pins needs GannetSecurity, which this build does not include yet")
    }
}
