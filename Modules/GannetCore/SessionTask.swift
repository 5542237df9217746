internal import Synchronization

/// One HTTP exchange run by a ``SessionManager``: AFNetworking's `NSURLSessionTask`, backed by
/// Gannet's libcurl engine.
///
/// Tasks are created suspended; call ``resume()`` to start one. Every task completes exactly
/// once: with a response, an error, or `URLError.cancelled`.
public final class SessionTask: Sendable, Hashable, CustomStringConvertible {
    /// Where a task is in its life.
    public enum State: Int, Sendable {
        /// Sending or receiving.
        case running
        /// Created and not yet resumed, or suspended.
        case suspended
        /// ``cancel()`` was called and the task has not completed yet.
        case canceling
        /// Finished, successfully or not.
        case completed
    }

    /// What kind of task this is.
    public enum Kind: Sendable {
        /// The body is kept in memory.
        case data
        /// The body comes from a file or data given at creation.
        case upload
        /// The response body is streamed to a file.
        case download
        /// The rest of a data task's body, read through a ``SessionStreamTask``
        /// (``ResponseDisposition/becomeStream``).
        case stream
    }

    /// Unique within the process.
    public let taskIdentifier: Int
    /// What kind of task this is.
    public let kind: Kind
    /// The request the task was created with.
    public let originalRequest: URLRequest?
    /// Upload progress; cancelling, pausing or resuming it drives the task. Created on first
    /// access (most tasks never look), seeded from the task's counters.
    public var uploadProgress: Progress { progress(upload: true) }
    /// Download progress; cancelling, pausing or resuming it drives the task. Created on first
    /// access, seeded from the task's counters.
    public var downloadProgress: Progress { progress(upload: false) }
    private let progressStore = Mutex<(upload: Progress?, download: Progress?)>((nil, nil))

    /// The manager keeps running tasks, and a task keeps its manager, as URLSession does.
    let manager: SessionManager
    let body: BodySource?
    let sink: BodySinkKind
    let progressHandlers: ProgressHandlers
    let onComplete: @Sendable (SessionTask, consuming TransferOutcome) -> Void
    /// The manager's interceptor then the task's, `nil` for none (docs/interceptors.md).
    let interceptor: TaskInterceptor?
    /// The manager's monitors when the task was created; `nil` without any (docs/monitors.md).
    let monitor: CompositeEventMonitor?
    let storage: Mutex<Storage>

    // @unchecked: only reached through `storage` (a Mutex); the non-Sendable values it holds
    // (HTTPURLResponse, the error) are created once and never mutated afterwards.
    struct Storage: @unchecked Sendable {
        var state: State = .suspended
        var started = false
        var currentRequest: URLRequest?
        var response: HTTPURLResponse?
        var lazyResponse: LazyResponse?
        var error: (any Error)?
        var taskDescription: String?
        /// The engine's handle on the current attempt's transfer (docs/engine.md).
        var driver: (any TransferDriver)?
        /// Why the task was cancelled, kept for a transfer attached after the cancellation.
        var cancelReason: GannetError?
        var countOfBytesReceived: Int64 = 0
        var countOfBytesSent: Int64 = 0
        var countOfBytesExpectedToReceive: Int64 = -1
        var countOfBytesExpectedToSend: Int64 = 0
        /// Set while no transfer runs between two attempts: adapting, deciding, waiting.
        var interlude: Interlude?
        var interludeGeneration = 0
        var retryCount = 0
        var lastFailedAttempt: FailedAttempt?
        /// ``cancel(byProducingResumeData:)``'s handler, called once the task completed.
        var resumeDataHandler: (@Sendable (Data?) -> Void)?
        /// Bytes of the file a resumed download kept before this attempt's body.
        var resumedOffset: Int64 = 0
        /// ``SessionTask/credential`` and the task's own challenge handler.
        var credential: URLCredential?
        var authenticationChallenge: SessionHooks.AuthenticationChallengeHandler?
    }

