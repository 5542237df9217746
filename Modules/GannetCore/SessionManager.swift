internal import Synchronization

/// Runs HTTP tasks on Gannet's libcurl engine: AFNetworking's `AFURLSessionManager`.
///
/// One manager owns one connection pool (keep-alive, HTTP/2 multiplexing) and runs on one of
/// ``EnginePool``'s threads, shared with other managers (``SessionConfiguration/engine``). It
/// keeps a delegate per task, runs the response serializer on a concurrent processing queue,
/// and calls completion handlers on ``completionQueue``.
///
/// ```swift
/// let manager = SessionManager()
/// let task = manager.dataTask(with: URLRequest(url: url), serializer: .passthrough) { response in
///     print(response.response?.statusCode ?? 0, response.data?.count ?? 0)
/// }
/// task.resume()
/// ```
///
/// A manager lives while it has unfinished tasks. Call ``invalidateAndCancel()`` or
/// ``finishTasksAndInvalidate()`` when you are done with it, as with URLSession.
public final class SessionManager: Sendable {
    /// The configuration the manager was created with.
    public let configuration: SessionConfiguration

    let engine: CurlEngine
    let hooks = Mutex(SessionHooks())
    /// Snapshotted by each task when it is created (see SessionManager+EventMonitors.swift).
    let eventMonitorStore: Mutex<CompositeEventMonitor?>
    private let settings: Mutex<Settings>
    let taskTable = Mutex<[Int: SessionTask]>([:])
    let processingQueue: DispatchQueue
    private let ownCompletionQueue: DispatchQueue
    /// Completion blocks sent to ``ownCompletionQueue`` and not yet finished
    /// (``runOnCompletionQueue(_:maySync:_:)``).
    private let completionBacklog = Atomic<Int>(0)

    private struct Settings {
        var responseSerializer: any ResponseSerializing = PassthroughResponseSerializer()
        var completionQueue: DispatchQueue?
        var completionGroup: DispatchGroup?
        /// ``interceptor``, wrapped once for the tasks (``TaskInterceptor``).
        var interceptor: TaskInterceptor?
        var invalidated = false
        var finishing = false
        /// ``taskDescriptionForSessionTasks``, built once: it is compared at every notification.
        var taskDescription = ""
    }

    static let nextIdentifier = Atomic<Int>(1)

    /// Creates a manager and places it on an engine thread (``EnginePool``). `eventMonitors` observe every task the
    /// manager creates (see ``EventMonitor``); more can be added with ``addEventMonitor(_:)``.
    public init(configuration: SessionConfiguration = .default, eventMonitors: [any EventMonitor] = []) {
        self.configuration = configuration
        eventMonitorStore = Mutex(CompositeEventMonitor(eventMonitors))
        engine = CurlEngine(configuration: configuration)
        settings = Mutex(Settings())
        processingQueue = DispatchQueue(label: "gannet.session.processing", attributes: .concurrent)
        ownCompletionQueue = DispatchQueue(label: "gannet.session.completion")
        let description = "0x" + String(UInt(bitPattern: ObjectIdentifier(self)), radix: 16)
        settings.withLock { $0.taskDescription = description }
    }

    deinit {
        engine.shutdown()
    }

    /// The serializer used by tasks created without one. Defaults to
    /// `PassthroughResponseSerializer`; the `Gannet` product's `HTTPSessionManager` uses JSON.
    public var responseSerializer: any ResponseSerializing {
        get { settings.withLock { $0.responseSerializer } }
        set { settings.withLock { $0.responseSerializer = newValue } }
    }

    /// The queue completion handlers run on. `nil` (the default) means a serial queue of the
    /// manager's own: a Linux process often never runs its main queue, so `.main` is used only
    /// when you ask for it.
    public var completionQueue: DispatchQueue? {
        get { settings.withLock { $0.completionQueue } }
        set { settings.withLock { $0.completionQueue = newValue } }
    }

    /// A group every completion handler runs in, so you can wait for a batch of tasks.
    public var completionGroup: DispatchGroup? {
        get { settings.withLock { $0.completionGroup } }
        set { settings.withLock { $0.completionGroup = newValue } }
    }

