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
}