    init(
        identifier: Int,
        kind: Kind,
        request: URLRequest,
        body: BodySource?,
        sink: BodySinkKind,
        manager: SessionManager,
        progress: ProgressHandlers,
        interceptor: TaskInterceptor? = nil,
        onComplete: @escaping @Sendable (SessionTask, consuming TransferOutcome) -> Void
    ) {
        progressHandlers = progress
        self.interceptor = interceptor
        self.sink = sink
        taskIdentifier = identifier
        self.kind = kind
        originalRequest = request
        self.body = body
        self.manager = manager
        self.onComplete = onComplete
        monitor = manager.eventMonitorStore.withLock { $0 }
        storage = Mutex(Storage(currentRequest: request, countOfBytesExpectedToSend: body == nil ? 0 : -1))
    }

    private func progress(upload: Bool) -> Progress {
        let counts = storage.withLock { storage in
            upload
                ? (storage.countOfBytesExpectedToSend, storage.countOfBytesSent)
                : (storage.countOfBytesExpectedToReceive, storage.countOfBytesReceived)
        }
        let (progress, created) = progressStore.withLock { store -> (Progress, Bool) in
            if let existing = upload ? store.upload : store.download { return (existing, false) }
            let progress = Progress(totalUnitCount: counts.0)
            if upload { store.upload = progress } else { store.download = progress }
            return (progress, true)
        }
        if created {
            progress.completedUnitCount = counts.1
            progress.isCancellable = true
            progress.isPausable = true
            progress.cancellationHandler = { [weak self] in self?.cancel() }
            progress.pausingHandler = { [weak self] in self?.suspend() }
            progress.resumingHandler = { [weak self] in self?.resume() }
        }
        return progress
    }

    /// The progress object if someone already asked for it.
    func existingProgress(upload: Bool) -> Progress? {
        progressStore.withLock { upload ? $0.upload : $0.download }
    }

    /// The request being sent now; differs from ``originalRequest`` after a redirect.
    public var currentRequest: URLRequest? { storage.withLock { $0.currentRequest } }
    /// The response, once its headers arrived.
    public var response: URLResponse? {
        let (eager, lazy) = storage.withLock { ($0.response, $0.lazyResponse) }
        return eager ?? lazy?.value
    }
    /// The error the task completed with, if any.
    public var error: (any Error)? { storage.withLock { $0.error } }
    /// Where the task is in its life.
    public var state: State { storage.withLock { $0.state } }
    /// Body bytes received so far (after decoding).
    public var countOfBytesReceived: Int64 { storage.withLock { $0.countOfBytesReceived } }
    /// Body bytes sent so far.
    public var countOfBytesSent: Int64 { storage.withLock { $0.countOfBytesSent } }
    /// The expected response body length, `-1` when unknown.
    public var countOfBytesExpectedToReceive: Int64 { storage.withLock { $0.countOfBytesExpectedToReceive } }
    /// The request body length, `-1` when unknown (a stream sent chunked).
    public var countOfBytesExpectedToSend: Int64 { storage.withLock { $0.countOfBytesExpectedToSend } }
    /// A description of your own, for logs. The manager sets it to its
    /// ``SessionManager/taskDescriptionForSessionTasks``, and posts task notifications only
    /// while it holds that value, as AFNetworking does.
    public var taskDescription: String? {
        get { storage.withLock { $0.taskDescription } }
        set { storage.withLock { $0.taskDescription = newValue } }
    }

    /// Starts the task, or resumes it after ``suspend()``. Does nothing once it is cancelled or
    /// completed.
    public func resume() {
        enum Action {
            case ignored, start
            case resume((any TransferDriver)?)
        }
        // The description is read under the same lock, for the notification (posting it then
        // takes no lock of the task's: SessionManager.postTaskStateNotification).
        let (action, description): (Action, String?) = storage.withLock { storage in
            guard storage.state == .suspended else { return (.ignored, nil) }
            storage.state = .running
            // Emitted under the lock (it only enqueues) so that racing resume, suspend and
            // cancel calls reach monitors in the order they took effect.
            monitor?.didResume(self)
            if storage.started { return (.resume(storage.driver), storage.taskDescription) }
            storage.started = true
            return (.start, storage.taskDescription)
        }
        switch action {
        case .ignored: return
        case .start: manager.start(self)
        case .resume(let driver): driver?.resume()
        }
        manager.postTaskStateNotification(.gannetTaskDidResume, for: self, taskDescription: description)
    }

