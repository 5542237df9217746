internal import Synchronization

/// A `text/event-stream` subscription, as a browser's `EventSource`: events as an
/// `AsyncSequence` (``events``) or as callbacks on a queue (``start(queue:onOpen:onEvent:onComplete:)``),
/// reconnecting when the connection drops, with `Last-Event-ID` and the server's `retry:` delay
/// (docs/streaming.md).
///
/// ```swift
/// let source = manager.eventSource(for: URLRequest(url: URL(string: "https://example.com/updates")!))
/// for try await event in source.events {
///     print(event.type, event.data)
/// }
/// ```
///
/// What ends it, as WHATWG HTML §9.2 says:
/// - a `204 No Content` answer: the sequence ends without an error (the server's "stop");
/// - any other status than 200: `StreamingError(.unexpectedStatus)`, no reconnection;
/// - a 200 whose `Content-Type` is not `text/event-stream`: `StreamingError(.notEventStream)`;
/// - a line or an event over ``Configuration/maximumEventBytes``: `.lineTooLong` / `.eventTooLarge`;
/// - a transport failure that another attempt cannot cure (TLS, an invalid request): its `URLError`;
/// - ``cancel()``, or cancelling the Swift task that iterates: the sequence ends.
///
/// A dropped connection (the body ends, or the connection is lost or refused, or times out)
/// is reconnected after the reconnection delay: ``Configuration/reconnectionDelay`` until the
/// server sends `retry:`, then the server's. The body streams through the engine's backpressure
/// (`bytes(for:)`): a slow consumer stops the reading of the socket, never grows a buffer.
public final class EventSource: Sendable {
    /// How an event source connects and what it accepts.
    public struct Configuration: Sendable {
        /// Seconds before a reconnection until the server's `retry:` sets it; 3 by default
        /// (WHATWG leaves it to the client; browsers wait a few seconds).
        public var reconnectionDelay: TimeInterval = 3
        /// The most bytes of one line and of one event's `data` (1 MiB by default).
        public var maximumEventBytes = EventStreamParser.defaultMaximumEventBytes
        /// How many reconnections in a row may deliver no event before the source gives up with
        /// `StreamingError(.reconnectionLimitReached)`; `nil` (the default) retries for ever, as
        /// browsers do.
        public var maximumReconnectionAttempts: Int?

        /// The defaults.
        public init() {}
    }

    /// The request of every connection; `Accept`, `Cache-Control` and `Last-Event-ID` are set
    /// on each attempt.
    public let request: URLRequest
    /// How the source connects.
    public let configuration: Configuration
    let manager: SessionManager

    private struct Shared {
        var lastEventID = ""
        var delay: TimeInterval
        var response: HTTPURLResponse?
        var cancelled = false
        var tasks: [Int: SessionTask] = [:]
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter = 0
        var driver: Task<Void, Never>?
    }

    private let shared: Mutex<Shared>

    init(manager: SessionManager, request: URLRequest, configuration: Configuration) {
        self.manager = manager
        self.request = request
        self.configuration = configuration
        shared = Mutex(Shared(delay: configuration.reconnectionDelay))
    }

    /// The last event ID so far: what the next reconnection sends as `Last-Event-ID`.
    public var lastEventID: String { shared.withLock { $0.lastEventID } }
    /// The current reconnection delay in seconds: the server's latest `retry:`, else the
    /// configuration's.
    public var reconnectionDelay: TimeInterval { shared.withLock { $0.delay } }
    /// The response of the latest connection that opened (status 200, `text/event-stream`).
    public var response: HTTPURLResponse? { shared.withLock { $0.response } }
    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { shared.withLock { $0.cancelled } }

    /// The events, connecting when iteration starts. Iterate it from one task at a time; a
    /// second iteration opens a connection of its own, starting from ``lastEventID``.
    public var events: AsyncThrowingStream<ServerSentEvent, any Error> {
        let reader = EventSourceReader(source: self, onOpen: nil)
        return AsyncThrowingStream { try await reader.next() }
    }

