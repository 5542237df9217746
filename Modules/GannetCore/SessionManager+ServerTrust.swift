extension SessionManager {
    /// The server trust evaluator tasks started now use: the last one given to
    /// ``setServerTrustEvaluator(_:)``, else the configuration's
    /// ``SessionConfiguration/TLS/serverTrustEvaluator``. `nil` means libcurl's own verification.
    public var serverTrustEvaluator: (any ServerTrustEvaluating)? {
        hooks.withLock { $0.serverTrustEvaluatorOverride } ?? configuration.tls.serverTrustEvaluator
    }

    /// Replaces the server trust evaluator on a live manager (AFNetworking's `securityPolicy`
    /// setter); `nil` returns to libcurl's own verification. Tasks started afterwards use it, and
    /// a pooled connection that an earlier evaluator approved is asked about again by this one
    /// before it carries another request, as when the challenge handler changes (docs/security.md).
    ///
    /// ```swift
    /// manager.setServerTrustEvaluator(policy)
    /// ```
    public func setServerTrustEvaluator(_ evaluator: (any ServerTrustEvaluating)?) {
        hooks.withLock {
            $0.serverTrustEvaluatorOverride = .some(evaluator)
            $0.trustGeneration &+= 1
        }
    }
}