    /// Pauses the transfer; ``resume()`` continues it. A suspended task still counts against
    /// its resource timeout.
    public func suspend() {
        let suspended: (driver: (any TransferDriver)?, description: String?)? = storage.withLock { storage in
            guard storage.state == .running else { return nil }
            storage.state = .suspended
            monitor?.didSuspend(self)
            return (storage.driver, storage.taskDescription)
        }
        guard let suspended else { return }
        suspended.driver?.suspend()
        manager.postTaskStateNotification(.gannetTaskDidSuspend, for: self, taskDescription: suspended.description)
    }

    /// Cancels the task; it completes with `URLError.cancelled` unless it already completed.
    public func cancel() {
        cancel(with: nil)
    }

    /// Cancels a download task and hands `completionHandler` resume data for
    /// ``SessionManager/downloadTask(withResumeData:destination:progress:completionHandler:)``
    /// (URLSession's and AFNetworking's call): the partial file is kept instead of deleted.
    /// The handler receives `nil` (and the partial file is deleted) when the download cannot
    /// be resumed safely: not a download task, already completed, no body byte yet, or a
    /// response with no strong `ETag` and no `Last-Modified` to send in `If-Range`. Called on a
    /// global queue once the task completed (with `URLError.cancelled`).
    public func cancel(byProducingResumeData completionHandler: @escaping @Sendable (Data?) -> Void) {
        guard kind == .download, case .file(let file) = sink else {
            cancel()
            DispatchQueue.global().async { completionHandler(nil) }
            return
        }
        let registered = storage.withLock { storage -> Bool in
            guard storage.state == .running || storage.state == .suspended else { return false }
            storage.resumeDataHandler = completionHandler
            return true
        }
        guard registered else {
            DispatchQueue.global().async { completionHandler(nil) }
            return
        }
        file.keepsPartialFile = true
        cancel()
    }

    func cancel(with reason: GannetError?) {
        enum Action {
            case none, neverStarted
            case engine((any TransferDriver)?)
            case interlude(Task<Void, Never>?)
        }
        let action: Action = storage.withLock { storage in
            guard storage.state == .running || storage.state == .suspended else { return .none }
            storage.state = .canceling
            storage.cancelReason = reason
            monitor?.didCancel(self)
            if !storage.started {
                storage.started = true
                return .neverStarted
            }
            // Between attempts no transfer can deliver the cancellation: the task ends here.
            if let interlude = storage.interlude {
                storage.interlude = nil
                return .interlude(interlude.work)
            }
            return .engine(storage.driver)
        }
        switch action {
        case .none:
            return
        case .neverStarted:
            let error = TransportError.cancelled(reason: reason, url: originalRequest?.url)
            complete(TransferOutcome(request: originalRequest, response: nil, data: nil, error: error, metrics: nil))
        case .engine(let driver):
            driver?.cancel(reason: reason)
        case .interlude(let work):
            work?.cancel()
            complete(cancellationOutcome(reason: reason))
        }
    }

    /// Asks the engine to read again after a byte-stream consumer caught up.
    func resumeReading() {
        storage.withLock({ $0.driver })?.resumeReading()
    }

    /// The body's consumer failed (an output stream): the transfer ends with `error`.
    func failTransfer(_ error: GannetError) {
        storage.withLock({ $0.driver })?.fail(error)
    }

    // MARK: Engine-facing

    /// Hands the task its transfer's driver and starts it; returns what `cancel()` or
    /// `suspend()` asked for while `resume()` was still creating it, which found no transfer to
    /// send a command to.
    ///
    /// The transfer is started under the task's lock: a `cancel()` that finds the driver
    /// queues its command after the start, never before (the engine would ignore a cancel for
    /// a transfer it does not know, and the transfer would then run to its end).
    func attach(_ driver: any TransferDriver) -> (state: State, cancelReason: GannetError?) {
        let (attached, wakeUp) = storage.withLock { storage in
            storage.driver = driver
            let wakeUp = driver.start()
            return ((storage.state, storage.cancelReason), wakeUp)
        }
        wakeUp()
        return attached
    }