    /// Adapts and retries every task the manager creates from now on, before the task's own
    /// interceptor (docs/interceptors.md). `nil` (the default) sends each request once, as is.
    ///
    /// ```swift
    /// manager.interceptor = RetryPolicy()
    /// ```
    public var interceptor: (any RequestInterceptor)? {
        get { settings.withLock { $0.interceptor?.base } }
        set { settings.withLock { $0.interceptor = newValue.map(TaskInterceptor.init) } }
    }

    /// Tasks that have not completed yet.
    public var tasks: [SessionTask] {
        taskTable.withLock { Array($0.values) }.sorted { $0.taskIdentifier < $1.taskIdentifier }
    }

    /// Unfinished data tasks.
    public var dataTasks: [SessionTask] { tasks.filter { $0.kind == .data } }

    /// Unfinished upload tasks.
    public var uploadTasks: [SessionTask] { tasks.filter { $0.kind == .upload } }

    /// Unfinished download tasks.
    public var downloadTasks: [SessionTask] { tasks.filter { $0.kind == .download } }

    /// Whether the manager was invalidated and refuses new tasks.
    public var isInvalidated: Bool { settings.withLock { $0.invalidated } }

    /// The ``SessionTask/taskDescription`` the manager stamps on every task it creates
    /// (AFNetworking's `taskDescriptionForSessionTasks`: the manager's address). The task
    /// notifications (`gannetTaskDidResume`, `gannetTaskDidSuspend`, `gannetTaskDidComplete` and
    /// the download move notifications) are posted only for tasks that still carry it, which is
    /// how the manager tells its own tasks apart, as AFNetworking does: a task whose
    /// `taskDescription` you replace posts none.
    public var taskDescriptionForSessionTasks: String { settings.withLock { $0.taskDescription } }

    // MARK: Creating tasks

    /// Creates a data task whose result is produced by `serializer`.
    ///
    /// The body comes from `request.httpBody`, or is streamed from `request.httpBodyStream`
    /// (sent with the `Content-Length` the request declares, chunked when it declares none).
    /// - Parameters:
    ///   - request: the request to send; it becomes the task's ``SessionTask/originalRequest``.
    ///   - serializer: turns the response and its body into the task's result.
    ///   - interceptor: adapts and retries this task, after the manager's ``interceptor``.
    ///   - uploadProgress: called with the task's upload `Progress` as body bytes are sent.
    ///   - downloadProgress: called with the task's download `Progress` as bytes arrive.
    ///   - completionHandler: called once on ``completionQueue`` with the outcome, after the
    ///     last attempt.
    @_specialize(exported:true,where Serializer == PassthroughResponseSerializer)
    @_specialize(exported:true,where Serializer == AnyResponseSerializer)
    public func dataTask<Serializer: ResponseSerializing>(
        with request: URLRequest,
        serializer: Serializer,
        interceptor: (any RequestInterceptor)? = nil,
        uploadProgress: (@Sendable (Progress) -> Void)? = nil,
        downloadProgress: (@Sendable (Progress) -> Void)? = nil,
        completionHandler: @escaping @Sendable (DataResponse<Serializer.Output>) -> Void
    ) -> SessionTask {
        makeTask(
            kind: .data,
            request: request,
            body: BodySource(of: request),
            serializer: serializer,
            progress: ProgressHandlers(upload: uploadProgress, download: downloadProgress),
            interceptor: interceptor,
            completionHandler: completionHandler
        )
    }

    /// Creates a data task serialized by ``responseSerializer``, with AFNetworking's completion
    /// shape: the response, the serialized object, and the error.
    public func dataTask(
        with request: URLRequest,
        uploadProgress: (@Sendable (Progress) -> Void)? = nil,
        downloadProgress: (@Sendable (Progress) -> Void)? = nil,
        completionHandler: @escaping @Sendable (URLResponse?, (any Sendable)?, (any Error)?) -> Void
    ) -> SessionTask {
        dataTask(
            with: request,
            serializer: AnyResponseSerializer(responseSerializer),
            uploadProgress: uploadProgress,
            downloadProgress: downloadProgress
        ) { response in
            completionHandler(response.response, response.value ?? nil, response.error)
        }
    }

