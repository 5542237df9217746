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

    /// Combines `evaluators`. An empty list would trust everything, so it is refused here
    /// rather than at the first handshake.
    public init(_ evaluators: [any ServerTrustEvaluating]) {
        precondition(!evaluators.isEmpty, "CompositeTrustEvaluator needs at least one evaluator")
        self.evaluators = evaluators
    }

    /// `true` when any member requires HTTPS.
    public var requiresSecureTransport: Bool { evaluators.contains { $0.requiresSecureTransport } }

    /// Accepts `trust` when every evaluator does.
    public func evaluate(_ trust: ServerTrust) throws {
        for evaluator in evaluators { try evaluator.evaluate(trust) }
    }
}
