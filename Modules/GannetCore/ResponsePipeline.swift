/// How one task's finished transfer becomes the response its completion handler receives, in
/// order: a data task that became a download finishes its file, the cache takes the response,
/// the metrics are reported, the ``ResultStage`` makes the result, the completion hook and
/// monitors see it, the completion handler runs as its ``Delivery`` says, and
/// `gannetTaskDidComplete` is posted.
///
/// Where it runs: on the processing queue, then the completion queue inside the completion
/// group. The passthrough serializer (Gannet's own, constant time) with nothing else to do
/// skips the processing queue: the whole delivery runs on the completion queue, or, delivered
/// directly (the async API, which only resumes a continuation), where the transfer ended. A
/// response serialized on the processing queue enters the manager's own completion queue
/// there when nothing waits on it (``SessionManager/runOnCompletionQueue(_:maySync:_:)``).
/// Each thread hop costs more than a whole small exchange on loopback (docs/performance.md).
///
/// A class: each queue a delivery moves to holds the pipeline, and copies of it as a value went
/// through the runtime's value witnesses (the serializer holds Foundation's values), about 500
/// instructions a request with its destruction; the task's closure that held it by value was
/// an allocation just as this object is.
final class ResponsePipeline<Stage: ResultStage>: Sendable {
    let manager: SessionManager
    let stage: Stage
    let delivery: Delivery
    let completionHandler: @Sendable (DataResponse<Stage.Output>) -> Void

    init(
        manager: SessionManager,
        stage: Stage,
        delivery: Delivery,
        completionHandler: @escaping @Sendable (DataResponse<Stage.Output>) -> Void
    ) {
        self.manager = manager
        self.stage = stage
        self.delivery = delivery
        self.completionHandler = completionHandler
    }

    /// Where ``run(_:of:at:)`` builds the response.
    private enum Site {
        /// Where the transfer ended: only for the passthrough serializer delivered directly.
        case engine
        case processingQueue
        /// Already on the completion queue: the passthrough serializer, queued delivery.
        case completionQueue
    }

    /// The caller's settings a delivery reads, taken once when the transfer ends.
    private struct Settings: Sendable {
        let queue: DispatchQueue
        let group: DispatchGroup?
        let completionHook: SessionHooks.Completion?
        let metricsHook: SessionHooks.MetricsCollected?
    }

    /// Delivers `outcome`, the end of `task`'s transfer; called where the transfer ended.
    func deliver(_ outcome: consuming TransferOutcome, of task: SessionTask) {
        let (queue, group) = manager.completionSettings
        let (completionHook, metricsHook) = manager.hooks.withLock {
            ($0.taskDidComplete, $0.taskDidFinishCollectingMetrics)
        }
        let settings = Settings(queue: queue, group: group, completionHook: completionHook, metricsHook: metricsHook)
        if case .queued = delivery { group?.enter() }
        // Hooks are the caller's code, which must not run on the engine thread; monitors only
        // enqueue, so they may. A data task that became a download moves its file, and the
        // cache may ask the caller's hook and write to disk: never on the engine thread either.
        let isPassthrough = Stage.self == SerializerStage<PassthroughResponseSerializer>.self
        guard
            isPassthrough && completionHook == nil && metricsHook == nil && outcome.becameDownload == nil
                && outcome.cacheUpdate == nil
        else {
            let handover = Handover(self, outcome, of: task, at: .processingQueue, settings)
            return manager.processingQueue.async { handover.run() }
        }
        if case .queued = delivery {
            // The engine thread, the busiest with many transfers in flight, only enqueues it.
            let handover = Handover(self, outcome, of: task, at: .completionQueue, settings)
            manager.runOnCompletionQueue(queue, maySync: false) { handover.run() }
        } else {
            run(outcome, of: task, at: .engine, settings)
        }
    }

    /// A delivery on its way to another queue. The outcome moves in; a closure capturing it
    /// copied it and destroyed the original even when it was consumed (about 580 instructions a
    /// request, docs/performance.md). The closure that carries this captures one reference.
    private final class Handover: Sendable {
        let pipeline: ResponsePipeline
        let outcome: TransferOutcome
        let task: SessionTask
        let site: Site
        let settings: Settings