    /// Creates a task that uploads the contents of `fileURL`, read as it is sent.
    @_specialize(exported:true,where Serializer == PassthroughResponseSerializer)
    public func uploadTask<Serializer: ResponseSerializing>(
        with request: URLRequest,
        fromFile fileURL: URL,
        serializer: Serializer,
        progress: (@Sendable (Progress) -> Void)? = nil,
        completionHandler: @escaping @Sendable (DataResponse<Serializer.Output>) -> Void
    ) -> SessionTask {
        makeTask(
            kind: .upload,
            request: request,
            body: .file(fileURL),
            serializer: serializer,
            progress: ProgressHandlers(upload: progress, download: nil),
            completionHandler: completionHandler
        )
    }

    /// Creates a task that uploads `bodyData`.
    @_specialize(exported:true,where Serializer == PassthroughResponseSerializer)
    public func uploadTask<Serializer: ResponseSerializing>(
        with request: URLRequest,
        from bodyData: Data,
        serializer: Serializer,
        progress: (@Sendable (Progress) -> Void)? = nil,
        completionHandler: @escaping @Sendable (DataResponse<Serializer.Output>) -> Void
    ) -> SessionTask {
        makeTask(
            kind: .upload,
            request: request,
            body: .data(bodyData),
            serializer: serializer,
            progress: ProgressHandlers(upload: progress, download: nil),
            completionHandler: completionHandler
        )
    }

    /// A data or upload task whose result `serializer` makes.
    func makeTask<Serializer: ResponseSerializing>(
        kind: SessionTask.Kind,
        request: URLRequest,
        body: BodySource?,
        serializer: Serializer,
        progress: ProgressHandlers,
        sink: BodySinkKind = .memory,
        delivery: Delivery = .queued,
        interceptor: (any RequestInterceptor)? = nil,
        completionHandler: @escaping @Sendable (DataResponse<Serializer.Output>) -> Void
    ) -> SessionTask {
        makeTask(
            kind: kind,
            request: request,
            body: body,
            stage: SerializerStage(serializer),
            progress: progress,
            sink: sink,
            delivery: delivery,
            interceptor: interceptor,
            completionHandler: completionHandler
        )
    }

    // Specialized for the serializers of the default data task and of HTTPSessionManager: a
    // generic caller reaches this code unspecialized, and each response then looked up the
    // metadata of `Result` and `DataResponse` a dozen times, 4,300 instructions (callgrind,
    // docs/performance.md). A caller in another module reaches the public generic entry points
    // (`dataTask(with:serializer:...)`, `response(for:serializer:...)` and the others marked
    // `@_specialize(exported: true, ...)`) unspecialized too: each task then looked up the
    // metadata of `SerializerStage` and `ResponsePipeline` and copied them through value
    // witnesses, about 1,000 instructions a task. Those entry points therefore export
    // specializations for the same two serializers, which the caller's compiler calls instead.
    @_specialize(where Stage == SerializerStage<PassthroughResponseSerializer>)
    @_specialize(where Stage == SerializerStage<AnyResponseSerializer>)
    func makeTask<Stage: ResultStage>(
        kind: SessionTask.Kind,
        request: URLRequest,
        body: BodySource?,
        stage: Stage,
        progress: ProgressHandlers,
        sink: BodySinkKind = .memory,
        delivery: Delivery = .queued,
        interceptor: (any RequestInterceptor)? = nil,
        completionHandler: @escaping @Sendable (DataResponse<Stage.Output>) -> Void
    ) -> SessionTask {
        let identifier = Self.nextIdentifier.wrappingAdd(1, ordering: .relaxed).oldValue
        let interceptor = TaskInterceptor.combining(settings.withLock { $0.interceptor }, interceptor)
        let pipeline = ResponsePipeline(
            manager: self,
            stage: stage,
            delivery: delivery,
            completionHandler: completionHandler
        )
        let task = SessionTask(
            identifier: identifier,
            kind: kind,
            request: request,
            body: body,
            sink: sink,
            manager: self,
            progress: progress,
            interceptor: interceptor
        ) { task, outcome in
            pipeline.deliver(consume outcome, of: task)
        }
        task.taskDescription = taskDescriptionForSessionTasks
        taskTable.withLock { $0[identifier] = task }
        task.monitor?.didCreateInitialRequest(task, request)
        return task
    }

