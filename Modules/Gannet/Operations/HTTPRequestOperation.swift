internal import Synchronization

/// AFNetworking 2's `AFHTTPRequestOperation`: an `Operation` that runs one request as a
/// `SessionTask` of an ``HTTPSessionManager``, so that an `OperationQueue` can
/// order transfers with dependencies and bound them with `maxConcurrentOperationCount`.
///
/// ```swift
/// let queue = OperationQueue()
/// queue.maxConcurrentOperationCount = 2
/// let first = manager.operation(for: URLRequest(url: a), success: { operation, json in … }, failure: { operation, error in … })
/// let second = manager.operation(for: URLRequest(url: b))
/// second.addDependency(first)
/// queue.addOperations([first, second], waitUntilFinished: false)
/// ```
///
/// The task is created and resumed in `start()`, serialized by the manager's
/// `responseSerializer` as it was when the operation was created. `cancel()` cancels the
/// transfer (the operation finishes with `URLError.cancelled`); ``pause()`` and ``resume()``
/// suspend and resume it. The operation is asynchronous and reports `isExecuting` and
/// `isFinished` through `willChangeValue(forKey:)`/`didChangeValue(forKey:)`, which is how
/// swift-corelibs-foundation's `OperationQueue` learns that it ended (docs/operations.md).
///
/// `completionBlock` runs once the operation is finished, on a queue of Foundation's choosing;
/// ``setCompletionBlock(success:failure:)`` sets it from a success and a failure handler.
public final class HTTPRequestOperation: Operation, @unchecked Sendable {
    // @unchecked Sendable: Operation is a class Foundation declares Sendable; every mutable
    // property of this subclass lives in `state`, a Mutex, and the rest are `let`s.

    /// The request the operation sends.
    public let request: URLRequest
    /// The manager whose session runs the task.
    public let manager: HTTPSessionManager

    private let serializer: any ResponseSerializing
    private let state = Mutex(OperationState())

    /// An operation that sends `request` through `manager`, serialized by `serializer`
    /// (the manager's `responseSerializer` by default). Nothing is sent before `start()`.
    public init(request: URLRequest, manager: HTTPSessionManager, serializer: (any ResponseSerializing)? = nil) {
        self.request = request
        self.manager = manager
        self.serializer = serializer ?? manager.responseSerializer
        super.init()
    }

    // MARK: State Foundation reads

    /// Always `true`: the work happens on the session's engine, not in `start()`.
    public override var isAsynchronous: Bool { true }

    /// Whether the task is running (or paused).
    public override var isExecuting: Bool { state.withLock { $0.phase == .executing } }

    /// Whether the task completed, whatever the outcome.
    public override var isFinished: Bool { state.withLock { $0.phase == .finished } }

    /// Whether ``pause()`` was called without a ``resume()`` since.
    public var isPaused: Bool { state.withLock { $0.isPaused } }

    // MARK: Outcome

    /// The task, once `start()` created it.
    public var task: SessionTask? { state.withLock { $0.task } }

    /// The HTTP response, once finished (`nil` when none arrived).
    public var response: HTTPURLResponse? { state.withLock { $0.outcome?.response } }

    /// The body as received, once finished.
    public var responseData: Data? { state.withLock { $0.outcome?.data } }

    /// What the serializer produced, once finished successfully.
    public var responseObject: (any Sendable)? {
        state.withLock { outcome -> (any Sendable)? in
            guard case .success(let value)? = outcome.outcome?.result else { return nil }
            return value
        }
    }

    /// The transport or serialization error, once finished unsuccessfully; `URLError.cancelled`
    /// after ``cancel()``.
    public var error: (any Error)? {
        state.withLock { outcome -> (any Error)? in
            guard case .failure(let error)? = outcome.outcome?.result else { return nil }
            return error
        }
    }

    // MARK: Lifecycle

    /// Creates the task and resumes it (unless paused). An operation cancelled before it
    /// started still creates its task, cancelled at once, so that it finishes like any other:
    /// with `URLError.cancelled` and its completion block.
    public override func start() {
        guard state.withLock({ $0.begin() }) else { return }
        reportChange(of: ["isExecuting"])

        // The task keeps its completion handler for its lifetime and the operation keeps the
        // task: the handler reaches the operation through an owner it empties on completion,
        // so the two do not keep each other alive afterwards.
        let owner = Owner(self)
        let task = manager.session.dataTask(with: request, serializer: AnyResponseSerializer(serializer)) { response in
            owner.take()?.finish(with: response)
        }
        // `isCancelled` is read under the lock that also publishes the task, so a concurrent
        // cancel() either sees the task or is seen here.
        let action = state.withLock { $0.adopt(task, cancelled: isCancelled) }
        switch action {
        case .cancel: task.cancel()
        case .resume: task.resume()
        case .hold: break
        }
    }

    /// Cancels the operation and its transfer, if one is running.
    ///
    /// A cancelled operation that has not started also stops depending on operations that have
    /// not finished: it finishes at once, and swift-corelibs-foundation's dependencies point at
    /// their dependents unretained, so one freed before its dependencies finish would crash them.
    public override func cancel() {
        super.cancel()
        if state.withLock({ $0.phase == .ready }) {
            for dependency in dependencies where !dependency.isFinished {
                removeDependency(dependency)
            }
        }
        state.withLock { $0.task }?.cancel()
    }

    /// Suspends the transfer (AFNetworking 2's `pause`); before `start()`, the task will be
    /// created suspended. A paused operation is still executing.
    public func pause() {
        state.withLock { $0.pause() }?.suspend()
    }

    /// Resumes a paused transfer (AFNetworking 2's `resume`).
    public func resume() {
        state.withLock { $0.unpause() }?.resume()
    }

    /// Sets `completionBlock` to call `success` with the operation and the serialized value,
    /// or `failure` with the operation and the error (AFNetworking 2's
    /// `setCompletionBlockWithSuccess:failure:`).
    public func setCompletionBlock(
        success: (@Sendable (HTTPRequestOperation, (any Sendable)?) -> Void)?,
        failure: (@Sendable (HTTPRequestOperation, any Error) -> Void)?
    ) {
        completionBlock = { [weak self] in
            guard let self else { return }
            if let error = self.error {
                failure?(self, error)
            } else {
                success?(self, self.responseObject)
            }
        }
    }

    private func finish(with response: DataResponse<(any Sendable)?>) {
        guard state.withLock({ $0.end(with: response) }) else { return }
        reportChange(of: ["isExecuting", "isFinished"])
    }

    /// Holds the operation for its task's completion handler until the task completed.
    private final class Owner: Sendable {
        private let operation: Mutex<HTTPRequestOperation?>
        init(_ operation: HTTPRequestOperation) { self.operation = Mutex(operation) }
        func take() -> HTTPRequestOperation? { operation.withLock { $0.take() } }
    }

    /// Tells Foundation that `keys` changed, after the state already changed: on Linux,
    /// `didChangeValue(forKey:)` is what moves the operation through its queue, and
    /// "isFinished" must read `true` when it is called.
    private func reportChange(of keys: [String]) {
        for key in keys { willChangeValue(forKey: key) }
        for key in keys { didChangeValue(forKey: key) }
    }
}
