extension HTTPSessionManager {
    /// The monitors of ``session``, which observe the tasks created from now on.
    public var eventMonitors: [any EventMonitor] { session.eventMonitors }

    /// Adds a monitor to ``session``: it observes every task created afterwards, including those
    /// of the verb methods. Add monitors right after creating the manager to see every task.
    ///
    /// ```swift
    /// let manager = HTTPSessionManager(baseURL: base)
    /// manager.addEventMonitor(LoggingEventMonitor())
    /// ```
    public func addEventMonitor(_ monitor: any EventMonitor) {
        session.addEventMonitor(monitor)
    }
}
