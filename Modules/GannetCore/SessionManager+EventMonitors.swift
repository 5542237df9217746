extension SessionManager {
    /// The monitors that observe tasks created from now on, in the order they were given.
    /// Empty once an invalidated manager has finished its last task (it drops them, as it drops
    /// its hooks, since a monitor may hold the manager).
    public var eventMonitors: [any EventMonitor] {
        eventMonitorStore.withLock { $0?.all ?? [] }
    }

    /// Adds a monitor. Each task keeps the monitors the manager had when the task was created,
    /// so `monitor` sees every event of tasks created afterwards and none of earlier ones:
    /// a monitor never sees a task's life from the middle.
    public func addEventMonitor(_ monitor: any EventMonitor) {
        addEventMonitors([monitor])
    }

    /// Adds several monitors; see ``addEventMonitor(_:)``.
    public func addEventMonitors(_ monitors: [any EventMonitor]) {
        eventMonitorStore.withLock { $0 = CompositeEventMonitor(($0?.all ?? []) + monitors) }
    }
}
