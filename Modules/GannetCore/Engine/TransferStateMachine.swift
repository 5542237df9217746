/// The life of one transfer as a value: where it is (waiting for a head, for a disposition,
/// receiving, discarding a redirect's body, stopping, finished) and whether it is suspended or
/// held back by a slow consumer. `Transfer` feeds it what libcurl and the task report and does
/// what the returned ``Action`` says; the machine itself does no I/O, so every state and
/// transition is tested without a socket (docs/engine.md, "A transfer's state machine").
///
/// An event that cannot happen in the current state never traps. Events from libcurl's
/// callbacks (a header line or body bytes after the transfer finished, a body before its head)
/// answer ``Action/refuse``, which makes libcurl end the hop; commands from other threads (a
/// second cancel, a disposition that arrives late or twice, resuming what is not suspended)
/// answer ``Action/none``, because they race the transfer's end legitimately.
struct TransferStateMachine {
    enum State: Equatable {
        /// Header lines go to the parser; no response head is complete yet.
        case awaitingHead
        /// The final head arrived and the deferred disposition hook was asked; libcurl is
        /// paused for receiving until the answer.
        case awaitingDisposition
        /// Body bytes go to the sink.
        case receiving
        /// A redirect will be followed; its body is read and thrown away, up to
        /// ``TransferStateMachine/redirectBodyLimit`` bytes, after which the hop is cut short.
        case discardingRedirectBody(bytes: Int, cutShort: Bool)
        /// Gannet refused bytes for a reason of its own (``TransferStateMachine/failure``);
        /// libcurl is ending the hop.
        case stopping
        /// The task has been given its outcome; nothing changes any more.
        case finished
    }

    /// What the transfer decided about a complete response head.
    enum HeadDecision: Equatable {
        /// A redirect the transfer follows: discard this body, then start the next hop.
        case followRedirect
        /// The final response: receive its body.
        case deliver
        /// The final response, whose disposition the deferred hook decides later.
        case deliverAfterDisposition
        /// A `401` or `407` answered with a credential: discard this body, then send the same
        /// request again with it. Not a redirect: the redirect count stays.
        case retryAuthenticated
    }

    /// What libcurl should be paused for (`curl_easy_pause`).
    enum Pause: Equatable {
        /// Nothing: both directions run.
        case none
        /// Receiving only: a disposition or a slow consumer is awaited; a body still uploads.
        case receiving
        /// Both directions: the task is suspended.
        case all
    }

    /// Why a transfer is cancelled.
    enum CancellationCause: Equatable {
        /// The task's `cancel()` (possibly with a reason the engine holds, such as invalidation).
        case command
        /// The response disposition said `.cancel`.
        case disposition
        /// The engine stopped: its session manager was released.
        case sessionReleased
    }

    /// Why a transfer fails.
    enum Failure: Equatable {
        /// The error recorded with ``TransferStateMachine/stop(_:)`` or
        /// ``TransferStateMachine/fail(_:)``, in ``TransferStateMachine/failure``.
        case recorded
        /// libcurl ended the hop with this `CURLcode`.
        case libcurl(Int32)
        /// libcurl ended the hop cleanly before any response head was complete.
        case incompleteResponse
        /// No byte moved for longer than the idle timeout.
        case timedOut
    }

    /// What the transfer does next. Each event documents the actions it can return.
    enum Action: Equatable {
        /// Nothing.
        case none
        /// Header callback: hand the line to the response head parser.
        case parseHeaderLine
        /// Header callback: the line is not part of a head (after the head: trailers, or the
        /// blank line libcurl delivers again after an unpause); it is only counted against the
        /// header limits.
        case skipHeaderLine
        /// Take what the callback was given and go on.
        case proceed
        /// Header callback: answer `CURL_WRITEFUNC_PAUSE` until the disposition arrives.
        case awaitDisposition
        /// Write callback: hand the bytes to the body sink.
        case deliverBody
        /// Write callback: take the bytes and drop them (a followed redirect's body).
        case discardBody
        /// Callback: refuse the bytes (answer 0), which makes libcurl end the hop.
        case refuse
        /// Call `curl_easy_pause` with this mask.
        case setPause(Pause)
        /// The hop ended: start the next one, to the redirect target.
        case followRedirect
        /// The hop ended: complete the task successfully.
        case finish
        /// Complete the task with this failure (and take its handle out of the multi handle).
        case fail(Failure)
        /// Complete the task cancelled (and take its handle out of the multi handle).
        case cancel(CancellationCause)
        /// A disposition continues the body in another sink (and task): switch, then report
        /// ``TransferStateMachine/sinkSwitched()``, or ``TransferStateMachine/fail(_:)`` when
        /// the switch failed.
        case switchSink(ResponseDisposition)
    }

