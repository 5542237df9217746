/// The TLS endpoints the test nginx serves, one per certificate fault (see Tests/Servers/README.md).
///
/// Each endpoint's URL names the host a client should use, so each one fails or succeeds for
/// exactly one reason when verified against ``TestCertificates/caBundle``.
public enum TLSVariant: String, Sendable, CaseIterable, Hashable {
    /// Leaf for `localhost` and `127.0.0.1`, signed by the test intermediate; chain served. Succeeds.
    case good
    /// Valid chain for `wrong.example`, requested as `localhost`. Fails the host name check.
    case wrongHost
    /// Valid chain whose leaf expired yesterday. Fails.
    case expired
    /// Valid chain whose leaf starts being valid in 30 days. Fails.
    case notYetValid
    /// Self-signed leaf for `localhost`. Fails.
    case selfSigned
    /// Leaf for `localhost` from a second root that is not in the CA bundle. Fails.
    case untrustedRoot
    /// Leaf whose only name is the IP address `127.0.0.1`, requested as `https://127.0.0.1:…`. Succeeds.
    case ipAddress
    /// Leaf for `*.gannet.localhost` and `*.gannet.test`, requested as `www.gannet.localhost`
    /// (curl resolves every `*.localhost` name to loopback). Succeeds.
    case wildcard
    /// Leaf for `localhost` signed by a non-CA leaf (no CA flag, no keyCertSign) under the root. Fails.
    case leafAsIssuer
    /// Leaf under a CA that the intermediate's `pathlen:0` forbids. Fails.
    case pathLengthExceeded
    /// Leaf for `localhost` with an RSA 2048 key (every other key is ECDSA P-256). Succeeds.
    case rsa
    /// The good leaf, on a server that requires a client certificate from the test client CA.
    /// Without one, nginx completes the handshake and answers `400`.
    case mutualTLS
    /// The good leaf; TLS 1.2 only (for session resumption and version tests). Succeeds.
    case tls12Only
    /// The good leaf; TLS 1.3 only. Succeeds.
    case tls13Only
    /// The good leaf; ALPN offers `http/1.1` only, so connections are not multiplexed. Succeeds.
    case http1Only
    /// The good leaf, stapling an OCSP response (signed by the intermediate) that says "good" to
    /// clients that ask for one. ``good`` staples nothing.
    case stapledGood
    /// A valid chain for `localhost` (the `revoked` leaf) stapling a response that says the leaf
    /// is revoked (keyCompromise). Succeeds for a client that ignores revocation.
    case stapledRevoked
    /// ``stapledGood`` over TLS 1.2 only: the staple comes in its own CertificateStatus message.
    case stapledGoodTLS12Only
    /// ``stapledRevoked`` over TLS 1.2 only.
    case stapledRevokedTLS12Only
    /// ``stapledGood`` over TLS 1.3 only: the staple comes inside the Certificate message.
    case stapledGoodTLS13Only
    /// ``stapledRevoked`` over TLS 1.3 only.
    case stapledRevokedTLS13Only
    /// A valid chain for `localhost` whose leaf's common name carries terminal escapes (OSC 0
    /// ended by BEL, CSI 2J, a C1 CSI, a bidi override): what `gannet pins` must print escaped.
    case hostileSubject

    /// Whether the endpoint staples an OCSP response (``TestCertificates/stapledOCSPResponse(_:)``).
    public var staplesOCSPResponse: Bool {
        switch self {
        case .stapledGood, .stapledRevoked, .stapledGoodTLS12Only, .stapledRevokedTLS12Only,
            .stapledGoodTLS13Only, .stapledRevokedTLS13Only:
            true
        default:
            false
        }
    }
}
