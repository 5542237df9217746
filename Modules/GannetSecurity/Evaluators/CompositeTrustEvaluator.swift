/// Runs several evaluators in order; the server is trusted only when all of them accept it.
/// The first rejection is the error.
///
/// ```swift
/// let evaluator = CompositeTrustEvaluator([
///     DefaultTrustEvaluator(),                               // a publicly trusted chain…
///     PinnedCertificatesTrustEvaluator(certificates: [ca]),  // …that also leads to our CA
/// ])
/// ```
public struct CompositeTrustEvaluator: ServerTrustEvaluating, Sendable {
    /// The evaluators, run in this order.
    public let evaluators: [any ServerTrustEvaluating]

    /// Combines `evaluators`. An empty list refuses every server: "all of nothing" must not
    /// quietly mean "trust everything".
    public init(_ evaluators: [any ServerTrustEvaluating]) {
        self.evaluators = evaluators
    }

    /// `true` when any member requires HTTPS.
    public var requiresSecureTransport: Bool { evaluators.contains { $0.requiresSecureTransport } }

    /// `true` when any member wants the stapled OCSP response; every member then sees it.
    public var requestsOCSPStapling: Bool { evaluators.contains { $0.requestsOCSPStapling } }

    /// Accepts `trust` when every evaluator does.
    public func evaluate(_ trust: ServerTrust) throws {
        guard !evaluators.isEmpty else {
            throw ServerTrustError(
                .invalidConfiguration,
                "A composite evaluator without members trusts no server",
                host: trust.host
            )
        }
        for evaluator in evaluators { try evaluator.evaluate(trust) }
    }
}