    func update(_ body: (inout Storage) -> Void) {
        storage.withLock { body(&$0) }
    }

    /// Hands the outcome of an attempt to the retrier when there is one to ask
    /// (SessionTask+Interception.swift), else completes the task.
    func complete(_ outcome: consuming TransferOutcome) {
        if interceptor != nil, interceptIfRetryable(outcome) { return }
        finalize(outcome)
    }

    /// Records the outcome and hands it on; only the first call for a task counts.
    func finalize(_ outcome: consuming TransferOutcome) {
        let first = storage.withLock { storage -> Bool in
            guard storage.state != .completed else { return false }
            // A cancel that arrived before the completion was delivered wins, as in URLSession,
            // even when the last bytes were already in.
            if storage.state == .canceling, outcome.error == nil {
                outcome.error = TransportError.cancelled(url: outcome.request?.url ?? originalRequest?.url)
                // The whole body was in before the cancellation: it is the partial file that
                // resume data asked for (resuming it is a 416, retried from zero).
                if storage.resumeDataHandler != nil, let file = outcome.fileURL {
                    let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
                    outcome.partialFile = (file, Int64(size))
                    outcome.fileURL = nil
                }
            }
            storage.state = .completed
            storage.error = outcome.error
            storage.driver = nil
            if let response = outcome.response { storage.response = response }
            if let expected = outcome.head?.expectedContentLength { storage.countOfBytesExpectedToReceive = expected }
            if let request = outcome.request { storage.currentRequest = request }
            return true
        }
        guard first else { return }
        if let handler = storage.withLock({ $0.resumeDataHandler }) {
            let data = ResumeData.produce(from: outcome, request: originalRequest)
            DispatchQueue.global().async { handler(data) }
        }
        manager.taskDidFinishTransfer(self)
        onComplete(self, outcome)
    }

    public static func == (lhs: SessionTask, rhs: SessionTask) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(taskIdentifier) }
    public var description: String {
        let url = originalRequest?.url.map(URL.removingCredentials)?.absoluteString ?? "nil"
        return "<SessionTask \(taskIdentifier) \(originalRequest?.httpMethod ?? "GET") \(url) \(state)>"
    }
}

/// The serializer that finishes the file of a download task a data task became, held by
/// reference: the pipeline asks three times a response whether there is one, and as an
/// optional struct holding an existential each question copied and destroyed it, about 250
/// instructions (callgrind, docs/performance.md).
final class BecameDownload: Sendable {
    let finisher: DownloadSerializer

    init(_ finisher: DownloadSerializer) { self.finisher = finisher }
}

/// What the engine hands back when a transfer ends. It travels by `consuming` parameters, the
/// closures' included, from the transfer's end (`Transfer.finish`, the sink, the task) to the
/// pipeline, which borrows it while it builds the response: each copy of its dozen fields cost
/// about 460 instructions (docs/performance.md).
struct TransferOutcome: @unchecked Sendable {
    // @unchecked: URLRequest, HTTPURLResponse and the error are values or immutable objects
    // created on the engine thread and never mutated after this point.
    var request: URLRequest?
    var response: HTTPURLResponse?
    var head: ResponseHead? = nil
    var data: Data?
    var error: (any Error)?
    var metrics: TaskMetrics?
    /// The downloaded file, for download tasks that succeeded.
    var fileURL: URL? = nil
    /// How a download task that a data task became (``ResponseDisposition/becomeDownload``)
    /// finishes its file before the data task's completion handler sees it.
    var becameDownload: BecameDownload? = nil
    /// A cancelled download's partial file and its size, kept for resume data.
    var partialFile: (url: URL, size: Int64)? = nil
    /// What the session's cache may take from this transfer (SessionManager+Cache.swift).
    var cacheUpdate: CacheUpdate? = nil
    /// The response of `head`: the last hop's object (``Hop/lazyResponse()``), the one the task
    /// and the event monitors were given, built when a hook needed it, else on first access.
    var lazyResponse: LazyResponse? = nil
}
