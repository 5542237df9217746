/// The life of one transfer as a value: the hop in flight (``Hop``) and where it is (waiting
/// for its head, for a disposition, receiving, discarding a body before the next hop, stopping,
/// finished), and whether the transfer is suspended or held back by a slow consumer. `Transfer`
/// feeds it what libcurl and the task report and carries out what it returns; the machine does
/// no I/O, so every state and transition is tested without a socket (docs/engine.md, "A
/// transfer's shape").
///
/// It returns two kinds of output. Inside libcurl's callbacks, an answer
/// (``HeaderLineAnswer``, ``BodyAnswer``, ``Answer``) says what the callback returns: take the
/// bytes, pause, or refuse them. Outside them, an ``Effect`` says what the transfer does next,
/// with what it needs to do it: pause or unpause, follow to the next hop, switch the sink,
/// finish, fail or cancel.
///
/// An event that cannot happen in the current state never traps. A callback's event after the
/// transfer finished, or a body before its head, is refused, which makes libcurl end the hop;
/// commands from other threads (a second cancel, a disposition that arrives late or twice,
/// resuming what is not suspended) answer ``Effect/none``, because they race the transfer's end
/// legitimately.
struct TransferStateMachine {
    /// Where the hop in flight (``TransferStateMachine/hop``) is.
    enum State: Equatable {
        /// Header lines go to the hop's parser; no response head is complete yet.
        case awaitingHead
        /// The final head arrived and the deferred disposition hook was asked; libcurl is
        /// paused for receiving until the answer.
        case awaitingDisposition
        /// Body bytes go to the sink.
        case receiving
        /// The hop will be followed by `next` (a redirect, or an authentication retry); its body
        /// is read and thrown away, up to ``TransferStateMachine/redirectBodyLimit`` bytes, after
        /// which the hop is cut short.
        case discarding(next: Hop.Next)
        /// Gannet refused bytes for a reason of its own (``TransferStateMachine/failure``);
        /// libcurl is ending the hop.
        case stopping
        /// The task has been given its outcome; nothing changes any more. The last hop stays
        /// readable for the outcome.
        case finished
    }

    /// Where the transfer is, without the next hop's request: what tests and conditions compare.
    enum Phase: Equatable {
        case awaitingHead
        case awaitingDisposition
        case receiving
        case discarding(bytes: Int, cutShort: Bool)
        case stopping
        case finished
    }

    /// What the transfer decided about a complete response head (``HeadPolicy``).
    enum HeadDecision: Equatable {
        /// Discard this body, then send `next`: a redirect, or the same request with a credential.
        case follow(Hop.Next)
        /// The final response: receive its body.
        case deliver
        /// The final response, whose disposition the deferred hook decides later.
        case deliverAfterDisposition
    }

    /// The header callback's answer to a line.
    enum HeaderLineAnswer: Equatable {
        /// Hand the line to the hop's response head parser.
        case parse
        /// The line is not part of a head (trailers, or the blank line libcurl delivers again
        /// after an unpause): only count it against the header limits.
        case countAsTrailer
        /// Answer 0: libcurl ends the hop.
        case refuse
    }

    /// What the header callback does with a line (``receiveHeaderLine(_:pauseAwaitsConnection:)``).
    enum HeaderLineResult: Equatable {
        /// Answer libcurl at once.
        case answer(Answer)
        /// The line completed the hop's head: the transfer decides about it (``headParsed(_:_:)``).
        case head(ResponseHead)
    }

    /// The write callback's answer to body bytes.
    enum BodyAnswer: Equatable {
        /// Hand them to the sink.
        case deliver
        /// Take them and drop them (the body of a hop that is followed).
        case discard
        /// Answer 0: libcurl ends the hop.
        case refuse
    }

    /// A callback's answer once the transfer decided about its bytes.
    enum Answer: Equatable {
        /// Take them and go on.
        case take
        /// Answer `CURL_WRITEFUNC_PAUSE`: receiving waits for the disposition.
        case pause
        /// Answer 0: libcurl ends the hop.
        case refuse
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
        /// The task's `cancel()`, with the reason the engine holds when there is one (such as
        /// invalidation), for the cancellation error.
        case command(GannetError?)
        /// The response disposition said `.cancel`.
        case disposition
        /// The engine stopped: its session manager was released.
        case sessionReleased

        /// Causes are equal when their kinds are, and a command's reasons have the same code.
        static func == (lhs: Self, rhs: Self) -> Bool {
            switch (lhs, rhs) {
            case (.command(let left), .command(let right)): return left?.code == right?.code
            case (.disposition, .disposition), (.sessionReleased, .sessionReleased): return true
            default: return false
            }
        }
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

