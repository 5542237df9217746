extension SessionConfiguration {
    /// Whether a manager's transfers run on a thread shared with other managers
    /// (``SessionConfiguration/engine``).
    ///
    /// ```swift
    /// var configuration = SessionConfiguration.default
    /// configuration.engine = .dedicated  // a thread and a multi handle of its own
    /// let manager = SessionManager(configuration: configuration)
    /// ```
    public enum EngineSharing: Sendable, Hashable {
        /// One of ``EnginePool``'s threads, the least loaded among those whose libcurl
        /// connection-limit settings are this configuration's. A configuration with a
        /// ``SessionConfiguration/maximumConnectionsPerHost`` other than `0` gets a thread of its
        /// own anyway, so that its limit applies to its connections exactly as libcurl defines it.
        case shared
        /// A thread of the manager's own, ended when the manager is invalidated or released.
        case dedicated
    }
}
