/// The session-level and task-level hooks a ``SessionManager`` calls, AFNetworking's block
/// properties. Set them through the manager's `set…` methods; a transfer reads them when it
/// starts, so a change applies to tasks started afterwards.
///
/// Hooks run without any engine lock held: a hook may cancel, suspend, resume or start tasks
/// on the same manager. Hooks that run during the transfer (redirect, response, data, sent
/// body) are called on the engine thread and must return quickly; do real work elsewhere.
struct SessionHooks: Sendable {
    typealias Redirection = @Sendable (SessionManager, SessionTask, HTTPURLResponse, URLRequest) -> URLRequest?
    typealias ResponseDecision = @Sendable (SessionManager, SessionTask, HTTPURLResponse) -> ResponseDisposition
    typealias DeferredResponseDecision =
        @Sendable (SessionManager, SessionTask, HTTPURLResponse, @escaping @Sendable (ResponseDisposition) -> Void) ->
        Void
    typealias BecameDownload = @Sendable (SessionManager, SessionTask, SessionTask) -> Void
    typealias BecameStream = @Sendable (SessionManager, SessionTask, SessionStreamTask) -> Void
    typealias WillCacheResponse = @Sendable (SessionManager, SessionTask, CachedURLResponse) -> CachedURLResponse?
    typealias AuthenticationChallengeHandler =
        @Sendable (SessionManager, SessionTask, AuthenticationChallenge) -> AuthenticationDisposition
    typealias NeedNewBodyStream = @Sendable (SessionManager, SessionTask) -> InputStream?
    typealias ReceivedData = @Sendable (SessionManager, SessionTask, Data) -> Void
    typealias SentBodyData = @Sendable (SessionManager, SessionTask, Int64, Int64, Int64) -> Void
    typealias Completion = @Sendable (SessionManager, SessionTask, (any Error)?) -> Void
    typealias TrustChallenge = @Sendable (SessionManager, SessionTask, ServerTrust) -> ServerTrustDisposition
    typealias MetricsCollected = @Sendable (SessionManager, SessionTask, TaskMetrics) -> Void
    typealias DownloadDestination = @Sendable (SessionManager, SessionTask, URL) -> URL?

    var taskWillPerformHTTPRedirection: Redirection?
    var dataTaskDidReceiveResponse: ResponseDecision?
    var dataTaskDidReceiveResponseDeferred: DeferredResponseDecision?
    var dataTaskDidReceiveData: ReceivedData?
    var taskDidSendBodyData: SentBodyData?
    var taskNeedNewBodyStream: NeedNewBodyStream?
    var taskDidComplete: Completion?
    var serverTrustChallenge: TrustChallenge?
    var taskDidFinishCollectingMetrics: MetricsCollected?
    var downloadTaskDidFinishDownloading: DownloadDestination?
    var downloadTaskDidResume: (@Sendable (SessionManager, SessionTask, Int64, Int64) -> Void)?
    var authenticationChallenge: AuthenticationChallengeHandler?
    /// ``SessionManager/credential``.
    var credential: URLCredential?
    /// ``SessionManager/credentialSchemes``.
    var credentialSchemes: AuthenticationSchemes = .any
    /// `.forSession` and `.permanent` credentials a handler gave, for default handling later.
    var rememberedCredentials: [ProtectionSpace: URLCredential] = [:]
    /// ``SessionManager/shouldUseCredentialStorage``.
    var shouldUseCredentialStorage = true
    var dataTaskDidBecomeDownloadTask: BecameDownload?
    var dataTaskDidBecomeStreamTask: BecameStream?
    var dataTaskWillCacheResponse: WillCacheResponse?
    /// Set by ``SessionManager/setServerTrustEvaluator(_:)``: `.some` replaces the
    /// configuration's evaluator (`.some(nil)`: libcurl's own verification) for transfers
    /// started afterwards.
    var serverTrustEvaluatorOverride: (any ServerTrustEvaluating)??
    /// Bumped whenever the challenge handler or the evaluator is set: a pooled connection approved under an
    /// older value is asked about again before its next request (docs/engine.md, "TLS").
    var trustGeneration: UInt64 = 0
}

