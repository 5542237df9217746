extension SessionManager {
    /// A new manager set up as this one is now: the same configuration, hooks (the challenge
    /// handler, a replaced trust evaluator), event monitors, response serializer, completion
    /// queue and group, and interceptor, with its own engine, connection pool and no tasks.
    /// Used by `HTTPSessionManager.invalidateSession(cancelingTasks:resetSession:)`; call it before
    /// invalidating this manager, which drops the hooks once its tasks are done.
    package func successor() -> SessionManager {
        let next = SessionManager(configuration: configuration)
        let currentHooks = hooks.withLock { $0 }
        next.hooks.withLock { $0 = currentHooks }
        let monitors = eventMonitorStore.withLock { $0 }
        next.eventMonitorStore.withLock { $0 = monitors }
        next.responseSerializer = responseSerializer
        next.completionQueue = completionQueue
        next.completionGroup = completionGroup
        next.interceptor = interceptor
        return next
    }
}