    /// What the transfer does next, outside libcurl's callbacks. Each event documents the
    /// effects it can return.
    enum Effect: Equatable {
        /// Nothing.
        case none
        /// Call `curl_easy_pause` with this mask.
        case setPause(Pause)
        /// The hop ended and the next one, to `request`, is now the machine's hop: configure
        /// and send it. `previous` is the request of the hop that ended (whose body stream
        /// the next one may share).
        case follow(URLRequest, previous: URLRequest)
        /// A disposition continues the body in another sink (and task): switch, then report
        /// ``TransferStateMachine/sinkSwitched()``, or ``TransferStateMachine/fail(_:)`` when
        /// the switch failed.
        case switchSink(ResponseDisposition)
        /// Complete the task successfully.
        case finish
        /// Complete the task with this failure (and take its handle out of the multi handle).
        case fail(Failure)
        /// Complete the task cancelled (and take its handle out of the multi handle).
        case cancel(CancellationCause)
    }

    /// The most of a followed hop's body read before the hop is cut short.
    static let redirectBodyLimit = 1 << 20

    private(set) var state: State = .awaitingHead
    /// The hop in flight (the last one, once finished), beside its state rather than inside
    /// each case: read and changed in place on every callback, it is never copied. A new hop
    /// replaces it whole when one is followed (``hopEnded(code:)``).
    var hop: Hop
    /// Suspended by the task: paused both ways, and its idle timeout does not run.
    private(set) var isSuspended = false
    /// Paused for receiving because a byte-stream consumer is behind.
    private(set) var isBackpressured = false
    /// Redirects followed so far.
    private(set) var redirectCount = 0
    /// The error a ``Failure/recorded`` failure means; the first one recorded wins.
    private(set) var failure: (any Error)?

    init(first hop: Hop) {
        self.hop = hop
    }

    var phase: Phase {
        switch state {
        case .awaitingHead: return .awaitingHead
        case .awaitingDisposition: return .awaitingDisposition
        case .receiving: return .receiving
        case .discarding(let next): return .discarding(bytes: next.discardedBytes, cutShort: next.cutShort)
        case .stopping: return .stopping
        case .finished: return .finished
        }
    }

    /// Whether the transfer has not finished yet.
    var isLive: Bool { state != .finished }

    /// Whether a complete head of this hop has arrived (a redirect's or the final one).
    var hasHead: Bool { hop.head != nil }

    /// Whether the hop ends by following to another (its head was a redirect or a challenge
    /// answered with a credential).
    var isFollowing: Bool {
        if case .discarding = state { return true }
        return false
    }

    /// The close_notify rule (``HeadPolicy/truncation(of:)``) for the hop, should it end cleanly
    /// now: the error a body delimited by the end of a TLS connection without close_notify fails
    /// with. `nil` for a hop that is followed, or whose head and body came from the cache.
    var truncation: (any Error)? {
        guard !isFollowing, hop.cache?.answersFromCache != true, let error = HeadPolicy.truncation(of: hop) else {
            return nil
        }
        return TransportError.make(.networkConnectionLost, underlying: error, url: hop.url)
    }

    private var isAwaitingDisposition: Bool { state == .awaitingDisposition }

    /// Whether the idle timeout runs: not while suspended, awaiting a disposition or held back by
    /// the consumer, which are waits of the caller's making, not the server's.
    var countsIdleTime: Bool {
        isLive && !isSuspended && !isBackpressured && !isAwaitingDisposition
    }

    /// What libcurl should be paused for now.
    var pause: Pause {
        if isSuspended { return .all }
        if isBackpressured || isAwaitingDisposition { return .receiving }
        return .none
    }

    // MARK: Events from libcurl's callbacks

    /// A header line arrived: parse it while the head is awaited, count it as a trailer after
    /// the head, refuse it once stopping or finished.
    func headerLine() -> HeaderLineAnswer {
        switch state {
        case .awaitingHead: return .parse
        case .awaitingDisposition, .receiving, .discarding: return .countAsTrailer
        case .stopping, .finished: return .refuse
        }
    }

    /// A header line arrived, handled in one step: ``Answer/pause`` while a pause is asked for
    /// before libcurl had a connection to pause (`pauseAwaitsConnection`, docs/engine.md
    /// "Suspending"); else, as ``headerLine()`` says, the hop's parser takes it (a complete head
    /// is returned), it is counted as a trailer, or refused. Throws what the parser throws.
    /// One call for each line, so the callback makes one access to the transfer's machine where
    /// it made several, each with its own dynamic exclusivity check.
    mutating func receiveHeaderLine(
        _ line: UnsafeRawBufferPointer,
        pauseAwaitsConnection: Bool
    ) throws -> HeaderLineResult {
        if pauseAwaitsConnection, pause != .none { return .answer(.pause) }
        switch headerLine() {
        case .parse:
            switch try hop.parser.consume(line) {
            case .needMore, .informational: return .answer(.take)
            case .complete(let head): return .head(head)
            }
        case .countAsTrailer:
            // After the head: trailers, counted against the head's limits (libcurl keeps every
            // line it passes on, and counts none of them: docs/core.md "Limits").
            try hop.parser.consumeTrailer(line)
            return .answer(.take)
        case .refuse:
            return .answer(.refuse)
        }
    }