extension SessionManager {
    /// Decides each redirect: return the proposed request to follow it, a modified request, or
    /// `nil` to deliver the 3xx response as the task's response. Called on the engine thread.
    /// Gannet's protections (scheme, origin, limits) apply before this hook is asked.
    public func setTaskWillPerformHTTPRedirection(
        _ block: (@Sendable (SessionManager, SessionTask, HTTPURLResponse, URLRequest) -> URLRequest?)?
    ) {
        hooks.withLock { $0.taskWillPerformHTTPRedirection = block }
    }

    /// Decides what to do once the final response's headers arrived: `.allow`, `.cancel`,
    /// `.becomeDownload` or `.becomeStream` (see ``ResponseDisposition``).
    /// Called on the engine thread before any body byte is delivered.
    public func setDataTaskDidReceiveResponse(
        _ block: (@Sendable (SessionManager, SessionTask, HTTPURLResponse) -> ResponseDisposition)?
    ) {
        hooks.withLock { $0.dataTaskDidReceiveResponse = block }
    }

    /// Like ``setDataTaskDidReceiveResponse(_:)`` but the answer may come later, from any
    /// thread: the transfer stays paused (no body byte is read) until `decide` is called.
    /// `decide` is honoured once; later calls are ignored.
    public func setDataTaskDidReceiveResponse(
        deferred block: (
            @Sendable (
                SessionManager, SessionTask, HTTPURLResponse,
                _ decide: @escaping @Sendable (ResponseDisposition) -> Void
            ) -> Void
        )?
    ) {
        hooks.withLock { $0.dataTaskDidReceiveResponseDeferred = block }
    }

    /// Receives each chunk of body bytes as it arrives, on the engine thread.
    public func setDataTaskDidReceiveData(_ block: (@Sendable (SessionManager, SessionTask, Data) -> Void)?) {
        hooks.withLock { $0.dataTaskDidReceiveData = block }
    }

    /// Reports request body progress: bytes sent now, in total, and expected in total (`-1`
    /// when unknown). Called on the engine thread.
    public func setTaskDidSendBodyData(_ block: (@Sendable (SessionManager, SessionTask, Int64, Int64, Int64) -> Void)?)
    {
        hooks.withLock { $0.taskDidSendBodyData = block }
    }

    /// Gives a streamed request body again (AFNetworking's `taskNeedNewBodyStream`): asked
    /// when a request whose body is an `InputStream` must be sent again, for the retry an
    /// authentication challenge's credential asks for or to follow a `307` or `308`. Return a
    /// new stream with the same bytes from the start; `nil` fails the task with
    /// `GannetError.Code.requestRetryFailed`. Without this hook such a challenge is not
    /// answered (the task fails) and such a redirect is not followed (the `307` or `308` is
    /// the response): a stream already read would send a truncated body. Called on the engine
    /// thread; return quickly.
    public func setTaskNeedNewBodyStream(_ block: (@Sendable (SessionManager, SessionTask) -> InputStream?)?) {
        hooks.withLock { $0.taskNeedNewBodyStream = block }
    }

    /// Receives every server-trust challenge, inside the TLS handshake (AFNetworking 4's
    /// `authenticationChallengeHandler` for server trust). As in AFNetworking, a handler
    /// replaces the security policy: its answer decides, and
    /// ``ServerTrustDisposition/performDefaultHandling`` falls back to the configured
    /// ``SessionConfiguration/TLS/serverTrustEvaluator``, or to OpenSSL's standard chain
    /// verification and host name check when there is none.
    ///
    /// Called on the engine thread while the handshake waits; return quickly. Applies to
    /// connections made after it is set; a pooled connection is re-checked before its next
    /// request.
    ///
    /// ```swift
    /// manager.setServerTrustChallengeHandler { _, _, trust in
    ///     trust.host == "internal.example" ? .performDefaultHandling : .cancel
    /// }
    /// ```
    public func setServerTrustChallengeHandler(
        _ block: (@Sendable (SessionManager, SessionTask, ServerTrust) -> ServerTrustDisposition)?
    ) {
        hooks.withLock {
            $0.serverTrustChallenge = block
            $0.trustGeneration &+= 1
        }
    }

