public import GannetCore
public import ServiceLifecycle

/// A swift-service-lifecycle `Service` that owns session managers and shuts them down with the
/// service group (docs/integrations.md, "swift-service-lifecycle").
///
/// Until graceful shutdown the service only waits. On graceful shutdown (a signal the group's
/// configuration names, or `ServiceGroup.triggerGracefulShutdown()`) it calls
/// ``SessionManager/finishTasksAndInvalidate()`` on every manager: from then on a new task fails
/// (a `URLError` whose underlying error is `GannetError.sessionInvalidated`), and the tasks in
/// flight go on. When they have all
/// finished, or ``gracePeriod`` is over, whichever comes first, it calls
/// ``SessionManager/invalidateAndCancel()``, which cancels what is left (those tasks end with
/// `sessionInvalidated`) and stops each engine, and returns. If the service is cancelled instead
/// (a cancellation signal, another service failing), it invalidates and cancels at once.
///
/// ```swift
/// let manager = SessionManager()
/// let group = ServiceGroup(
///     services: [SessionManagerService(managers: [manager]), server],
///     gracefulShutdownSignals: [.sigterm],
///     logger: logger
/// )
/// try await group.run()
/// ```
///
/// Put it after the services that use the managers: a group shuts its services down in reverse
/// order, so the managers then stop only once nothing can hand them new work.
public struct SessionManagerService: Service {
    /// The managers shut down together.
    public let managers: [SessionManager]
    /// How long tasks in flight may take to finish after graceful shutdown began.
    public let gracePeriod: Duration
    /// How often the managers are checked for tasks left while draining: GannetCore reports an
    /// invalidated manager's last task by no event, so the service looks.
    public let pollInterval: Duration

    /// Owns `managers`; tasks in flight get `gracePeriod` to finish once shutdown begins.
    public init(
        managers: [SessionManager],
        gracePeriod: Duration = .seconds(30),
        pollInterval: Duration = .milliseconds(20)
    ) {
        self.managers = managers
        self.gracePeriod = gracePeriod
        self.pollInterval = pollInterval
    }

    /// Waits for graceful shutdown, drains the managers, then invalidates them.
    public func run() async throws {
        do {
            try await gracefulShutdown()
        } catch {
            // Cancelled rather than shut down: nothing waits for the tasks any more.
            for manager in managers { manager.invalidateAndCancel() }
            throw error
        }
        for manager in managers { manager.finishTasksAndInvalidate() }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: gracePeriod)
        while managers.contains(where: { !$0.tasks.isEmpty }), clock.now < deadline, !Task.isCancelled {
            try? await Task.sleep(for: pollInterval, clock: clock)
        }
        for manager in managers { manager.invalidateAndCancel() }
    }
}
