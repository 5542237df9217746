/// Observes the life of every task of a ``SessionManager``: a logger, a metrics collector and a
/// tracer may all watch the same manager, where the `set…` hooks hold one closure each.
///
/// Every event has a no-op default, so a monitor implements only what it needs. Events are
/// delivered asynchronously on the monitor's ``queue``, never on the engine thread: a slow
/// monitor delays only itself (its queue fills up, the transfer goes on). Because each event is
/// queued in the order the task reaches it, a monitor with a serial queue sees the events of one
/// task in lifecycle order:
///
/// created → resumed → (adapted) → transfer created → (challenged) → (redirected)* →
/// (body sent)* → response received → (data)* → metrics → serialized → finished
///
/// with suspended, resumed and cancelled wherever they happen, and retried between two
/// attempts. Monitors cannot change a task; use the hooks and interceptors for that.
///
/// ```swift
/// struct Timer: EventMonitor {
///     let queue = DispatchQueue(label: "app.timer")
///     func task(_ task: SessionTask, didFinishCollecting metrics: TaskMetrics) {
///         print(task.taskIdentifier, metrics.totalDuration)
///     }
/// }
/// let manager = SessionManager(eventMonitors: [Timer(), LoggingEventMonitor()])
/// ```
///
/// See docs/monitors.md.
public protocol EventMonitor: Sendable {
    /// The queue this monitor's events run on. Return the same serial queue every time (store
    /// it): the manager reads it once, when the monitor is installed. Defaults to
    /// ``EventMonitorQueue/shared``, one serial queue shared by every monitor that keeps the
    /// default; a monitor that may block should have its own.
    var queue: DispatchQueue { get }

    /// A task was created with `request` (the request as given, before any adapter).
    func task(_ task: SessionTask, didCreateInitialRequest request: URLRequest)

    /// A request adapter turned `initial` into `adapted`, which is what will be sent.
    func task(_ task: SessionTask, didAdaptInitialRequest initial: URLRequest, to adapted: URLRequest)

    /// A request adapter failed on `initial`; the task completes with `error`.
    func task(_ task: SessionTask, didFailToAdaptInitialRequest initial: URLRequest, withError error: any Error)

    /// The engine-side transfer for `request` was created and handed to the engine: URLSession's
    /// "task created". Once per attempt, so again after a retry.
    func task(_ task: SessionTask, didCreateTransferFor request: URLRequest)

    /// The task was resumed (started, or continued after ``SessionTask/suspend()``).
    func taskDidResume(_ task: SessionTask)

    /// The task was suspended.
    func taskDidSuspend(_ task: SessionTask)

    /// The task was cancelled; it still finishes, with `URLError.cancelled`.
    func taskDidCancel(_ task: SessionTask)

    /// The engine is about to follow a redirect: `response` is the 3xx, `newRequest` what will
    /// be sent next (after the redirect hook, if one is set).
    func task(_ task: SessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest: URLRequest)

    /// A server-trust challenge arrived in a TLS handshake. Emitted only when Gannet decides
    /// trust (a `serverTrustEvaluator` or a challenge handler is set); libcurl's own
    /// verification raises no challenge. Whether the server was trusted shows in the task's error.
    func task(_ task: SessionTask, didReceiveServerTrustChallenge trust: ServerTrust)

    /// Request body bytes were handed to the connection: `bytesSent` now, `totalBytesSent` so
    /// far, `totalBytesExpectedToSend` in all (`-1` when unknown).
    func task(
        _ task: SessionTask,
        didSendBodyData bytesSent: Int64,
        totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    )

    /// The final response's head arrived (a 3xx only when it is delivered, not followed).
    func task(_ task: SessionTask, didReceiveResponse response: HTTPURLResponse)

    /// A chunk of the response body arrived (after decoding), for every kind of task. The bytes
    /// are copied for monitors only when at least one monitor is installed.
    func task(_ task: SessionTask, didReceiveData data: Data)

    /// The transfer ended and its metrics are final. Not emitted for a task that never reached
    /// the engine (cancelled before it started, or created on an invalidated manager).
    func task(_ task: SessionTask, didFinishCollecting metrics: TaskMetrics)

    /// An attempt failed (`failedAttempt`: its response or its error) and a retrier asked for
    /// attempt number `attempt` (2 for the first retry), to start after `delay` seconds
    /// (docs/interceptors.md).
    func task(_ task: SessionTask, willRetry attempt: Int, after delay: TimeInterval, failedAttempt: FailedAttempt)

    /// The response serializer ran; `response` is what the completion handler receives.
    func task<Output: Sendable>(_ task: SessionTask, didSerialize response: DataResponse<Output>)

    /// The completion handler returned; the last event of a task. `error` is the task's final
    /// error (transport or serialization), `nil` on success.
    func task(_ task: SessionTask, didFinishWith error: (any Error)?)
}

/// The queue monitors run on unless they name their own.
public enum EventMonitorQueue {
    /// One serial queue shared by every monitor that keeps the default ``EventMonitor/queue``.
    public static let shared = DispatchQueue(label: "gannet.event-monitor")
}

extension EventMonitor {
    /// Defaults to ``EventMonitorQueue/shared``.
    public var queue: DispatchQueue { EventMonitorQueue.shared }

    /// Does nothing.
    public func task(_ task: SessionTask, didCreateInitialRequest request: URLRequest) {}
    /// Does nothing.
    public func task(_ task: SessionTask, didAdaptInitialRequest initial: URLRequest, to adapted: URLRequest) {}
    /// Does nothing.
    public func task(_ task: SessionTask, didFailToAdaptInitialRequest initial: URLRequest, withError error: any Error)
    {}
    /// Does nothing.
    public func task(_ task: SessionTask, didCreateTransferFor request: URLRequest) {}
    /// Does nothing.
    public func taskDidResume(_ task: SessionTask) {}
    /// Does nothing.
    public func taskDidSuspend(_ task: SessionTask) {}
    /// Does nothing.
    public func taskDidCancel(_ task: SessionTask) {}
    /// Does nothing.
    public func task(_ task: SessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest: URLRequest)
    {}
    /// Does nothing.
    public func task(_ task: SessionTask, didReceiveServerTrustChallenge trust: ServerTrust) {}
    /// Does nothing.
    public func task(
        _ task: SessionTask,
        didSendBodyData bytesSent: Int64,
        totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {}
    /// Does nothing.
    public func task(_ task: SessionTask, didReceiveResponse response: HTTPURLResponse) {}
    /// Does nothing.
    public func task(_ task: SessionTask, didReceiveData data: Data) {}
    /// Does nothing.
    public func task(_ task: SessionTask, didFinishCollecting metrics: TaskMetrics) {}
    /// Does nothing.
    public func task(
        _ task: SessionTask,
        willRetry attempt: Int,
        after delay: TimeInterval,
        failedAttempt: FailedAttempt
    ) {}
    /// Does nothing.
    public func task<Output: Sendable>(_ task: SessionTask, didSerialize response: DataResponse<Output>) {}
    /// Does nothing.
    public func task(_ task: SessionTask, didFinishWith error: (any Error)?) {}
}
