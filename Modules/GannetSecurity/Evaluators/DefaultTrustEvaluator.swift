/// Validates the chain against a trust store and the leaf against the requested host: what a
/// browser does, and what every other evaluator builds on.
///
/// ```swift
/// configuration.tls.serverTrustEvaluator = DefaultTrustEvaluator(trustStore: try .caFile("ca.pem"))
/// ```
public struct DefaultTrustEvaluator: ServerTrustEvaluating, Sendable {
    /// The anchors a chain must lead to.
    public var trustStore: TrustStore
    /// Whether the leaf must be valid for the requested host name or IP address.
    public var validatesHost: Bool

    /// Creates an evaluator; by default it trusts the system store and checks the host.
    public init(trustStore: TrustStore = .system, validatesHost: Bool = true) {
        self.trustStore = trustStore
        self.validatesHost = validatesHost
    }

    /// Accepts `trust` when its chain verifies and, if asked, its leaf matches the host.
    public func evaluate(_ trust: ServerTrust) throws {
        _ = try verifiedChain(for: trust)
    }

    /// The chain OpenSSL verified, leaf first and anchor last, for evaluators of your own that
    /// go on to check more (pins, revocation): compare against this, never against
    /// `trust.certificateChain`, which is only what the server sent.
    public func verifiedChain(for trust: ServerTrust) throws(ServerTrustError) -> [Certificate] {
        let presented = try PresentedChain(trust)
        let chain = try ChainVerifier(trustStore: trustStore).verify(presented)
        if validatesHost { try HostNameCheck.check(chain[0], host: trust.host, chain: chain) }
        return chain
    }
}
