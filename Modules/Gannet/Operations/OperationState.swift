/// The state of one ``HTTPRequestOperation``, as a value whose transitions say what to do; the
/// operation keeps it in a Mutex and acts outside the lock.
struct OperationState: Sendable {
    enum Phase: Sendable { case ready, executing, finished }

    /// What `start()` does with the task it created.
    enum StartAction { case resume, cancel, hold }

    var phase = Phase.ready
    var task: SessionTask?
    var isPaused = false
    var outcome: DataResponse<(any Sendable)?>?

    /// Moves to executing; `false` when the operation already started.
    mutating func begin() -> Bool {
        guard phase == .ready else { return false }
        phase = .executing
        return true
    }

    /// Keeps the task `start()` created and says what to do with it.
    mutating func adopt(_ task: SessionTask, cancelled: Bool) -> StartAction {
        self.task = task
        if cancelled { return .cancel }
        return isPaused ? .hold : .resume
    }

    /// Records a pause; returns the task to suspend, if it is running.
    mutating func pause() -> SessionTask? {
        guard phase != .finished else { return nil }
        isPaused = true
        return task
    }

    /// Records a resume; returns the task to resume, if there is one.
    mutating func unpause() -> SessionTask? {
        guard phase != .finished, isPaused else { return nil }
        isPaused = false
        return task
    }

    /// Moves to finished with `response`; `false` when it already finished.
    mutating func end(with response: DataResponse<(any Sendable)?>) -> Bool {
        guard phase == .executing else { return false }
        phase = .finished
        outcome = response
        return true
    }
}
