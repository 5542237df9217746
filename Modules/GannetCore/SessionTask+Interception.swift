internal import Synchronization

/// The time between two attempts of a task, when no transfer runs: the adapter, the retrier
/// or a retry delay, run in one Swift task (`work`) off the engine thread.
///
/// While a task has an interlude, ``SessionTask/cancel()`` completes the task itself (no
/// transfer is there to deliver the cancellation) and cancels `work`; whatever `work` does
/// afterwards is discarded. An interlude ends either way under the task's lock, so exactly one
/// side completes the task (docs/interceptors.md).
struct Interlude: Sendable {
    /// Tells this interlude from a later one, so a late `work` handle is not stored on it.
    let generation: Int
    var work: Task<Void, Never>?
}

extension SessionTask {
    /// Retries started so far: 0 during the first attempt, 1 during the second.
    public var retryCount: Int { storage.withLock { $0.retryCount } }

    /// The attempt that failed and was retried, for an adapter that wants to know why this
    /// attempt happens; `nil` during the first attempt.
    public var lastFailedAttempt: FailedAttempt? { storage.withLock { $0.lastFailedAttempt } }

    // MARK: Starting an attempt

    /// Starts the first attempt of a task that has an interceptor: adapt, then transfer.
    func beginFirstAttempt(_ interceptor: TaskInterceptor) {
        guard let generation = openInterlude() else {
            // cancel() ran between resume() and here, found neither transfer nor interlude,
            // and left the completion to us.
            complete(cancellationOutcome(reason: storage.withLock { $0.cancelReason }))
            return
        }
        run(generation) { task in await task.adaptAndStart(interceptor) }
    }

    /// Adapts the original request, then starts a transfer with the result.
    private func adaptAndStart(_ interceptor: TaskInterceptor) async {
        let original = originalRequest ?? URLRequest(url: URL(string: "about:blank")!)
        let request: URLRequest
        do {
            request = try await interceptor.base.adapt(original, for: self)
            try Task.checkCancellation()
        } catch {
            // After a cancel() this outcome is discarded: the task already completed.
            monitor?.didFailToAdapt(self, original, error: error)
            let failure = GannetError(
                .requestAdaptationFailed,
                "The request adapter failed: \(error)",
                failingURL: original.url,
                underlyingError: error
            )
            closeInterlude(
                with: TransferOutcome(request: original, response: nil, data: nil, error: failure, metrics: nil)
            )
            return
        }
        // A retrier alone (a RetryPolicy) adapts nothing: its attempts report no adaptation,
        // as its first attempt does not (SessionManager.start).
        if !interceptor.adaptsNothing { monitor?.didAdapt(self, original, to: request) }
        let transfer = Transfer(
            task: self,
            engine: manager.engine,
            hooks: manager.hooks.withLock { $0 },
            request: request
        )
        monitor?.didCreateTransfer(self, for: request)
        // Submitting under the lock keeps `.start` ahead of any `.cancel` for this transfer.
        let wakeUp = storage.withLock { storage -> EngineWakeUp? in
            guard storage.interlude != nil, storage.state == .running || storage.state == .suspended else { return nil }
            storage.interlude = nil
            storage.driver = transfer
            storage.currentRequest = request
            let wakeUp = transfer.start()
            if storage.state == .suspended { transfer.suspend() }
            return wakeUp
        }
        wakeUp?()
    }

    // MARK: Retrying

    /// Takes an ended attempt to the retrier when it may be retried; returns whether it did.
    /// Called on whatever thread the attempt ended on (usually the engine's), so the retrier
    /// itself runs in a Swift task.
    func interceptIfRetryable(_ outcome: TransferOutcome) -> Bool {
        guard let interceptor, Self.mayRetry(outcome) else { return false }
        if case .stream = sink { return false }
        guard let generation = openInterlude(clearingTransfer: true) else { return false }
        run(generation) { task in await task.decide(after: outcome, interceptor) }
        return true
    }