    /// The most of a followed redirect's body read before the hop is cut short.
    static let redirectBodyLimit = 1 << 20

    private(set) var state: State = .awaitingHead
    /// Suspended by the task: paused both ways, and its idle timeout does not run.
    private(set) var isSuspended = false
    /// Paused for receiving because a byte-stream consumer is behind.
    private(set) var isBackpressured = false
    /// The body being discarded is an authentication retry's, not a redirect's.
    private var retryingAuthentication = false
    /// Redirects followed so far.
    private(set) var redirectCount = 0
    /// The error a ``Failure/recorded`` failure means; the first one recorded wins.
    private(set) var failure: (any Error)?

    /// Whether the transfer has not finished yet.
    var isLive: Bool { state != .finished }

    /// Whether a complete head of this hop has arrived (a redirect's or the final one).
    private(set) var hasHead = false

    /// Whether the idle timeout runs: not while suspended, awaiting a disposition or held back by
    /// the consumer, which are waits of the caller's making, not the server's.
    var countsIdleTime: Bool {
        isLive && !isSuspended && !isBackpressured && state != .awaitingDisposition
    }

    /// What libcurl should be paused for now.
    var pause: Pause {
        if isSuspended { return .all }
        if isBackpressured || state == .awaitingDisposition { return .receiving }
        return .none
    }

    // MARK: Events from libcurl's callbacks

    /// A header line arrived. Returns ``Action/parseHeaderLine`` while the head is awaited,
    /// ``Action/skipHeaderLine`` after it, ``Action/refuse`` once stopping or finished.
    mutating func headerLine() -> Action {
        switch state {
        case .awaitingHead: return .parseHeaderLine
        case .awaitingDisposition, .receiving, .discardingRedirectBody: return .skipHeaderLine
        case .stopping, .finished: return .refuse
        }
    }

    /// The parser completed a head and the transfer decided about it. Returns
    /// ``Action/proceed`` or ``Action/awaitDisposition``; a head outside ``State/awaitingHead``
    /// is refused with a protocol violation.
    mutating func headParsed(_ decision: HeadDecision) -> Action {
        guard state == .awaitingHead else {
            return stop(GannetError(.protocolViolation, "A second response head arrived in one exchange"))
        }
        hasHead = true
        switch decision {
        case .followRedirect, .retryAuthenticated:
            retryingAuthentication = decision == .retryAuthenticated
            state = .discardingRedirectBody(bytes: 0, cutShort: false)
            return .proceed
        case .deliver:
            state = .receiving
            return .proceed
        case .deliverAfterDisposition:
            state = .awaitingDisposition
            return .awaitDisposition
        }
    }

    /// Body bytes arrived. Returns ``Action/deliverBody`` while receiving,
    /// ``Action/discardBody`` for a redirect's body (``Action/refuse`` once it passes
    /// ``redirectBodyLimit``, cutting the hop short), ``Action/refuse`` when stopping or
    /// finished, and refuses with a protocol violation bytes that come before the head or
    /// while a disposition is awaited.
    mutating func bodyChunk(count: Int) -> Action {
        switch state {
        case .receiving:
            return .deliverBody
        case .discardingRedirectBody(let bytes, _):
            let total = bytes + count
            if total > Self.redirectBodyLimit {
                state = .discardingRedirectBody(bytes: total, cutShort: true)
                return .refuse
            }
            state = .discardingRedirectBody(bytes: total, cutShort: false)
            return .discardBody
        case .awaitingHead, .awaitingDisposition:
            return stop(GannetError(.protocolViolation, "Response body bytes arrived before their head was handled"))
        case .stopping, .finished:
            return .refuse
        }
    }

    /// A callback refuses bytes for Gannet's own reason (a limit, a protocol violation, a
    /// rejected server or redirect, a disposition of `.cancel`): the transfer is stopping and
    /// fails with `error` (the first recorded wins) when libcurl ends the hop. Returns
    /// ``Action/refuse``, or ``Action/none`` once finished.
    @discardableResult
    mutating func stop(_ error: any Error) -> Action {
        guard isLive else { return .none }
        if failure == nil { failure = error }
        state = .stopping
        return .refuse
    }