    /// The parser completed `head` and the transfer decided about it: ``Answer/take``, or
    /// ``Answer/pause`` to await a disposition. A head outside ``State/awaitingHead`` is refused
    /// with a protocol violation.
    mutating func headParsed(_ head: ResponseHead, _ decision: HeadDecision) -> Answer {
        guard state == .awaitingHead else {
            return stop(GannetError(.protocolViolation, "A second response head arrived in one exchange"))
        }
        // The transfer records the head as it arrives (a hook may need its response before the
        // decision): recording it again would drop the response object the task was given.
        if hop.head == nil {
            hop.head = head
        } else {
            assert(hop.head == head, "the head decided on is the hop's")
        }
        switch decision {
        case .follow(let next):
            state = .discarding(next: next)
            return .take
        case .deliver:
            state = .receiving
            return .take
        case .deliverAfterDisposition:
            state = .awaitingDisposition
            return .pause
        }
    }

    /// Body bytes arrived: deliver them while receiving, discard a followed hop's body (refused
    /// once it passes ``redirectBodyLimit``, cutting the hop short), refuse them when stopping
    /// or finished, and refuse with a protocol violation bytes that come before the head or
    /// while a disposition is awaited.
    mutating func bodyChunk(count: Int) -> BodyAnswer {
        switch state {
        case .receiving:
            return .deliver
        case .discarding(var next):
            next.discardedBytes += count
            next.cutShort = next.discardedBytes > Self.redirectBodyLimit
            state = .discarding(next: next)
            return next.cutShort ? .refuse : .discard
        case .awaitingHead, .awaitingDisposition:
            _ = stop(GannetError(.protocolViolation, "Response body bytes arrived before their head was handled"))
            return .refuse
        case .stopping, .finished:
            return .refuse
        }
    }

    /// A callback refuses bytes for Gannet's own reason (a limit, a protocol violation, a
    /// rejected server or redirect, a disposition of `.cancel`): the transfer is stopping and
    /// fails with `error` (the first recorded wins) when libcurl ends the hop. Always
    /// ``Answer/refuse``; once finished, nothing is recorded.
    mutating func stop(_ error: any Error) -> Answer {
        guard isLive else { return .refuse }
        if failure == nil { failure = error }
        state = .stopping
        return .refuse
    }

    /// libcurl is about to send the hop's request (`CURLOPT_PREREQFUNCTION`): whether it may. It
    /// sends it again on a new connection when a reused one closes before any response byte;
    /// the server may have acted on the first copy, so a second send of a method that is not
    /// idempotent (``Hop/countSendAttempt()``) stops the transfer with `networkConnectionLost`
    /// instead (docs/engine.md, "Connection reuse").
    mutating func requestWillBeSent() -> Bool {
        guard let error = hop.countSendAttempt() else { return true }
        _ = stop(TransportError.make(.networkConnectionLost, underlying: error, url: hop.url))
        return false
    }

    /// libcurl ended the hop, cleanly (`code == 0`) or not; a clean end that the head policy
    /// still calls a cut fails with ``truncation``. After a followed hop's body (or one cut
    /// short): ``Effect/follow(_:previous:)``, the next hop now awaiting its head; after a body:
    /// ``Effect/finish``; else ``Effect/fail(_:)``; ``Effect/none`` once finished.
    mutating func hopEnded(code: Int32) -> Effect {
        let clean = code == 0
        switch state {
        case .discarding(let next):
            guard clean || next.cutShort else { return end(.fail(.libcurl(code))) }
            if next.countsAsRedirect { redirectCount += 1 }
            let previous = hop.request
            hop = hop.following(next)
            state = .awaitingHead
            return .follow(next.request, previous: previous)
        case .stopping:
            // A callback may refuse bytes that libcurl replayed after an unpause without
            // counting it as a failure (docs/engine.md): the recorded error decides either way.
            return end(.fail(.recorded))
        case .receiving, .awaitingDisposition:
            guard clean else { return end(.fail(.libcurl(code))) }
            // Asked here, not by the transfer before the call: reading a computed property of
            // the machine from outside copied the whole machine, about 670 instructions a
            // request (callgrind, docs/performance.md).
            if let truncation {
                failure = failure ?? truncation
                return end(.fail(.recorded))
            }
            return end(.finish)
        case .awaitingHead:
            return end(.fail(clean ? .incompleteResponse : .libcurl(code)))
        case .finished:
            return .none
        }
    }

    // MARK: Commands