    /// A transport failure other than a cancellation, or a response of 400 or more.
    static func mayRetry(_ outcome: TransferOutcome) -> Bool {
        if let error = outcome.error { return (error as? URLError)?.code != .cancelled }
        let status = outcome.head?.statusCode ?? outcome.response?.statusCode ?? 0
        return status >= 400
    }

    private func decide(after outcome: TransferOutcome, _ interceptor: TaskInterceptor) async {
        let attempt = FailedAttempt(outcome: outcome, retryCount: storage.withLock { $0.retryCount })
        let result = await interceptor.base.retry(self, after: attempt)
        let url = outcome.request?.url ?? originalRequest?.url
        var outcome = outcome
        switch result {
        case .doNotRetry:
            closeInterlude(with: outcome)
            return
        case .doNotRetryWithError(let error):
            outcome.error = GannetError(
                .requestRetryFailed,
                "The request retrier failed the request: \(error)",
                failingURL: url,
                underlyingError: error
            )
            closeInterlude(with: outcome)
            return
        case .retry, .retryWithDelay:
            break
        }
        if let body, !body.isRepeatable {
            outcome.error = GannetError(
                .requestRetryFailed,
                "The retrier asked to send the request again, but its body is a stream that was already read",
                failingURL: url,
                underlyingError: outcome.error
            )
            closeInterlude(with: outcome)
            return
        }
        // A download's partial file of the failed attempt is of no use to anyone.
        if let file = outcome.fileURL { try? FileManager.default.removeItem(at: file) }
        monitor?.willRetry(
            self,
            attempt: attempt.retryCount + 2,
            after: max(result.delay ?? 0, 0),
            failedAttempt: attempt
        )
        if let delay = result.delay, delay > 0 {
            do {
                try await Task.sleep(for: .nanoseconds(Int64(min(delay, 1e9) * 1e9)))
            } catch {
                return  // cancelled: cancel() completed the task
            }
        }
        let proceed = storage.withLock { storage -> Bool in
            guard storage.interlude != nil else { return false }
            storage.retryCount += 1
            storage.lastFailedAttempt = attempt
            return true
        }
        guard proceed else { return }
        await adaptAndStart(interceptor)
    }

    // MARK: The interlude

    /// Opens an interlude unless the task is cancelling or done; returns its generation.
    private func openInterlude(clearingTransfer: Bool = false) -> Int? {
        storage.withLock { storage -> Int? in
            guard storage.state == .running || storage.state == .suspended else { return nil }
            if clearingTransfer { storage.driver = nil }
            storage.interludeGeneration += 1
            storage.interlude = Interlude(generation: storage.interludeGeneration)
            return storage.interludeGeneration
        }
    }

    /// Runs `body` as the interlude's work, never on the calling thread.
    private func run(_ generation: Int, _ body: @escaping @Sendable (SessionTask) async -> Void) {
        let work = Task { await body(self) }
        let cancelled = storage.withLock { storage -> Bool in
            if storage.state == .canceling || storage.state == .completed { return true }
            if storage.interlude?.generation == generation { storage.interlude?.work = work }
            return false
        }
        if cancelled { work.cancel() }
    }

    /// Ends the interlude with `outcome`, unless cancel() already ended it (and the task).
    private func closeInterlude(with outcome: TransferOutcome) {
        let owns = storage.withLock { storage -> Bool in
            guard storage.interlude != nil, storage.state != .canceling, storage.state != .completed else {
                return false
            }
            storage.interlude = nil
            return true
        }
        if owns { finalize(outcome) }
    }

    /// The outcome of a task cancelled where no transfer could report it.
    func cancellationOutcome(reason: GannetError?) -> TransferOutcome {
        let request = currentRequest ?? originalRequest
        let error = TransportError.cancelled(reason: reason, url: request?.url)
        return TransferOutcome(request: request, response: nil, data: nil, error: error, metrics: nil)
    }
}
