/// The monitors of one task, fanned out: each event is queued on every monitor's queue and the
/// caller goes on at once. Never built for a manager without monitors, so a task holds `nil` and
/// the engine's hot paths pay one nil check (docs/monitors.md).
///
/// Every method only enqueues; none runs monitor code on the calling thread, which is what lets
/// the engine thread and locked sections emit.
final class CompositeEventMonitor: Sendable {
    private let monitors: [(monitor: any EventMonitor, queue: DispatchQueue)]

    /// `nil` for no monitors. Reads each monitor's queue once, so every event of a monitor goes
    /// to the same queue even if its `queue` property is computed.
    init?(_ monitors: [any EventMonitor]) {
        guard !monitors.isEmpty else { return nil }
        self.monitors = monitors.map { ($0, $0.queue) }
    }

    var all: [any EventMonitor] { monitors.map(\.monitor) }

    private func emit(_ event: @escaping @Sendable (any EventMonitor) -> Void) {
        for (monitor, queue) in monitors {
            queue.async { event(monitor) }
        }
    }

    func didCreateInitialRequest(_ task: SessionTask, _ request: URLRequest) {
        emit { $0.task(task, didCreateInitialRequest: request) }
    }

    /// For the request adapter: after it turned `initial` into `adapted`.
    func didAdapt(_ task: SessionTask, _ initial: URLRequest, to adapted: URLRequest) {
        emit { $0.task(task, didAdaptInitialRequest: initial, to: adapted) }
    }

    /// For the request adapter: after it threw.
    func didFailToAdapt(_ task: SessionTask, _ initial: URLRequest, error: any Error) {
        emit { $0.task(task, didFailToAdaptInitialRequest: initial, withError: error) }
    }

    func didCreateTransfer(_ task: SessionTask, for request: URLRequest) {
        emit { $0.task(task, didCreateTransferFor: request) }
    }

    func didResume(_ task: SessionTask) { emit { $0.taskDidResume(task) } }
    func didSuspend(_ task: SessionTask) { emit { $0.taskDidSuspend(task) } }
    func didCancel(_ task: SessionTask) { emit { $0.taskDidCancel(task) } }

    /// `response` is built on the monitors' queue, the first time one of them needs it: never
    /// on the engine thread.
    func willRedirect(_ task: SessionTask, _ response: LazyResponse, to request: URLRequest) {
        emit { monitor in
            guard let response = response.value else { return }
            monitor.task(task, willPerformHTTPRedirection: response, newRequest: request)
        }
    }

    func didReceiveChallenge(_ task: SessionTask, _ trust: ServerTrust) {
        emit { $0.task(task, didReceiveServerTrustChallenge: trust) }
    }

    func didSendBodyData(_ task: SessionTask, _ bytes: Int64, total: Int64, expected: Int64) {
        emit { $0.task(task, didSendBodyData: bytes, totalBytesSent: total, totalBytesExpectedToSend: expected) }
    }

    /// Like ``willRedirect(_:_:to:)``, the response is built off the engine thread.
    func didReceiveResponse(_ task: SessionTask, _ response: LazyResponse) {
        emit { monitor in
            guard let response = response.value else { return }
            monitor.task(task, didReceiveResponse: response)
        }
    }

    func didReceiveData(_ task: SessionTask, _ data: Data) {
        emit { $0.task(task, didReceiveData: data) }
    }

    func didFinishCollecting(_ task: SessionTask, _ metrics: TaskMetrics) {
        emit { $0.task(task, didFinishCollecting: metrics) }
    }

    /// For the retrier: before attempt `attempt` waits `delay` seconds and starts.
    func willRetry(_ task: SessionTask, attempt: Int, after delay: TimeInterval, failedAttempt: FailedAttempt) {
        emit { $0.task(task, willRetry: attempt, after: delay, failedAttempt: failedAttempt) }
    }

    func didSerialize<Output: Sendable>(_ task: SessionTask, _ response: DataResponse<Output>) {
        emit { $0.task(task, didSerialize: response) }
    }

    func didFinish(_ task: SessionTask, error: (any Error)?) {
        emit { $0.task(task, didFinishWith: error) }
    }
}
