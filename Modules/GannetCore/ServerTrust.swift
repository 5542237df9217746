/// What a server presented during a TLS handshake, handed to a ``ServerTrustEvaluating``
/// while the handshake is still in progress.
public struct ServerTrust: Sendable, Hashable {
    /// The host name (or IP address literal) the client connected to, as in the request URL.
    public var host: String
    /// The TCP port of the connection.
    public var port: Int
    /// The certificates the server sent, DER-encoded, leaf first. This is the *presented*
    /// chain: nothing in it is trusted until an evaluator has built and verified a chain from it.
    public var certificateChain: [Data]
    /// The DER OCSP response the server stapled to the handshake (RFC 6066 `status_request`),
    /// exactly as received and not yet checked. The engine asks for one only when the evaluator's
    /// ``ServerTrustEvaluating/requestsOCSPStapling`` is `true`; otherwise, and when the server
    /// stapled nothing, it is `nil`.
    public var stapledOCSPResponse: Data?

    /// Creates a trust value; the engine creates these, tests may too.
    public init(host: String, port: Int, certificateChain: [Data], stapledOCSPResponse: Data? = nil) {
        self.host = host
        self.port = port
        self.certificateChain = certificateChain
        self.stapledOCSPResponse = stapledOCSPResponse
    }
}

/// Decides, inside the TLS handshake, whether a server is trusted.
///
/// When a ``SessionConfiguration`` has an evaluator, the engine turns off libcurl's own
/// verification and installs an OpenSSL verification callback that calls ``evaluate(_:)``. A
/// thrown error aborts the handshake: the server never receives a byte of the request, and the
/// task fails with `URLError.serverCertificateUntrusted` whose underlying error is the one
/// thrown here. `GannetSecurity` implements this protocol with OpenSSL (chain building, host
/// name checks, certificate and public-key pinning).
///
/// Evaluators run on the engine thread, once per new connection: keep them fast and never
/// block on other work of the same session.
public protocol ServerTrustEvaluating: Sendable {
    /// Returns normally when the server is trusted; throws the reason otherwise.
    func evaluate(_ trust: ServerTrust) throws

    /// `true` when this evaluator only makes sense over HTTPS (it pins, for example), so a
    /// session manager can refuse a plain-HTTP base URL up front. Defaults to `false`.
    var requiresSecureTransport: Bool { get }

    /// `true` when this evaluator wants the server's stapled OCSP response in
    /// ``ServerTrust/stapledOCSPResponse``. The engine then asks every server for one
    /// (`status_request`) and calls ``evaluate(_:)`` once the handshake has delivered both the
    /// certificates and the response (or its absence), still before any request byte is sent.
    /// Defaults to `false`.
    var requestsOCSPStapling: Bool { get }
}

extension ServerTrustEvaluating {
    /// Defaults to `false`.
    public var requiresSecureTransport: Bool { false }

    /// Defaults to `false`.
    public var requestsOCSPStapling: Bool { false }
}

/// The answer to a server-trust challenge (AFNetworking 4's contract: a credential, a
/// disposition, or an error).
public enum ServerTrustDisposition: Sendable {
    /// Trust the server (AFNetworking: return a credential for the server trust).
    case useCredential
    /// Decide as if there were no handler: the configured evaluator, or OpenSSL's standard
    /// verification against the configured CA file or the system store, with the host checked.
    case performDefaultHandling
    /// Abort the handshake; the task fails with `URLError.cancelled`.
    case cancel
    /// Abort the handshake; the task fails with `URLError.serverCertificateUntrusted` whose
    /// underlying error is this one.
    case reject(any Error)
}
