/// Chooses an evaluator per host: exact names first, then the most specific wildcard pattern
/// (``HostPattern`` syntax), then the default.
///
/// ```swift
/// let manager = try ServerTrustManager(evaluators: [
///     "api.example.com": PublicKeysTrustEvaluator(pins: apiPins),
///     "*.internal.example.com": DefaultTrustEvaluator(trustStore: try .caFile("corp-ca.pem")),
/// ])
/// configuration.tls.serverTrustEvaluator = manager
/// ```
///
/// Installing any evaluator turns libcurl's own verification off, so hosts without an entry
/// are not left unverified: they get `defaultEvaluator`, ``DefaultTrustEvaluator`` unless you
/// say otherwise, or are refused when it is `nil`.
public struct ServerTrustManager: ServerTrustEvaluating, Sendable {
    private struct Entry: Sendable {
        let pattern: HostPattern
        let evaluator: any ServerTrustEvaluating
    }

    private let entries: [Entry]
    /// The evaluator for hosts without an entry; `nil` refuses them.
    public let defaultEvaluator: (any ServerTrustEvaluating)?

    /// Creates a manager from host patterns and their evaluators.
    public init(
        evaluators: [String: any ServerTrustEvaluating],
        default defaultEvaluator: (any ServerTrustEvaluating)? = DefaultTrustEvaluator()
    ) throws(PinError) {
        var entries: [Entry] = []
        for (pattern, evaluator) in evaluators.sorted(by: { $0.key < $1.key }) {
            entries.append(Entry(pattern: try HostPattern(pattern), evaluator: evaluator))
        }
        self.entries = entries
        self.defaultEvaluator = defaultEvaluator
    }

    /// The evaluator that decides for `host`, or `nil` when the host is refused.
    public func evaluator(for host: String) -> (any ServerTrustEvaluating)? {
        let best = entries.filter { $0.pattern.matches(host) }
            .max { $0.pattern.specificity < $1.pattern.specificity }
        return best?.evaluator ?? defaultEvaluator
    }

    /// `true` when any of the evaluators requires HTTPS.
    public var requiresSecureTransport: Bool {
        entries.contains { $0.evaluator.requiresSecureTransport } || defaultEvaluator?.requiresSecureTransport == true
    }

    /// `true` when any of the evaluators wants the stapled OCSP response: the engine then asks
    /// every server for one, and the evaluators that do not look at it ignore it.
    public var requestsOCSPStapling: Bool {
        entries.contains { $0.evaluator.requestsOCSPStapling } || defaultEvaluator?.requestsOCSPStapling == true
    }

    /// Hands `trust` to the evaluator for its host.
    public func evaluate(_ trust: ServerTrust) throws {
        guard let evaluator = evaluator(for: trust.host) else {
            throw ServerTrustError(
                .noEvaluator,
                "No trust evaluator is configured for \(trust.host), and there is no default",
                host: trust.host
            )
        }
        try evaluator.evaluate(trust)
    }
}