        init(
            _ pipeline: ResponsePipeline,
            _ outcome: consuming TransferOutcome,
            of task: SessionTask,
            at site: Site,
            _ settings: Settings
        ) {
            self.pipeline = pipeline
            self.outcome = outcome
            self.task = task
            self.site = site
            self.settings = settings
        }

        func run() { pipeline.run(outcome, of: task, at: site, settings) }
    }

    /// Builds the response and hands it over, after a data task that became a download has
    /// finished its file. The outcome is borrowed throughout: it arrives in a handover, and each
    /// copy of it cost about 460 instructions (docs/performance.md); moved into the response
    /// piece by piece instead, its size in copies of memory cost more than the copies saved.
    private func run(_ outcome: TransferOutcome, of task: SessionTask, at site: Site, _ settings: Settings) {
        if outcome.becameDownload != nil {
            build(manager.finishBecameDownload(outcome, of: task), of: task, at: site, settings)
        } else {
            build(outcome, of: task, at: site, settings)
        }
    }

    private func build(_ outcome: TransferOutcome, of task: SessionTask, at site: Site, _ settings: Settings) {
        let lazy = outcome.lazyResponse
        task.update { $0.lazyResponse = lazy }
        if outcome.cacheUpdate != nil { manager.updateCache(with: outcome, of: task, response: lazy?.value) }
        let monitor = task.monitor
        if let metrics = outcome.metrics {
            monitor?.didFinishCollecting(task, metrics)
            settings.metricsHook?(manager, task, metrics)
        }
        let result = stage.result(of: outcome, response: lazy, task: task, manager: manager)
        // Made whole: set afterwards, the file left a `var` the compiler copied into a `let`,
        // through the value witnesses for a serializer's output of another module
        // (docs/performance.md).
        let response = DataResponse(
            request: outcome.request,
            lazyResponse: lazy,
            data: outcome.data,
            metrics: outcome.metrics,
            fileURL: outcome.becameDownload != nil ? outcome.fileURL : nil,
            result: result
        )
        monitor?.didSerialize(task, response)
        settings.completionHook?(manager, task, response.error)
        manager.releaseIfInvalidatedAndIdle()
        hand(response, of: task, from: site, settings)
    }

    /// Runs the completion handler as ``delivery`` says, then posts `gannetTaskDidComplete`.
    private func hand(
        _ response: DataResponse<Stage.Output>,
        of task: SessionTask,
        from site: Site,
        _ settings: Settings
    ) {
        switch delivery {
        case .direct:
            completionHandler(response)
            task.monitor?.didFinish(task, error: response.error)
            manager.processingQueue.async { [self] in postDidComplete(response, of: task) }
        case .awaited(let pending):
            // Left before the handler resumes the caller, who posts it (``PendingNotification``).
            pending.leave { [self] in postDidComplete(response, of: task) }
            completionHandler(response)
            task.monitor?.didFinish(task, error: response.error)
        case .queued:
            // Already on the completion queue (the common path), no closure carries the
            // response: each one copied it (docs/performance.md).
            switch site {
            case .completionQueue:
                finishOnCompletionQueue(response, of: task, settings)
            case .processingQueue:
                manager.runOnCompletionQueue(settings.queue, maySync: true) { [self] in
                    finishOnCompletionQueue(response, of: task, settings)
                }
            case .engine:
                manager.runOnCompletionQueue(settings.queue, maySync: false) { [self] in
                    finishOnCompletionQueue(response, of: task, settings)
                }
            }
        }
    }

    /// The queued delivery's end, on the completion queue: the handler, the monitors, the
    /// caller's group, then `gannetTaskDidComplete`.
    private func finishOnCompletionQueue(
        _ response: DataResponse<Stage.Output>,
        of task: SessionTask,
        _ settings: Settings
    ) {
        completionHandler(response)
        task.monitor?.didFinish(task, error: response.error)
        settings.group?.leave()
        postDidComplete(response, of: task)
    }

    /// Posts `gannetTaskDidComplete` with AFNetworking's userInfo, when the session posts.
    private func postDidComplete(_ response: DataResponse<Stage.Output>, of task: SessionTask) {
        guard manager.configuration.postsTaskNotifications else { return }
        let userInfo = SessionManager.completionUserInfo(
            stage: stage,
            result: response.result,
            data: response.data,
            metrics: response.metrics
        )
        manager.postTaskNotification(.gannetTaskDidComplete, for: task, userInfo: userInfo)
    }
}
