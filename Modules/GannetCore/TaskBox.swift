internal import Synchronization

/// Holds a task created after the code that needs it: the completion handler that is made
/// before its task, the cancellation handler of an async call, a command's Ctrl-C. A
/// ``cancel()`` that comes before ``set(_:)`` still lands: the task is cancelled as it is set.
package final class TaskBox: Sendable {
    private let state = Mutex<(task: SessionTask?, cancelled: Bool)>((nil, false))

    /// An empty box.
    package init() {}

    /// The task, once set.
    package var task: SessionTask? { state.withLock { $0.task } }

    /// Stores `task`, cancelling it at once when ``cancel()`` came first.
    package func set(_ task: SessionTask) {
        let cancelled = state.withLock { state -> Bool in
            state.task = task
            return state.cancelled
        }
        if cancelled { task.cancel() }
    }

    /// Cancels the task, or the task ``set(_:)`` stores later.
    package func cancel() {
        let task = state.withLock { state -> SessionTask? in
            state.cancelled = true
            return state.task
        }
        task?.cancel()
    }
}