    /// libcurl ended the hop, cleanly (`code == 0`) or not. Returns ``Action/followRedirect``
    /// after a redirect's body (or one cut short), ``Action/finish`` after a body, else
    /// ``Action/fail(_:)``; ``Action/none`` once finished.
    mutating func hopEnded(code: Int32) -> Action {
        let clean = code == 0
        switch state {
        case .discardingRedirectBody(_, let cutShort):
            guard clean || cutShort else { return end(.fail(.libcurl(code))) }
            if !retryingAuthentication { redirectCount += 1 }
            retryingAuthentication = false
            state = .awaitingHead
            hasHead = false
            return .followRedirect
        case .stopping:
            // A callback may refuse bytes that libcurl replayed after an unpause without
            // counting it as a failure (docs/engine.md): the recorded error decides either way.
            return end(.fail(.recorded))
        case .receiving, .awaitingDisposition:
            return end(clean ? .finish : .fail(.libcurl(code)))
        case .awaitingHead:
            return end(.fail(clean ? .incompleteResponse : .libcurl(code)))
        case .finished:
            return .none
        }
    }

    // MARK: Commands

    /// The deferred disposition hook answered. `.allow` receives the body (``Action/setPause(_:)``
    /// lifting the receive pause, ``Action/none`` while suspended); `.cancel` cancels;
    /// `.becomeDownload` answers ``Action/switchSink(_:)`` and keeps awaiting until
    /// ``sinkSwitched()``. Late or repeated answers return ``Action/none``.
    mutating func dispositionDecided(_ disposition: ResponseDisposition) -> Action {
        guard state == .awaitingDisposition else { return .none }
        if disposition == .cancel { return end(.cancel(.disposition)) }
        if disposition == .becomeDownload || disposition == .becomeStream { return .switchSink(disposition) }
        state = .receiving
        return isSuspended ? .none : .setPause(pause)
    }

    /// The sink a disposition asked for is in place: receive into it, as after `.allow`.
    /// ``Action/none`` unless a switch was awaited.
    mutating func sinkSwitched() -> Action {
        guard state == .awaitingDisposition else { return .none }
        state = .receiving
        return isSuspended ? .none : .setPause(pause)
    }

    /// Cancels a live transfer: ``Action/cancel(_:)``; ``Action/none`` once finished.
    mutating func cancel(_ cause: CancellationCause) -> Action {
        guard isLive else { return .none }
        return end(.cancel(cause))
    }

    /// Ends a live transfer at once with `error` (a request that cannot be configured):
    /// ``Action/fail(_:)`` with ``Failure/recorded``; ``Action/none`` once finished.
    mutating func fail(_ error: any Error) -> Action {
        guard isLive else { return .none }
        failure = error
        return end(.fail(.recorded))
    }

    /// The idle sweep found the transfer idle too long: ``Action/fail(_:)`` with
    /// ``Failure/timedOut`` if its idle time counts, else ``Action/none``.
    mutating func idleTimeoutExpired() -> Action {
        guard countsIdleTime else { return .none }
        return end(.fail(.timedOut))
    }

    /// The task suspends: ``Action/setPause(_:)`` with ``Pause/all``; ``Action/none`` when
    /// already suspended or finished.
    mutating func suspend() -> Action {
        guard isLive, !isSuspended else { return .none }
        isSuspended = true
        return .setPause(.all)
    }

    /// The task resumes: ``Action/setPause(_:)`` with whatever still holds receiving back;
    /// ``Action/none`` when not suspended or finished.
    mutating func resume() -> Action {
        guard isLive, isSuspended else { return .none }
        isSuspended = false
        return .setPause(pause)
    }

    /// The sink's consumer is more than its high-water mark behind: pause receiving.
    /// ``Action/none`` unless receiving and not already held back.
    mutating func consumerFull() -> Action {
        guard state == .receiving, !isBackpressured else { return .none }
        isBackpressured = true
        return .setPause(pause)
    }

    /// The consumer drained below its low-water mark: receive again unless something else
    /// still holds receiving back. ``Action/none`` unless held back by the consumer.
    mutating func consumerDrained() -> Action {
        guard isLive, isBackpressured else { return .none }
        isBackpressured = false
        return isSuspended || state == .awaitingDisposition ? .none : .setPause(pause)
    }

    /// The request body stream has bytes (or its end) after the read callback paused sending:
    /// lift the send pause unless suspended (resuming will). ``Action/none`` once finished.
    mutating func bodySourceReady() -> Action {
        guard isLive, !isSuspended else { return .none }
        return .setPause(pause)
    }

    /// Lifting a pause failed with `code` (libcurl replayed held-back bytes and a callback
    /// refused them): fails with the recorded error if one was, else with libcurl's code.
    mutating func unpauseFailed(code: Int32) -> Action {
        guard isLive else { return .none }
        return end(.fail(state == .stopping ? .recorded : .libcurl(code)))
    }

    private mutating func end(_ action: Action) -> Action {
        state = .finished
        return action
    }
}
