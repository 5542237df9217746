/// The interceptor one task runs: the manager's, then the task's own (docs/interceptors.md),
/// held by reference. A task tests for it when it starts and when it completes, and passes it
/// on; an optional existential is copied through its value witnesses at each test and pass,
/// which cost about 800 instructions a task that had none at all (callgrind,
/// docs/performance.md). A reference is tested and passed for the price of a pointer.
final class TaskInterceptor: Sendable {
    let base: any RequestInterceptor
    /// Whether ``base`` sends every request unchanged (``Interceptor/adaptsNothing(_:)``):
    /// answered once, as it takes two dynamic casts.
    let adaptsNothing: Bool

    init(_ base: any RequestInterceptor) {
        self.base = base
        adaptsNothing = Interceptor.adaptsNothing(base)
    }

    /// The manager's interceptor followed by the task's; `nil` when there is neither.
    static func combining(_ manager: TaskInterceptor?, _ task: (any RequestInterceptor)?) -> TaskInterceptor? {
        guard let task else { return manager }
        guard let manager else { return TaskInterceptor(task) }
        return TaskInterceptor(Interceptor(interceptors: [manager.base, task]))
    }
}
