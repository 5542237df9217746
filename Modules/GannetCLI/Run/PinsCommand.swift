import Gannet
import GannetSecurity
internal import Synchronization

/// `gannet pins FILE|https://host[:port]`: the SPKI SHA-256 pin and subject of every
/// certificate in a PEM bundle or DER file, or in the chain a server presents (leaf first).
///
/// For a URL, the handshake is run with an evaluator that records the presented chain and then
/// refuses the server, so no request is ever sent. The chain is printed as presented, not
/// verified: check it (for example against `--cacert`) before pinning it.
struct PinsCommand {
    let target: String
    let options: Options
    let terminal: Terminal

    func run() async throws -> ExitStatus {
        let certificates: [Certificate]
        if target.lowercased().hasPrefix("https://") {
            guard let url = URL(string: target), url.host != nil else {
                throw CLIError.usage("\(target.debugDescription) is not a URL")
            }
            certificates = try await presentedChain(of: url)
        } else if target.contains("://") {
            throw CLIError.usage("gannet pins takes a certificate file or an https:// URL")
        } else {
            certificates = try TrustPolicyBuilder.loadCertificates(target)
        }
        for certificate in certificates {
            // The subject is the server's text (or the file's): escaped, so a name holding
            // `ESC ] 0 ;` cannot retitle or clear the terminal (docs/cli.md, "What is escaped").
            terminal.out("\(certificate.publicKeyPin)  \(ControlEscaping.escaped(certificate.subjectSummary))\n")
        }
        return .success
    }

    /// The chain `url`'s server presents in the TLS handshake.
    func presentedChain(of url: URL) async throws -> [Certificate] {
        let recorder = ChainRecorder()
        var configuration = SessionConfiguration.default
        configuration.tls.serverTrustEvaluator = recorder
        configuration.redirects = .disallow
        SessionSettings.applyNetwork(options, url: url, to: &configuration)
        let session = SessionManager(configuration: configuration)
        defer { session.invalidateAndCancel() }
        var request = URLRequest(url: url)
        request.httpMethod = "HEAD"
        let response = await session.response(for: request, serializer: PassthroughResponseSerializer())
        guard let chain = recorder.chain, !chain.isEmpty else {
            throw response.error ?? CLIError("the server presented no certificate")
        }
        return try chain.map { der in
            do {
                return try Certificate(derEncoded: der)
            } catch {
                throw CLIError("the server presented a certificate that cannot be read: \(error)")
            }
        }
    }
}

/// Records the presented chain, then refuses the server so the handshake ends there.
final class ChainRecorder: ServerTrustEvaluating {
    private let recorded = Mutex<[Data]?>(nil)

    struct Recorded: Error, CustomStringConvertible {
        var description: String { "chain recorded; the connection is not used" }
    }

    var chain: [Data]? { recorded.withLock { $0 } }

    func evaluate(_ trust: ServerTrust) throws {
        recorded.withLock { $0 = trust.certificateChain }
        throw Recorded()
    }
}
