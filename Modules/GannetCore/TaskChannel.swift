/// The task side of a transfer: what the engine reports to a task and asks of it
/// (``TransferObserver``), carried out here with the task, its manager, its event monitors and
/// the hooks as they were when the transfer was created. The engine holds only this channel and
/// never names the task or its manager (docs/engine.md, "The rooms"). Engine thread, except
/// where a method says otherwise.
final class TaskChannel: TransferObserver {
    let task: SessionTask
    let hooks: SessionHooks
    /// The task's own credential and challenge handler, as they were when the transfer started
    /// (they are set before `resume()`).
    private let credential: URLCredential?
    private let challengeHandler: SessionHooks.AuthenticationChallengeHandler?
    /// For a task that continues another's transfer: the data task it replaced, and the stream
    /// task handed to the caller, for the hook that announces it (``transferDidTakeOver()``).
    private let replaced: SessionTask?
    private let streamTask: SessionStreamTask?

    init(
        task: SessionTask,
        hooks: SessionHooks,
        replacing replaced: SessionTask? = nil,
        streamTask: SessionStreamTask? = nil
    ) {
        self.task = task
        self.hooks = hooks
        credential = task.credential
        challengeHandler = task.authenticationChallengeHandler
        self.replaced = replaced
        self.streamTask = streamTask
    }

    // MARK: Reports the task keeps (SessionTask+TransferObserver.swift)

    func transferWillSend(_ request: URLRequest, expectedToSend: Int64?) {
        task.transferWillSend(request, expectedToSend: expectedToSend)
    }

    func transferDidReceiveHead(_ head: ResponseHead, response: LazyResponse?) {
        task.transferDidReceiveHead(head, response: response)
    }

    func transferDidProgress(received: Int64, sent: Int64, notifiesHandlers: Bool, final: Bool) {
        task.transferDidProgress(received: received, sent: sent, notifiesHandlers: notifiesHandlers, final: final)
    }

    func transferDidEnd(_ outcome: TransferOutcome) {
        task.transferDidEnd(outcome)
    }

    // MARK: Monitors and hooks

    func transferDidReceiveResponse(_ response: LazyResponse) {
        task.monitor?.didReceiveResponse(task, response)
    }

    func transferWillRedirect(_ response: LazyResponse, to next: URLRequest) {
        task.monitor?.willRedirect(task, response, to: next)
    }

    func transferRedirect(_ response: HTTPURLResponse, proposed: URLRequest) -> URLRequest? {
        guard let hook = hooks.taskWillPerformHTTPRedirection else { return proposed }
        return hook(task.manager, task, response, proposed)
    }

    func transferDisposition(for response: HTTPURLResponse) -> ResponseDisposition {
        hooks.dataTaskDidReceiveResponse?(task.manager, task, response) ?? .allow
    }

    func transferAskDisposition(
        for response: HTTPURLResponse,
        answer: @escaping @Sendable (ResponseDisposition) -> Void
    ) {
        guard let deferred = hooks.dataTaskDidReceiveResponseDeferred else { return answer(.allow) }
        let task = self.task
        // Off the engine thread: the hook may take its time, and answers once (``Decided``).
        DispatchQueue.global().async {
            let decided = Decided()
            deferred(task.manager, task, response) { disposition in
                guard decided.claim() else { return }
                answer(disposition)
            }
        }
    }

    func transferDidReceiveData(_ bytes: UnsafeRawBufferPointer) {
        if let hook = hooks.dataTaskDidReceiveData { hook(task.manager, task, Data(bytes)) }
        // Optional chaining skips the argument too: the bytes are copied only for monitors.
        task.monitor?.didReceiveData(task, Data(bytes))
    }

    func transferDidSendBodyData(_ count: Int64, total: Int64, expected: Int64) {
        if let hook = hooks.taskDidSendBodyData { hook(task.manager, task, count, total, expected) }
        task.monitor?.didSendBodyData(task, count, total: total, expected: expected)
    }

    func transferNeedsNewBodyStream() -> InputStream? {
        hooks.taskNeedNewBodyStream?(task.manager, task)
    }

    func transferCredential(
        for challenge: AuthenticationChallenge,
        unscopedAdmitted: Bool,
        url: URL
    ) throws -> URLCredential? {
        let manager = task.manager
        // The task's own handler wins over the manager's, as a task delegate's over a session's.
        let handler = challengeHandler ?? hooks.authenticationChallenge
        switch handler?(manager, task, challenge) ?? .performDefaultHandling {
        case .useCredential(let given):
            manager.remember(given, for: challenge.protectionSpace)
            return given
        case .performDefaultHandling:
            // The task's and the manager's credential name no protection space: only the
            // caller's origin, in the caller's schemes, gets them (docs/auth-cookies-cache.md,
            // "Where a credential may go"); stored and remembered ones are keyed by their space.
            return manager.defaultCredential(
                for: challenge.protectionSpace,
                failures: challenge.previousFailureCount,
                taskCredential: credential,
                unscopedAdmitted: unscopedAdmitted
            )
        case .rejectProtectionSpace:
            return nil
        case .cancelAuthenticationChallenge:
            let reason = GannetError(.transport, "The authentication challenge was cancelled", failingURL: url)
            throw TransportError.make(.userCancelledAuthentication, underlying: reason, url: url)
        case .fail(let error):
            throw error
        }
    }

    func transferServerTrustDisposition(_ trust: ServerTrust) -> ServerTrustDisposition {
        task.monitor?.didReceiveChallenge(task, trust)
        return hooks.serverTrustChallenge?(task.manager, task, trust) ?? .performDefaultHandling
    }

    // MARK: Continuing elsewhere (SessionManager+BecomeDownload.swift)

    func transferContinueAsDownload(driver: any TransferDriver) -> (any TransferObserver)? {
        guard let download = task.manager.makeDownloadTask(replacing: task, driver: driver) else { return nil }
        return TaskChannel(task: download, hooks: hooks, replacing: task)
    }

    func transferContinueAsStream(state: ByteStreamState, driver: any TransferDriver) -> (any TransferObserver)? {
        guard let stream = task.manager.makeStreamTask(replacing: task, state: state, driver: driver) else {
            return nil
        }
        return TaskChannel(task: stream.task, hooks: hooks, replacing: task, streamTask: stream)
    }

    func transferDidTakeOver() {
        guard let replaced else { return }
        if let streamTask {
            hooks.dataTaskDidBecomeStreamTask?(task.manager, replaced, streamTask)
        } else {
            hooks.dataTaskDidBecomeDownloadTask?(task.manager, replaced, task)
        }
    }
}

extension Transfer {
    /// A transfer for `task`'s attempt; `request` is the attempt's adapted request
    /// (docs/interceptors.md), `nil` for the task's original request. `hooks`, the manager's as
    /// they are now, is consumed into the task's channel: a borrowed one was copied there and
    /// destroyed here, 22 closures each way, about 250 instructions (docs/performance.md).
    convenience init(task: SessionTask, engine: CurlEngine, hooks: consuming SessionHooks, request: URLRequest? = nil) {
        let engineHooks = EngineHooks(hooks)
        let original = task.originalRequest
        self.init(
            observer: TaskChannel(task: task, hooks: hooks),
            request: request ?? original ?? URLRequest(url: URL(string: "about:blank")!),
            callerURL: original?.url,
            body: task.body,
            sink: task.sink,
            engine: engine,
            hooks: engineHooks
        )
    }
}
