/// What a transfer reports to its task and asks of it: the one channel from the engine to the
/// task side (``TaskChannel`` adopts it). Hooks, event monitors, dispositions, credentials and
/// the tasks a transfer continues in are all on that side; the engine never names the task or
/// its session manager (docs/engine.md, "The rooms"). Called on the engine thread; an observer
/// must not block beyond what the hooks it runs do.
protocol TransferObserver: AnyObject, Sendable {
    /// A hop is about to be sent: `request` is the current request, `expectedToSend` the body
    /// length (`-1` when unknown, `nil` when the hop sends no body).
    func transferWillSend(_ request: URLRequest, expectedToSend: Int64?)

    /// The final response head arrived; `response` is the hop's (``Hop/lazyResponse()``), `nil`
    /// only for a request without a URL.
    func transferDidReceiveHead(_ head: ResponseHead, response: LazyResponse?)

    /// Bytes moved. The counters are always current; `notifiesHandlers` says whether the
    /// progress handlers should be called now (``ProgressThrottle``); `final` is the last report.
    func transferDidProgress(received: Int64, sent: Int64, notifiesHandlers: Bool, final: Bool)

    /// The transfer ended; called once. On the engine thread, except for an output stream's
    /// successful transfer, reported from the stream's writer once the last byte is written.
    func transferDidEnd(_ outcome: consuming TransferOutcome)

    /// The final response (or a multipart part) is known: event monitors are told.
    func transferDidReceiveResponse(_ response: LazyResponse)

    /// A redirect will be followed to `next`: event monitors are told.
    func transferWillRedirect(_ response: LazyResponse, to next: URLRequest)

    /// The redirect hook's request for the redirect `proposed`; `nil` delivers the redirect.
    func transferRedirect(_ response: HTTPURLResponse, proposed: URLRequest) -> URLRequest?

    /// The response hook's disposition for `response`, decided now.
    func transferDisposition(for response: HTTPURLResponse) -> ResponseDisposition

    /// Asks the deferred response hook about `response`; `answer` is called once, on any thread.
    func transferAskDisposition(
        for response: HTTPURLResponse,
        answer: @escaping @Sendable (ResponseDisposition) -> Void
    )

    /// Body bytes were delivered to the sink: the data hook and monitors see them.
    func transferDidReceiveData(_ bytes: UnsafeRawBufferPointer)

    /// Request body bytes were sent.
    func transferDidSendBodyData(_ count: Int64, total: Int64, expected: Int64)

    /// A new stream of the request body, for a hop that sends it again (`taskNeedNewBodyStream`).
    func transferNeedsNewBodyStream() -> InputStream?

    /// The credential to answer `challenge` with (the handlers' answer, or default handling
    /// with `unscopedAdmitted` saying whether the caller's unscoped credentials may answer);
    /// `nil` delivers the challenge response. Throws when the challenge is cancelled or failed.
    func transferCredential(
        for challenge: AuthenticationChallenge,
        unscopedAdmitted: Bool,
        url: URL
    ) throws
        -> URLCredential?

    /// A server's certificate chain is to be judged: monitors are told, and the trust challenge
    /// handler answers (``ServerTrustDisposition/performDefaultHandling`` without one).
    func transferServerTrustDisposition(_ trust: ServerTrust) -> ServerTrustDisposition

    /// `.becomeDownload`: the task side makes the download task that continues the transfer
    /// (driven by `driver`) and returns its channel; `nil` when a cancel won the race.
    func transferContinueAsDownload(driver: any TransferDriver) -> (any TransferObserver)?

    /// `.becomeStream`: as ``transferContinueAsDownload(driver:)``, for a stream task reading
    /// from `state`.
    func transferContinueAsStream(state: ByteStreamState, driver: any TransferDriver) -> (any TransferObserver)?

    /// The new task took over the transfer (its head reported): the hook announcing it runs.
    func transferDidTakeOver()
}

/// What a task may ask of the engine about its current transfer: the one channel from a task
/// to the engine (``Transfer`` adopts it by queuing engine commands). Callable from any thread.
protocol TransferDriver: Sendable {
    /// Queues the transfer's start. The caller makes the returned wake-up once it released any
    /// lock of its own, so the engine thread does not wake into it.
    func start() -> EngineWakeUp
    /// Cancels it; `reason` becomes the underlying error (nil: the caller's `cancel()`).
    func cancel(reason: GannetError?)
    /// Pauses both directions.
    func suspend()
    /// Lifts ``suspend()``.
    func resume()
    /// A byte-stream consumer caught up: read again.
    func resumeReading()
    /// The body's consumer failed (an output stream): end the transfer with `error`.
    func fail(_ error: GannetError)
}
