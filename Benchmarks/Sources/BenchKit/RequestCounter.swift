internal import Dispatch
internal import Synchronization

/// Hands out request slots for a completion-handler driven GET run and counts the outcomes,
/// from any thread. `C` requests start at once; each completion starts the next until `N`
/// have been started, and the last completion opens ``wait()``.
public final class RequestCounter: Sendable {
    private struct State {
        var started = 0
        var finished = 0
        var errors = 0
    }

    private let total: Int
    private let state = Mutex(State())
    private let done = DispatchSemaphore(value: 0)

    /// Counts a run of `total` requests.
    public init(total: Int) { self.total = total }

    /// Claims the next request slot; `false` once all were handed out.
    public func claim() -> Bool {
        state.withLock { state in
            guard state.started < total else { return false }
            state.started += 1
            return true
        }
    }

    /// Records one finished request.
    public func finish(ok: Bool) {
        let last = state.withLock { state -> Bool in
            state.finished += 1
            if !ok { state.errors += 1 }
            return state.finished == total
        }
        if last { done.signal() }
    }

    /// Waits for the last completion; returns the error count.
    public func wait() -> Int {
        done.wait()
        return state.withLock { $0.errors }
    }
}