    /// Connects and calls `onOpen` for every connection that opens, `onEvent` for every event
    /// and `onComplete` once at the end (`nil` after a 204 or ``cancel()``, else the error), all
    /// on `queue`, in order.
    public func start(
        queue: DispatchQueue,
        onOpen: (@Sendable (HTTPURLResponse) -> Void)? = nil,
        onEvent: @escaping @Sendable (ServerSentEvent) -> Void,
        onComplete: (@Sendable ((any Error)?) -> Void)? = nil
    ) {
        var opened: (@Sendable (HTTPURLResponse) -> Void)?
        if let onOpen {
            opened = { response in queue.async { onOpen(response) } }
        }
        let reader = EventSourceReader(source: self, onOpen: opened)
        let driver = Task {
            var failure: (any Error)?
            do {
                while let event = try await reader.next() {
                    queue.async { onEvent(event) }
                }
            } catch {
                failure = error
            }
            let ending = failure
            queue.async { onComplete?(ending) }
        }
        let cancelled = shared.withLock { shared in
            shared.driver = driver
            return shared.cancelled
        }
        if cancelled { driver.cancel() }
    }

    /// Ends the source: the connection is cancelled, a pending reconnection is not made, and
    /// the sequence ends (callbacks: `onComplete(nil)`).
    public func cancel() {
        let (tasks, waiters, driver) = shared.withLock { shared in
            shared.cancelled = true
            defer {
                shared.tasks = [:]
                shared.waiters = [:]
            }
            return (Array(shared.tasks.values), Array(shared.waiters.values), shared.driver)
        }
        for task in tasks { task.cancel() }
        for waiter in waiters { waiter.resume() }
        driver?.cancel()
    }

    deinit {
        let (tasks, driver) = shared.withLock { (Array($0.tasks.values), $0.driver) }
        for task in tasks { task.cancel() }
        driver?.cancel()
    }

    // MARK: For the reader

    /// The request of the next attempt.
    func nextRequest() -> URLRequest {
        var request = self.request
        if request.value(forHTTPHeaderField: "Accept") == nil {
            request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
        }
        request.setValue("no-cache", forHTTPHeaderField: "Cache-Control")
        let id = lastEventID
        request.setValue(id.isEmpty ? nil : id, forHTTPHeaderField: "Last-Event-ID")
        return request
    }

    /// Registers the transfer of a connection so ``cancel()`` reaches it; `false` (and the task
    /// cancelled) when the source is cancelled already.
    func track(_ task: SessionTask) -> Bool {
        let cancelled = shared.withLock { shared in
            if !shared.cancelled { shared.tasks[task.taskIdentifier] = task }
            return shared.cancelled
        }
        if cancelled { task.cancel() }
        return !cancelled
    }

    func untrack(_ task: SessionTask) {
        _ = shared.withLock { $0.tasks.removeValue(forKey: task.taskIdentifier) }
    }

    func opened(_ response: HTTPURLResponse) { shared.withLock { $0.response = response } }

    func record(lastEventID: String) { shared.withLock { $0.lastEventID = lastEventID } }

    func record(retryMilliseconds: Int) {
        shared.withLock { $0.delay = Double(retryMilliseconds) / 1000 }
    }

    /// Waits the reconnection delay; returns early when the source or the task is cancelled.
    func waitBeforeReconnecting() async {
        let (delay, identifier) = shared.withLock { shared -> (TimeInterval, Int) in
            shared.nextWaiter += 1
            return (shared.delay, shared.nextWaiter)
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = shared.withLock { shared -> Bool in
                    if shared.cancelled || Task.isCancelled { return true }
                    shared.waiters[identifier] = continuation
                    return false
                }
                if now {
                    continuation.resume()
                    return
                }
                // A delay of days (a server's `retry:`) is kept as asked; cancel() still ends it.
                let nanoseconds = UInt64(min(max(delay, 0), 1e9) * 1e9)
                DispatchQueue.global().asyncAfter(
                    deadline: .now() + .nanoseconds(Int(min(nanoseconds, UInt64(Int.max))))
                ) {
                    self.wake(identifier)
                }
            }
        } onCancel: {
            self.wake(identifier)
        }
    }

    private func wake(_ identifier: Int) {
        shared.withLock { $0.waiters.removeValue(forKey: identifier) }?.resume()
    }
}

extension SessionManager {
    /// An event source for `request` on this manager: its configuration, interceptors, trust
    /// evaluation and event monitors apply to every connection (docs/streaming.md). Nothing
    /// is sent until ``EventSource/events`` is iterated or
    /// ``EventSource/start(queue:onOpen:onEvent:onComplete:)`` is called.
    ///
    /// ```swift
    /// let source = manager.eventSource(for: request)
    /// source.start(queue: .main) { event in print(event.data) }
    /// ```
    public func eventSource(
        for request: URLRequest,
        configuration: EventSource.Configuration = EventSource.Configuration()
    ) -> EventSource {
        EventSource(manager: self, request: request, configuration: configuration)
    }
}
