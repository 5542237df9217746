public import Foundation

/// Adds OCSP stapling to another evaluator: the server must also staple (RFC 6066) a current
/// OCSP response, signed by its certificate's issuer, saying the certificate is not revoked.
///
/// ```swift
/// let store = try TrustStore.caFile("ca.pem")
/// configuration.tls.serverTrustEvaluator = OCSPStaplingTrustEvaluator(
///     base: DefaultTrustEvaluator(trustStore: store), requirement: .required, trustStore: store)
/// ```
///
/// The engine asks every server for a staple when this evaluator is configured, and evaluates
/// once the handshake has delivered the certificates and the staple (or its absence), before any
/// request byte is sent. The base evaluator decides first; only a server it trusts has its
/// staple looked at. The staple is checked by ``StapledOCSPVerifier`` against the leaf and the
/// issuer that signed it (linked by verified signatures), and its responder must chain to
/// ``trustStore``.
public struct OCSPStaplingTrustEvaluator: ServerTrustEvaluating, Sendable {
    /// What happens when a server staples nothing.
    public enum Requirement: Sendable, Hashable {
        /// A server that staples nothing is refused (``ServerTrustError/Code/ocspResponseMissing``).
        /// Use it for servers you run and know to staple: most public servers do not, and a server
        /// whose responder is down may stop stapling for hours.
        case required
        /// A server that staples nothing is trusted on the base evaluator's word; a staple that
        /// is there must be valid and say "good".
        case ifPresent
    }

    /// The evaluator that decides on the chain, host and pins first.
    public let base: any ServerTrustEvaluating
    /// Whether a staple is required.
    public var requirement: Requirement
    /// Checks the staple; its trust store holds the anchors the responder must chain to.
    public var verifier: StapledOCSPVerifier

    /// Wraps `base`. `trustStore` holds the anchors the OCSP responder's certificate must chain
    /// to, normally the same store `base` validates the server against; `allowedClockSkew` is
    /// how far, in seconds, the response's validity window may be off the local clock.
    public init(
        base: any ServerTrustEvaluating,
        requirement: Requirement,
        trustStore: TrustStore = .system,
        allowedClockSkew: TimeInterval = 300
    ) {
        self.base = base
        self.requirement = requirement
        self.verifier = StapledOCSPVerifier(trustStore: trustStore, allowedClockSkew: allowedClockSkew)
    }

    /// The anchors the OCSP responder must chain to.
    public var trustStore: TrustStore { verifier.trustStore }

    /// Always `true`: the engine asks servers for a staple.
    public var requestsOCSPStapling: Bool { true }

    /// `true` when a staple is required (it means nothing over plain HTTP) or `base` requires HTTPS.
    public var requiresSecureTransport: Bool { requirement == .required || base.requiresSecureTransport }

    /// Accepts `trust` when `base` does and the staple is valid and "good" (or, with
    /// ``Requirement/ifPresent``, absent). Throws `base`'s error, or a ``ServerTrustError``:
    /// ``ServerTrustError/Code/ocspResponseMissing``, ``ServerTrustError/Code/revoked`` or
    /// ``ServerTrustError/Code/ocspResponseInvalid``.
    public func evaluate(_ trust: ServerTrust) throws {
        try base.evaluate(trust)
        try checkStaple(trust)
    }

    /// The stapling half of ``evaluate(_:)``, for a chain `base` has already accepted.
    func checkStaple(_ trust: ServerTrust) throws(ServerTrustError) {
        guard let response = trust.stapledOCSPResponse else {
            guard requirement == .ifPresent else {
                throw ServerTrustError(
                    .ocspResponseMissing,
                    "Server \(trust.host) stapled no OCSP response, and one is required",
                    host: trust.host
                )
            }
            return
        }
        // The base evaluator has decided trust; this only finds the certificate that signed the
        // leaf, which the response's certificate ID names. Signatures are still verified, so a
        // certificate the server merely sent cannot pose as the issuer.
        let presented = try PresentedChain(trust)
        let chain = try ChainVerifier(trustStore: verifier.trustStore, leniency: .allowsUntrustedAndDates).verify(
            presented
        )
        try verifier.verify(response, for: chain, host: trust.host)
    }
}