    /// Receives the ``TaskMetrics`` of every task whose transfer reached the engine, once, when it
    /// ended (URLSession's `didFinishCollectingMetrics`), on the processing queue before
    /// ``setTaskDidComplete(_:)``'s hook. A task cancelled before it started has no metrics.
    /// Like the completion hook, it is read when the task completes.
    public func setTaskDidFinishCollectingMetrics(
        _ block: (@Sendable (SessionManager, SessionTask, TaskMetrics) -> Void)?
    ) {
        hooks.withLock { $0.taskDidFinishCollectingMetrics = block }
    }

    /// Chooses where every download task's file goes, once its response was accepted
    /// (AFNetworking's `setDownloadTaskDidFinishDownloadingBlock:`): given the task and the
    /// temporary file, return the destination, or `nil` to let the task's own `destination`
    /// decide. When it returns a URL, the task's own `destination` is not asked. Called on the
    /// processing queue when each download finishes; see ``downloadTask(with:destination:progress:completionHandler:)``
    /// for how the file is moved.
    ///
    /// ```swift
    /// manager.setDownloadTaskDidFinishDownloading { _, task, _ in
    ///     downloads.appendingPathComponent("\(task.taskIdentifier).bin")
    /// }
    /// ```
    public func setDownloadTaskDidFinishDownloading(
        _ block: (@Sendable (SessionManager, SessionTask, URL) -> URL?)?
    ) {
        hooks.withLock { $0.downloadTaskDidFinishDownloading = block }
    }

    /// Called when a download made from resume data got its response (AFNetworking's
    /// `setDownloadTaskDidResumeBlock:`): with the offset the file continues from (the bytes
    /// kept, or 0 when the server sent the whole body again) and the total bytes expected
    /// (-1 when unknown). Called on the engine thread; return quickly.
    public func setDownloadTaskDidResume(_ block: (@Sendable (SessionManager, SessionTask, Int64, Int64) -> Void)?) {
        hooks.withLock { $0.downloadTaskDidResume = block }
    }

    /// Called when a data task's response disposition was ``ResponseDisposition/becomeDownload``
    /// (AFNetworking's `setDataTaskDidBecomeDownloadTaskBlock:`), with the data task and the
    /// download task that replaces it. By then the download task is in ``tasks`` with the data
    /// task's completion handler and progress handlers, and the data task has left it without
    /// completing (as NSURLSession's does). Called on the engine thread before any body byte is
    /// written to the download's file; return quickly.
    ///
    /// ```swift
    /// manager.setDataTaskDidBecomeDownloadTask { _, dataTask, downloadTask in
    ///     print("task \(dataTask.taskIdentifier) continues as \(downloadTask.taskIdentifier)")
    /// }
    /// ```
    public func setDataTaskDidBecomeDownloadTask(
        _ block: (@Sendable (SessionManager, SessionTask, SessionTask) -> Void)?
    ) {
        hooks.withLock { $0.dataTaskDidBecomeDownloadTask = block }
    }

    /// Called when a data task's response disposition was ``ResponseDisposition/becomeStream``
    /// (URLSession's `dataTask:didBecomeStreamTask:`), with the data task and the
    /// ``SessionStreamTask`` that reads the rest of its body. Keep the stream task while reading:
    /// releasing it cancels the transfer. Called on the engine thread before any body byte is
    /// delivered; return quickly and read elsewhere.
    public func setDataTaskDidBecomeStreamTask(
        _ block: (@Sendable (SessionManager, SessionTask, SessionStreamTask) -> Void)?
    ) {
        hooks.withLock { $0.dataTaskDidBecomeStreamTask = block }
    }

    /// Called when any task completes, before its completion handler, on the processing queue.
    public func setTaskDidComplete(_ block: (@Sendable (SessionManager, SessionTask, (any Error)?) -> Void)?) {
        hooks.withLock { $0.taskDidComplete = block }
    }
}
