extension HTTPSessionManager {
    /// A new manager equivalent to this one, as AFNetworking's `copyWithZone:` makes: the same
    /// ``baseURL``, a new session from the same `SessionConfiguration` (its own engine thread and
    /// connection pool: nothing in flight is shared), copies of the ``requestSerializer`` and
    /// ``responseSerializer`` (values, so changing one manager's leaves the other's alone), and
    /// the ``securityPolicy`` in force now, also when it was set by ``setSecurityPolicy(_:)``.
    ///
    /// As in AFNetworking, the session's hooks, completion queue and group, and tasks are not
    /// copied.
    ///
    /// ```swift
    /// let other = manager.copy()
    /// other.requestSerializer.setValue("b", forHTTPHeaderField: "X-Variant")
    /// ```
    public func copy() -> HTTPSessionManager {
        var configuration = session.configuration
        // The policy in force, which setSecurityPolicy(_:) may have replaced since init; the
        // original already met its HTTPS requirement with the same base URL.
        configuration.tls.serverTrustEvaluator = securityPolicy
        let copy = HTTPSessionManager(baseURL: baseURL, configuration: configuration)
        copy.requestSerializer = requestSerializer
        copy.responseSerializer = responseSerializer
        return copy
    }
}
