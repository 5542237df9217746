internal import Synchronization

/// How a task's response reaches its completion handler (``ResponsePipeline``).
enum Delivery: Sendable {
    /// On the completion queue, inside the completion group: the completion-handler API.
    case queued
    /// At once, where the response was serialized (the engine thread for the passthrough
    /// serializer): the handler only hands the response on. `gannetTaskDidComplete` follows
    /// on the processing queue.
    case direct
    /// As ``direct``, with `gannetTaskDidComplete` left in the ``PendingNotification`` for the
    /// caller who awaits the response to post when it resumes.
    case awaited(PendingNotification)
}

/// The `gannetTaskDidComplete` post of an awaited task. The async API posts it from the
/// awaiting caller's task, after the response resumed it and before the call returns: a post
/// from the processing queue woke a thread for every response, a third of the context switches
/// of a sequential exchange (`perf stat`, docs/performance.md). So when `await` returns, the
/// notification has been posted.
final class PendingNotification: Sendable {
    private let notify = Mutex<(@Sendable () -> Void)?>(nil)

    /// Keeps `notify` for ``post()``; called once, before the response resumes the caller.
    func leave(_ notify: @escaping @Sendable () -> Void) {
        self.notify.withLock { $0 = notify }
    }

    /// Posts the notification left, if any, once.
    func post() {
        let notify = self.notify.withLock { stored -> (@Sendable () -> Void)? in
            defer { stored = nil }
            return stored
        }
        notify?()
    }
}
