internal import Synchronization

/// Hands a task to its own completion handler: the handler is created before the task, and
/// runs only after `resume()`, by which time the reference is set.
final class TaskReference: Sendable {
    private let storage = Mutex<SessionTask?>(nil)

    var task: SessionTask? {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}