    /// A command the task queued through its ``TransferDriver``, as the event it stands for:
    /// cancel, suspend, resume, a disposition, the consumer drained, the consumer failed (with
    /// `error` for the hop's URL), the body source is ready. `start` is ``Effect/none``: the
    /// engine attaches the transfer itself (`CurlEngine.start`).
    mutating func apply(_ command: CurlEngine.TransferCommand) -> Effect {
        switch command {
        case .start: return .none
        case .cancel(let reason): return cancel(.command(reason))
        case .suspend: return suspend()
        case .resume: return resume()
        case .disposition(let disposition): return dispositionDecided(disposition)
        case .resumeReading: return consumerDrained()
        case .fail(let error):
            guard let url = hop.url else { return .none }
            return fail(TransportError.urlError(gannet: error, url: url))
        case .resumeSending: return bodySourceReady()
        }
    }

    /// The deferred disposition hook answered. `.allow` receives the body (``Effect/setPause(_:)``
    /// lifting the receive pause, ``Effect/none`` while suspended); `.cancel` cancels;
    /// `.becomeDownload` and `.becomeStream` answer ``Effect/switchSink(_:)`` and keep awaiting
    /// until ``sinkSwitched()``. Late or repeated answers return ``Effect/none``.
    mutating func dispositionDecided(_ disposition: ResponseDisposition) -> Effect {
        guard state == .awaitingDisposition else { return .none }
        if disposition == .cancel { return end(.cancel(.disposition)) }
        if disposition == .becomeDownload || disposition == .becomeStream { return .switchSink(disposition) }
        state = .receiving
        return isSuspended ? .none : .setPause(pause)
    }

    /// The sink a disposition asked for is in place: receive into it, as after `.allow`.
    /// ``Effect/none`` unless a switch was awaited.
    mutating func sinkSwitched() -> Effect {
        guard state == .awaitingDisposition else { return .none }
        state = .receiving
        return isSuspended ? .none : .setPause(pause)
    }

    /// Cancels a live transfer: ``Effect/cancel(_:)``; ``Effect/none`` once finished.
    mutating func cancel(_ cause: CancellationCause) -> Effect {
        guard isLive else { return .none }
        return end(.cancel(cause))
    }

    /// Ends a live transfer at once with `error` (a request that cannot be configured, a sink
    /// that could not be switched): ``Effect/fail(_:)`` with ``Failure/recorded``;
    /// ``Effect/none`` once finished.
    mutating func fail(_ error: any Error) -> Effect {
        guard isLive else { return .none }
        failure = error
        return end(.fail(.recorded))
    }

    /// The idle sweep found the transfer idle too long: ``Effect/fail(_:)`` with
    /// ``Failure/timedOut`` if its idle time counts, else ``Effect/none``.
    mutating func idleTimeoutExpired() -> Effect {
        guard countsIdleTime else { return .none }
        return end(.fail(.timedOut))
    }

    /// The task suspends: ``Effect/setPause(_:)`` with ``Pause/all``; ``Effect/none`` when
    /// already suspended or finished.
    mutating func suspend() -> Effect {
        guard isLive, !isSuspended else { return .none }
        isSuspended = true
        return .setPause(.all)
    }

    /// The task resumes: ``Effect/setPause(_:)`` with whatever still holds receiving back;
    /// ``Effect/none`` when not suspended or finished.
    mutating func resume() -> Effect {
        guard isLive, isSuspended else { return .none }
        isSuspended = false
        return .setPause(pause)
    }

    /// The sink's consumer is more than its high-water mark behind: pause receiving.
    /// ``Effect/none`` unless receiving and not already held back.
    mutating func consumerFull() -> Effect {
        guard state == .receiving, !isBackpressured else { return .none }
        isBackpressured = true
        return .setPause(pause)
    }

    /// The consumer drained below its low-water mark: receive again unless something else
    /// still holds receiving back. ``Effect/none`` unless held back by the consumer.
    mutating func consumerDrained() -> Effect {
        guard isLive, isBackpressured else { return .none }
        isBackpressured = false
        return isSuspended || isAwaitingDisposition ? .none : .setPause(pause)
    }

    /// The request body stream has bytes (or its end) after the read callback paused sending:
    /// lift the send pause unless suspended (resuming will). ``Effect/none`` once finished.
    func bodySourceReady() -> Effect {
        guard isLive, !isSuspended else { return .none }
        return .setPause(pause)
    }

    /// Lifting a pause failed with `code` (libcurl replayed held-back bytes and a callback
    /// refused them): fails with the recorded error if one was, else with libcurl's code.
    mutating func unpauseFailed(code: Int32) -> Effect {
        guard isLive else { return .none }
        if state == .stopping { return end(.fail(.recorded)) }
        return end(.fail(.libcurl(code)))
    }

    private mutating func end(_ effect: Effect) -> Effect {
        state = .finished
        return effect
    }
}