    /// The queue completion handlers run on and the group they run in, as set now.
    var completionSettings: (queue: DispatchQueue, group: DispatchGroup?) {
        settings.withLock { ($0.completionQueue ?? ownCompletionQueue, $0.completionGroup) }
    }

    /// Runs a response's completion work on `queue`.
    ///
    /// Every block sent to the manager's own serial completion queue is counted while it waits
    /// or runs. From the processing queue (`maySync`), with nothing counted: `sync`, which
    /// libdispatch runs on this thread, in the queue's order and alone on it, saving the second
    /// thread hop of a response that was serialized here (docs/performance.md). With work
    /// queued, `async`, so that a processing thread never waits behind other handlers (a
    /// waiting one makes libdispatch start more threads); from the engine thread always
    /// `async`, since a `sync` block would run there; on a caller's queue always `async` (the
    /// main queue runs its blocks on the main thread).
    func runOnCompletionQueue(
        _ queue: DispatchQueue,
        maySync: Bool,
        _ block: @escaping @Sendable () -> Void
    ) {
        guard queue === ownCompletionQueue else { return queue.async(execute: block) }
        if completionBacklog.add(1, ordering: .relaxed).newValue == 1 && maySync {
            queue.sync(execute: block)
            completionBacklog.subtract(1, ordering: .relaxed)
        } else {
            queue.async {
                block()
                self.completionBacklog.subtract(1, ordering: .relaxed)
            }
        }
    }

    // MARK: Engine-facing

    func start(_ task: SessionTask) {
        if settings.withLock({ $0.invalidated }) {
            let url = task.originalRequest?.url
            let error = GannetError(
                .sessionInvalidated,
                "The session manager was invalidated and takes no new tasks",
                failingURL: url
            )
            task.complete(
                TransferOutcome(
                    request: task.originalRequest,
                    response: nil,
                    data: nil,
                    error: TransportError.urlError(gannet: error, url: url),
                    metrics: nil
                )
            )
            return
        }
        // A first attempt with nothing to adapt starts here, as without an interceptor.
        if let interceptor = task.interceptor, !interceptor.adaptsNothing {
            task.beginFirstAttempt(interceptor)
            return
        }
        let transfer = Transfer(task: task, engine: engine, hooks: hooks.withLock { $0 })
        // Before attach: nothing may widen the gap between attach and the start command.
        task.monitor?.didCreateTransfer(task, for: transfer.request)
        let (state, cancelReason) = task.attach(transfer)
        switch state {
        case .canceling: transfer.cancel(reason: cancelReason)
        case .suspended: transfer.suspend()
        default: break
        }
    }

    func taskDidFinishTransfer(_ task: SessionTask) {
        taskTable.withLock { _ = $0.removeValue(forKey: task.taskIdentifier) }
    }

    // MARK: Invalidation

    /// Cancels every unfinished task and refuses new ones (they fail with
    /// `GannetError.sessionInvalidated`). The manager leaves its engine thread once it is released.
    public func invalidateAndCancel() {
        settings.withLock { $0.invalidated = true }
        let reason = GannetError(.sessionInvalidated, "The session manager was invalidated")
        for task in tasks { task.cancel(with: reason) }
        releaseIfInvalidatedAndIdle()
    }

    /// Lets unfinished tasks complete and refuses new ones.
    public func finishTasksAndInvalidate() {
        settings.withLock {
            $0.invalidated = true
            $0.finishing = true
        }
        releaseIfInvalidatedAndIdle()
    }

    /// Once an invalidated manager has no task left, drops its hooks and monitors (which may hold the
    /// manager itself, as URLSession drops its delegate) and takes its engine off its thread,
    /// closing pooled connections now rather than when the last reference goes.
    func releaseIfInvalidatedAndIdle() {
        guard settings.withLock({ $0.invalidated }), taskTable.withLock({ $0.isEmpty }) else { return }
        hooks.withLock { $0 = SessionHooks() }
        eventMonitorStore.withLock { $0 = nil }
        engine.shutdown()
    }
}

/// Per-task progress callbacks.
struct ProgressHandlers: Sendable {
    var upload: (@Sendable (Progress) -> Void)?
    var download: (@Sendable (Progress) -> Void)?
}
