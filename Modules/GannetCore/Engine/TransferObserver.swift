/// What a transfer reports about itself, and to whom: the one channel from the engine to a task
/// (``SessionTask`` adopts it). Called on the engine thread; an observer must not block.
protocol TransferObserver: AnyObject, Sendable {
    /// A hop is about to be sent: `request` is the current request, `expectedToSend` the body
    /// length (`-1` when unknown, `nil` when the hop sends no body).
    func transferWillSend(_ request: URLRequest, expectedToSend: Int64?)

    /// The final response head arrived. `response` is already built when a hook needed it.
    func transferDidReceiveHead(_ head: ResponseHead, response: HTTPURLResponse?)

    /// Bytes moved. The counters are always current; `notifiesHandlers` says whether the
    /// progress handlers should be called now (``ProgressThrottle``); `final` is the last report.
    func transferDidProgress(received: Int64, sent: Int64, notifiesHandlers: Bool, final: Bool)

    /// The transfer ended; called once. On the engine thread, except for an output stream's
    /// successful transfer, reported from the stream's writer once the last byte is written.
    func transferDidEnd(_ outcome: TransferOutcome)
}

/// What a task may ask of the engine about its current transfer: the one channel from a task
/// to the engine (``Transfer`` adopts it by queuing engine commands). Callable from any thread.
protocol TransferDriver: Sendable {
    /// Starts the transfer.
    func start()
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
